"""Count, independently of errdex, the JavaScript and TypeScript error sites whose message can be
read from source: ``js_site_counter.js`` run by Debian's node with a pinned ``@babel/parser``.

The JavaScript counterpart of ``raise_counter``: a different parser (Babel's, not tree-sitter)
and different code, so that a site both miss is unlikely.  What counts is described at the top
of ``js_site_counter.js``.  Run it as ``python tests/js_counter.py DIRECTORY`` to print the count.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from npm import node_modules

NODE = "/usr/bin/node"
COUNTER = Path(__file__).with_name("js_site_counter.js")
#: The parser the counter reads with, installed once into the test cache.
BABEL = {"@babel/parser": "7.26.10"}
COUNT_TIMEOUT = 300
OUTPUT_LIMIT = 64_000_000


@dataclass(slots=True)
class Counted:
    """What the counter saw under one root."""

    #: ``(path relative to root, line)``, sorted: one per line that constructs or throws.
    sites: list[tuple[str, int]]
    #: Every file it chose to read, relative to root.
    files: list[str]
    #: Files Babel could not parse, and why: none for a real package.
    unparsed: list[tuple[str, str]] = field(default_factory=list)


def run_counter(root: Path) -> Counted:
    """Run the counter over ``root``."""
    tree = node_modules(BABEL)
    env = {**os.environ, "NODE_PATH": str(tree / "node_modules")}
    done = subprocess.run(
        [NODE, "--max-old-space-size=2048", str(COUNTER), str(root)],
        capture_output=True,
        timeout=COUNT_TIMEOUT,
        env=env,
        check=False,
    )
    if done.returncode != 0 or len(done.stdout) > OUTPUT_LIMIT:
        raise RuntimeError(
            f"the site counter failed on {root}:\n{done.stderr.decode(errors='replace')[-4000:]}"
        )
    out = json.loads(done.stdout)
    sites = sorted((path, line) for path, line in out["sites"])
    return Counted(sites, list(out["files"]), [(path, why) for path, why in out["unparsed"]])


def count_sites(root: Path) -> tuple[list[tuple[str, int]], int]:
    """Every ``(path relative to root, line)`` of a site with a readable message, and how many."""
    counted = run_counter(root)
    return counted.sites, len(counted.sites)


if __name__ == "__main__":
    _, count = count_sites(Path(sys.argv[1]))
    print(count)
