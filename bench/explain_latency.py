"""Explain latency on an environment index: every corpus error, three ways, timed in process.

    .venv/bin/python bench/explain_latency.py --db INDEX [--errors 900] [--rounds 2]

To compare two versions of errdex in the same run, time each checkout on its own index of the
same environment (``bench/eval_explain.py --db INDEX`` builds one), alternately:

    for i in 1 2 3; do
        PYTHONPATH=OLD/src .venv/bin/python bench/explain_latency.py --db old.db
        PYTHONPATH=src .venv/bin/python bench/explain_latency.py --db new.db
    done

Each run explains the first ``--errors`` errors of ``bench/corpus/errors.jsonl`` as their
message, last line and traceback (what ``eval_explain.py`` asks), ``--rounds`` times, after a
warm-up of 200 explains with the pattern index loaded, and prints the p50, mean and p99 of a
``Session.explain`` with ``top=50``.  A paste errdex refuses (an error with no message) is
timed too: refusing it is part of the work.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from pathlib import Path

import errdex
from errdex.match.parse import PasteError
from errdex.session import Session

CORPUS = Path(__file__).resolve().parent / "corpus" / "errors.jsonl"


def texts(limit: int) -> list[str]:
    errors = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()][:limit]
    return [e[key] for e in errors for key in ("message", "last_line", "traceback")]


def explain(session: Session, text: str) -> None:
    with contextlib.suppress(PasteError):
        session.explain(text, top=50)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--errors", type=int, default=900)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    pastes = texts(args.errors)
    seconds = []
    with Session(args.db) as session:
        session.matcher()
        for text in pastes[:200]:
            explain(session, text)
        for _ in range(args.rounds):
            for text in pastes:
                start = time.perf_counter()
                explain(session, text)
                seconds.append(time.perf_counter() - start)
    ms = sorted(s * 1000 for s in seconds)
    print(
        f"errdex {errdex.__version__} from {Path(errdex.__file__).parent}: {len(ms)} explains,"
        f" p50 {ms[len(ms) // 2]:.3f} ms, mean {statistics.mean(ms):.3f} ms,"
        f" p99 {ms[int(len(ms) * 0.99)]:.3f} ms"
    )


if __name__ == "__main__":
    main()
