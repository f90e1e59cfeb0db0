"""Index a whole Python environment, refresh it, and explain on it; each against a baseline.

    .venv/bin/python bench/index_env.py --create /tmp/benchenv   # make the environment once
    .venv/bin/python bench/index_env.py --python /tmp/benchenv/bin/python

``--create`` installs numpy, pandas, scikit-learn, matplotlib, requests, sqlalchemy and
lightning with torch 2.13.0 (the CPU build this kind of machine keeps on disk; another torch
would pull gigabytes of CUDA wheels).  Figures, all in one run:

* full index: ``errdex index --force`` into a new store, wall time, against parsing the same
  files with bare ``ast.parse`` in one process (CPU time);
* refresh with nothing changed: ``errdex index`` again, a whole process, median of 5;
* explain on the warm index: ``errdex explain MESSAGE`` with no ``--db`` (so the freshness
  check is included), a whole process, median of 10, against a process that only imports
  what any Typer + pydantic command imports.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from errdex.mine.environment import distribution_source, distributions, probe, stdlib_source

ERRDEX = Path(sys.executable).with_name("errdex")
PACKAGES = ["numpy", "pandas", "scikit-learn", "matplotlib", "requests", "sqlalchemy", "lightning"]
MESSAGE = (
    "ValueError: When using multiple models + deepspeed, please provide the model used to perform"
    " the optimization: `self.backward(loss, model=model)`"
)


def create(path: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    pip = [str(path / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "torch==2.13.0"], check=True)
    subprocess.run([*pip, *PACKAGES], check=True)


def wall(command: list[str], env: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def parse_baseline(python: str) -> tuple[int, float]:
    """CPU seconds to ``ast.parse`` every file the index reads (sources and tests)."""
    env = probe(python)
    sources = [stdlib_source(env), *(distribution_source(d) for d in distributions(env))]
    files = [f.path for s in sources for f in (*s.files, *s.tests)]
    start = time.process_time()
    for path in files:
        with contextlib.suppress(SyntaxError, ValueError):
            ast.parse(path.read_bytes())
    return len(files), time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--python", help="the environment's interpreter")
    parser.add_argument("--create", type=Path, help="create the benchmark environment here, then stop")
    args = parser.parse_args()
    if args.create:
        create(args.create)
        return
    if not args.python:
        parser.error("--python is required (or --create DIR first)")

    with tempfile.TemporaryDirectory() as data:
        env = {k: v for k, v in os.environ.items() if k != "ERRDEX_DB"}
        env.update({"XDG_DATA_HOME": data, "VIRTUAL_ENV": str(Path(args.python).parent.parent)})
        full = wall([str(ERRDEX), "index", "--force"], env, 1)[0]
        report = subprocess.run(
            [str(ERRDEX), "index"], env=env, check=True, capture_output=True, text=True
        ).stdout.strip()
        refresh = wall([str(ERRDEX), "index"], env, 5)
        explain = wall([str(ERRDEX), "explain", MESSAGE], env, 10)
        floor = wall([sys.executable, "-c", "import typer, pydantic, rich.console"], env, 10)
        answer = subprocess.run(
            [str(ERRDEX), "explain", MESSAGE, "--json", "--top", "1"],
            env=env,
            check=True,
            capture_output=True,
        ).stdout
    files, parse = parse_baseline(args.python)

    print(f"environment: {args.python} ({os.cpu_count()} cores)")
    print(f"index: {' '.join(report.split())}")
    print(
        f"full index         {full:7.1f} s wall   | ast.parse of the same {files} files:"
        f" {parse:.1f} s CPU in one process ({full / parse:.2f}x)"
    )
    print(
        f"refresh, no change {statistics.median(refresh):7.3f} s wall (median of 5, min {min(refresh):.3f})"
    )
    print(
        f"explain, warm      {statistics.median(explain):7.3f} s wall (median of 10, min {min(explain):.3f})"
        f" | import typer+pydantic+rich: {statistics.median(floor):.3f} s"
        f" ({statistics.median(explain) / statistics.median(floor):.1f}x)"
    )
    print(f"answer found: {b'fabric.py' in answer}")


if __name__ == "__main__":
    main()
