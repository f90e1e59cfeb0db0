"""A bounded load test of ``errdex serve`` on loopback: many clients, mixed search and explain.

    .venv/bin/python bench/load_serve.py [--db STORE] [--clients 50] [--seconds 20] [--pause 1 0.5]

Without ``--db`` it indexes this project's ``.venv`` (the standard library and every
installed distribution) into a temporary store first, and stores its prose (``errdex
enrich``), as a shared server's store should: an index defers prose to each reader, which
roughly doubles what an explain costs.  The clients are real HTTP clients
(aiohttp, one asyncio process beside the server, so both share this machine's cores).  The
questions are real: errors raised by running real standard-library code in subprocesses;
searches send their last line, explains the whole traceback.

Loads: clients that pause between requests (each ``--pause`` in turn, seconds on average,
exponentially distributed: 50 clients at 1 s send about 50 requests a second, at 0.5 s about
100), which is how a team or a fleet of agents uses a shared index; then clients sending back
to back, which measures the most the server answers (there, latency is the queue: 50 requests
in flight wait their turn).
Baseline, measured in the same run under the same load: ``GET /schema.json``, a route that
returns a fixed document, i.e. what the server and the clients cost with no lookup at all.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import aiohttp
import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from servers import ERRDEX, serving  # noqa: E402

#: Real failures of real code: each runs in a subprocess and its traceback is the question.
PROGRAMS = [
    "import ipaddress; ipaddress.ip_address('999.1.1.1')",
    "import ipaddress; ipaddress.ip_network('10.0.0.1/8')",
    "from fractions import Fraction; Fraction(1, 0)",
    "from fractions import Fraction; Fraction('one half')",
    "import json; json.loads('{\"a\": 1,}')",
    "import datetime; datetime.date.fromisoformat('2024-13-01')",
    "import uuid; uuid.UUID('not-a-uuid')",
    "import base64; base64.b64decode('abc', validate=True)",
    "import shlex; shlex.split('a \"b')",
    "import statistics; statistics.mean([])",
    "import zoneinfo; zoneinfo.ZoneInfo('Mars/Olympus')",
    "import configparser; configparser.ConfigParser().get('nosection', 'x')",
]


def tracebacks() -> list[str]:
    out = []
    for program in PROGRAMS:
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
        if done.returncode == 1 and done.stderr.strip():
            out.append(done.stderr)
    return out


async def load(
    url: str, clients: int, seconds: float, pick: list[tuple[str, dict[str, Any]]], pause: float = 0.0
) -> dict[str, Any]:
    """Each client sends a request, waits ``pause`` seconds on average (exponentially
    distributed, as independent users are), and again until time is up; latencies by kind.
    With no pause every client sends back to back: the server's most, with queueing.

    aiohttp, not httpx: on loopback the client shares the server's two cores, and httpx's
    asyncio client spent about 6 ms of CPU a request where aiohttp spends 0.4 ms."""
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    deadline = time.perf_counter() + seconds
    connector = aiohttp.TCPConnector(limit=clients)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(url, connector=connector, timeout=timeout) as http:

        async def client(seed: int) -> None:
            rng = random.Random(seed)
            while time.perf_counter() < deadline:
                if pause:
                    await asyncio.sleep(rng.expovariate(1 / pause))
                kind, request = rng.choice(pick)
                start = time.perf_counter()
                try:
                    async with http.request(**request) as answer:
                        await answer.read()
                        ok = answer.status == 200
                except (aiohttp.ClientError, TimeoutError):
                    ok = False
                latencies[kind].append(time.perf_counter() - start)
                if not ok:
                    errors[kind] += 1

        await asyncio.gather(*(client(n) for n in range(clients)))
    return {"latencies": latencies, "errors": errors, "seconds": seconds}


def report(title: str, result: dict[str, Any]) -> dict[str, float]:
    total = sum(len(v) for v in result["latencies"].values())
    print(f"{title}: {total / result['seconds']:.0f} requests/s, {sum(result['errors'].values())} errors")
    p99s = {}
    for kind, values in sorted(result["latencies"].items()):
        ordered = sorted(values)
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[int(0.99 * (len(ordered) - 1))] * 1000
        p99s[kind] = p99
        print(f"  {kind:<8} {len(values):6d} requests  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms")
    return p99s


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", help="the store to serve (default: index this project's .venv)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=1, help="errdex serve --workers")
    parser.add_argument(
        "--pause",
        type=float,
        nargs="+",
        default=[1.0, 0.5],
        help="mean seconds each client waits between requests (one load per value)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        db = args.db
        if db is None:
            db = str(Path(scratch) / "venv.db")
            python = ROOT / ".venv" / "bin" / "python"
            subprocess.run([ERRDEX, "index", "--python", str(python), "--db", db, "-q"], check=True)
            # A shared server's store keeps its prose (an index defers it to each reader).
            subprocess.run([ERRDEX, "enrich", "--db", db, "-q"], check=True)
        pastes = tracebacks()
        with serving(db, "--workers", str(args.workers)) as url:
            baseline = [("schema", {"method": "GET", "url": "/schema.json"})]
            searches = [
                ("search", {"method": "GET", "url": "/api/search", "params": {"q": p.splitlines()[-1]}})
                for p in pastes
            ]
            explains = [
                ("explain", {"method": "POST", "url": "/api/explain", "json": {"text": p}}) for p in pastes
            ]
            mixed = searches * 7 + explains * 3  # 70% searches, 30% explains
            # Warm the index and the compiled patterns, as a running server would be.
            with httpx.Client(base_url=url, timeout=30) as warm:
                for _, request in mixed:
                    warm.request(**request)  # type: ignore[arg-type]
            print(f"{len(pastes)} real errors, {args.clients} clients, on {url} ({db})")
            clients, seconds = args.clients, args.seconds
            for pause in args.pause:
                print(f"-- each client pauses {pause} s on average between requests")
                base = report(
                    "baseline GET /schema.json", asyncio.run(load(url, clients, seconds / 2, baseline, pause))
                )
                p99 = report(
                    "mixed search and explain", asyncio.run(load(url, clients, seconds, mixed, pause))
                )
                print(f"search p99 / baseline p99: {p99['search'] / base['schema']:.2f}x")
            print("-- back to back (no pause): the most the server answers; latency is mostly queueing")
            report("baseline GET /schema.json", asyncio.run(load(url, clients, seconds / 2, baseline)))
            report("mixed search and explain", asyncio.run(load(url, clients, seconds / 2, mixed)))


if __name__ == "__main__":
    main()
