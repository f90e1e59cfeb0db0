"""errdex finds (nearly) every JavaScript and TypeScript error site with a readable message in
real packages from the npm registry.

The reference is ``js_site_counter.js``, written separately on Babel's parser (errdex reads with
tree-sitter); a site the counter sees and no record lists is a miss.  The two must read the
same files for the figures to mean anything, so that is checked first.  Run with
``pytest -s -m pypi tests/test_js_recall.py`` to see the figures per package.
"""

from __future__ import annotations

import shutil

import pytest

from errdex.mine import mine
from errdex.mine.sources import select_files
from js_counter import NODE, run_counter
from npm import NPM, fetch_npm

MINIMUM_RECALL = 0.98

#: (name, version, repository): plain CommonJS (express, commander, ws), ES modules and bundles
#: (axios), compiled TypeScript (yargs, zod), TypeScript sources beside their build (ajv), and ES
#: module sources beside four builds of them (luxon).
PACKAGES = [
    ("express", "4.21.2", "expressjs/express"),
    ("axios", "1.7.9", "axios/axios"),
    ("commander", "12.1.0", "tj/commander.js"),
    ("yargs", "17.7.2", "yargs/yargs"),
    ("zod", "3.23.8", "colinhacks/zod"),
    ("ajv", "8.17.1", "ajv-validator/ajv"),
    ("luxon", "3.5.0", "moment/luxon"),
    ("ws", "8.18.0", "websockets/ws"),
]

pytestmark = [
    pytest.mark.pypi,  # downloads real packages (from npm), cached like PyPI's
    pytest.mark.skipif(
        shutil.which(NODE) is None or shutil.which(NPM) is None, reason="needs Debian's node and npm"
    ),
]


@pytest.mark.parametrize(("name", "version", "repo"), PACKAGES, ids=[f"{n}@{v}" for n, v, _ in PACKAGES])
def test_mining_finds_every_js_error_site_with_a_readable_message(name: str, version: str, repo: str) -> None:
    root = fetch_npm(name, version)
    counted = run_counter(root)
    expected, count = counted.sites, len(counted.sites)
    assert counted.unparsed == [], f"Babel could not parse {counted.unparsed[:5]}"
    assert count > 0, f"the counter found no site in {root}"

    # Same files on both sides, or a difference in recall is a difference in selection.
    selected = {f.relative for f in select_files(root).files if f.language in ("javascript", "typescript")}
    assert selected == set(counted.files), (
        f"errdex selects {sorted(selected - set(counted.files))[:10]} that the counter leaves out, "
        f"and leaves out {sorted(set(counted.files) - selected)[:10]} that it reads"
    )

    result = mine(root, repo=repo, sha="0" * 40, jobs=1)
    mined = {(site.file_path, site.line_number) for record in result.records for site in record.sites}
    js_records = [r for r in result.records if r.language in ("javascript", "typescript")]

    missed = [site for site in expected if site not in mined]
    found = count - len(missed)
    recall = found / count
    print(
        f"\n{name}@{version}: {len(counted.files)} files, counted {count}, found {found}, recall {recall:.1%}"
    )
    if missed:
        print(f"  first misses: {missed[:20]}")
    assert js_records, f"{name}@{version}: mining made no JavaScript or TypeScript record at all"
    assert recall >= MINIMUM_RECALL, (
        f"{name}@{version}: errdex found {found} of {count} sites ({recall:.1%}); "
        f"missed, first 20: {missed[:20]}"
    )
    # Real packages parse: a file errdex skips here is a bug of errdex's, not of the package.
    assert result.skipped == []
