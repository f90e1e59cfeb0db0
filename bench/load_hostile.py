"""``errdex serve`` under load, with oversized pastes and an index rebuilt beside it.

    .venv/bin/python bench/load_hostile.py [--clients 50] [--seconds 30] [--pause 1]

It indexes this project's ``.venv`` into a temporary store, stores its prose, serves it on
loopback, and runs ``--clients`` real HTTP clients for ``--seconds``: searches (a real error's
last line), explains (its whole traceback), and now and then an oversized paste: a paste just
under the 1 MB limit made of thousands of one-line errors, one over the limit, and a body
over the server's limit.  A few
seconds in, ``errdex index --force`` rebuilds the same store beside the server, as a team's
nightly job would.  Each client waits ``--pause`` seconds on average between requests.

Reported per route, for requests sent outside the rebuild and during it: count, p50, p99 and
errors.  An error is any status but the one the request should get: 200; 400 for a paste
over the limit; 413 for a body over the server's limit (a 503 is an error too: no request here
should need more than the budget).  Baseline, measured in the same run: ``GET /schema.json``,
which does no lookup.
The server's memory (resident set) is sampled every 50 ms: before the load, its peak, and
after the load once the server is idle again.

Goals (the issue that asked for this): 0 errors; search p99 under 50 ms outside the rebuild
and under 500 ms during it; peak memory under 1 GB; memory after within 20% of before.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import aiohttp
import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from errdex.match.parse import MAX_PASTE_BYTES  # noqa: E402
from errdex.serve.http import MAX_BODY  # noqa: E402
from load_serve import tracebacks  # noqa: E402
from servers import ERRDEX, server_process  # noqa: E402

#: Of every 100 requests: searches, explains, oversized pastes (the rest of the 100).
SEARCHES, EXPLAINS = 70, 27


def many_errors(pastes: list[str], size: int) -> str:
    """One-line errors (the real errors' last lines, numbered so no two are alike) up to ``size``
    bytes: thousands of errors, each a lookup if nothing bounded them."""
    lines: list[str] = []
    total = n = 0
    while True:
        line = f"{pastes[n % len(pastes)].strip().splitlines()[-1]} #{n}\n"
        if total + len(line.encode()) > size:
            return "".join(lines)
        lines.append(line)
        total += len(line.encode())
        n += 1


def resident(pid: int) -> int:
    """The process's resident set, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class Memory(threading.Thread):
    """Samples a process's resident set until stopped; keeps the peak."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self._done = pid, 0, threading.Event()

    def run(self) -> None:
        while not self._done.wait(0.05):
            self.peak = max(self.peak, resident(self.pid))

    def stop(self) -> None:
        self._done.set()
        self.join()


async def load(
    url: str, clients: int, seconds: float, pick: list[tuple[str, dict[str, Any], int]], pause: float
) -> list[tuple[str, float, float, bool]]:
    """(kind, start, latency, as expected) of every request the clients sent."""
    done: list[tuple[str, float, float, bool]] = []
    deadline = time.monotonic() + seconds
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(
        url, connector=connector, timeout=aiohttp.ClientTimeout(total=60)
    ) as http:

        async def client(seed: int) -> None:
            rng = random.Random(seed)
            while time.monotonic() < deadline:
                await asyncio.sleep(rng.expovariate(1 / pause))
                kind, request, expected = rng.choice(pick)
                start = time.monotonic()
                try:
                    async with http.request(**request) as answer:
                        await answer.read()
                        ok = answer.status == expected
                except (aiohttp.ClientError, TimeoutError):
                    ok = False
                done.append((kind, start, time.monotonic() - start, ok))

        await asyncio.gather(*(client(n) for n in range(clients)))
    return done


def report(title: str, done: list[tuple[str, float, float, bool]], seconds: float) -> dict[str, float]:
    errors = sum(1 for *_, ok in done if not ok)
    print(f"{title}: {len(done)} requests ({len(done) / max(seconds, 1e-9):.0f}/s), {errors} errors")
    p99s = {}
    kinds: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for kind, _, latency, ok in done:
        kinds[kind].append((latency, ok))
    for kind, values in sorted(kinds.items()):
        ordered = sorted(latency for latency, _ in values)
        p50 = statistics.median(ordered) * 1000
        p99 = p99s[kind] = ordered[int(0.99 * (len(ordered) - 1))] * 1000
        failed = sum(1 for _, ok in values if not ok)
        print(f"  {kind:<9} {len(values):6d} requests  p50 {p50:8.1f} ms  p99 {p99:8.1f} ms  {failed} errors")
    return p99s


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pause", type=float, default=1.0, help="mean seconds between requests")
    parser.add_argument("--rebuild-at", type=float, default=5.0, help="when the rebuild starts")
    parser.add_argument("--no-rebuild", action="store_true", help="no rebuild, for comparison")
    parser.add_argument("--no-oversized", action="store_true", help="no oversized pastes, for comparison")
    args = parser.parse_args()
    python = ROOT / ".venv" / "bin" / "python"
    with tempfile.TemporaryDirectory() as scratch:
        db = str(Path(scratch) / "venv.db")
        subprocess.run([ERRDEX, "index", "--python", str(python), "--db", db, "-q"], check=True)
        subprocess.run([ERRDEX, "enrich", "--db", db, "-q"], check=True)
        pastes = tracebacks()
        near_limit = many_errors(pastes, MAX_PASTE_BYTES - 10_000)
        over_limit = near_limit + near_limit[: MAX_PASTE_BYTES // 4]
        pick: list[tuple[str, dict[str, Any], int]] = []
        for i in range(SEARCHES):
            q = pastes[i % len(pastes)].strip().splitlines()[-1]
            pick.append(("search", {"method": "GET", "url": "/api/search", "params": {"q": q}}, 200))
        for i in range(EXPLAINS):
            text = pastes[i % len(pastes)]
            pick.append(("explain", {"method": "POST", "url": "/api/explain", "json": {"text": text}}, 200))
        if not args.no_oversized:
            pick.append(
                ("oversized", {"method": "POST", "url": "/api/explain", "json": {"text": near_limit}}, 200)
            )
            pick.append(
                ("over-limit", {"method": "POST", "url": "/api/explain", "json": {"text": over_limit}}, 400)
            )
            too_large = {"content-type": "application/json"}
            pick.append(
                (
                    "too-large",
                    {
                        "method": "POST",
                        "url": "/api/explain",
                        "data": b"x" * (MAX_BODY + 1),
                        "headers": too_large,
                    },
                    413,
                )
            )
        baseline = [("schema", {"method": "GET", "url": "/schema.json"}, 200)]
        with server_process(db) as (url, server):
            with httpx.Client(base_url=url, timeout=60) as warm:
                for _, request, _ in pick:
                    warm.request(**request)
            time.sleep(1)
            before = resident(server.pid)
            lines = near_limit.count("\n")
            print(f"{len(pastes)} real errors, {args.clients} clients pausing {args.pause} s, {url}")
            print(f"oversized paste: {len(near_limit.encode()):,} bytes, {lines:,} one-line errors")
            base = report("baseline GET /schema.json", asyncio.run(load(url, 10, 5, baseline, args.pause)), 5)
            memory = Memory(server.pid)
            memory.start()
            window: list[float] = []

            def rebuild() -> None:
                if args.no_rebuild:
                    return
                time.sleep(args.rebuild_at)
                window.append(time.monotonic())
                command = [ERRDEX, "index", "--force", "--python", str(python), "--db", db, "-q"]
                subprocess.run(command, check=True)
                window.append(time.monotonic())

            beside = threading.Thread(target=rebuild)
            beside.start()
            start = time.monotonic()
            done = asyncio.run(load(url, args.clients, args.seconds, pick, args.pause))
            elapsed = time.monotonic() - start
            beside.join()
            memory.stop()
            time.sleep(5)  # the server's last index rebuild (a second after the store is quiet)
            after = resident(server.pid)
        began, ended = window or (start, start)
        during = [d for d in done if began <= d[1] <= ended]
        outside = [d for d in done if not began <= d[1] <= ended]
        if window:
            print(f"-- errdex index --force beside the server took {ended - began:.1f} s")
        quiet = report("outside the rebuild", outside, elapsed - (ended - began))
        print(f"search p99 / baseline p99: outside {quiet['search'] / base['schema']:.1f}x")
        if window:
            busy = report("during the rebuild", during, ended - began)
            print(f"search p99 during the rebuild: {busy.get('search', 0):.0f} ms")
        mb = 1024 * 1024
        print(
            f"server memory: before {before / mb:.0f} MB, peak {memory.peak / mb:.0f} MB,"
            f" after {after / mb:.0f} MB ({after / before:.2f}x before)"
        )


if __name__ == "__main__":
    main()
