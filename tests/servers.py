"""``errdex serve`` run for real on loopback, as a user starts it: for the tests whose point is
the socket (the server, its limits, its workers) and for ``bench/load_serve.py``."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from pathlib import Path

import httpx

ERRDEX = str(Path(sys.executable).with_name("errdex"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(db: str | PathLike[str], *extra: str) -> Iterator[str]:
    """``errdex serve --db DB EXTRA...`` on a free port for the block; its URL once it answers."""
    with server_process(db, *extra) as (url, _):
        yield url


@contextmanager
def server_process(db: str | PathLike[str], *extra: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``serving``, with the server's process (to watch its memory).

    Its log goes to a file (a pipe nobody reads would stall a server that logs every request),
    and is what the failure says if the server dies before answering.
    """
    port = free_port()
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            [ERRDEX, "serve", "--db", str(db), "--port", str(port), *extra],
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(400):
                try:
                    httpx.get(f"{url}/api/repos", timeout=2)
                    break
                except httpx.TransportError:
                    if server.poll() is not None:
                        log.seek(0)
                        raise RuntimeError(f"errdex serve exited: {log.read().decode()}") from None
                    time.sleep(0.05)
            yield url, server
        finally:
            server.terminate()
            server.wait(10)
