"""errdex explains real JavaScript errors, raised by real npm packages run by Debian's node.

The corpus (``js_runtime``) is every error the scripts of ``js_errors/`` provoke that was made
by package code, with the truth read from its V8 stack: the package, file and line of its first
frame.  Every package holding a truth is mined into one store, each under its folder in the
installed tree (``path_prefix="node_modules/express/"``), so that a record names the file as a
stack frame does.  Then each error is explained twice over: from its last line alone, as Node
prints it, and from what a user pastes whole (``err.stack``, or ``util.inspect(err)``).

Run with ``pytest -s -m pypi tests/test_js_runtime.py`` to see the figures and the misses.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from errdex.match.explain import Match, Matcher
from errdex.match.index import matcher
from errdex.mine import mine
from errdex.store import Store, open_store
from js_runtime import NODE, SCRIPTS, SPEC, Truth, corpus, left_out
from npm import NPM, node_modules

#: How many errors, from how many packages, make the corpus worth its name.
MINIMUM_ERRORS = 150
MINIMUM_PACKAGES = 12
#: Top-1 goals: a message alone names fewer lines than a stack does.
LAST_LINE_GOAL = 0.90
STACK_GOAL = 0.99

#: What a store's records raise at each ``(file, line)``: their message templates.
Sites = dict[tuple[str, int], set[str]]

pytestmark = [
    pytest.mark.pypi,  # downloads real packages (from npm), cached like PyPI's
    pytest.mark.skipif(
        shutil.which(NODE) is None or shutil.which(NPM) is None, reason="needs Debian's node and npm"
    ),
]


def repo_name(package_dir: str) -> str:
    """A repository name per package folder, nested copies apart:
    ``node_modules/express/node_modules/cookie`` → ``npm/express__cookie``."""
    names = [p for p in package_dir.split("node_modules/") if p]
    return "npm/" + "__".join(re.sub(r"[^A-Za-z0-9_.-]", ".", n.strip("/").lstrip("@")) for n in names)


@pytest.fixture(scope="module")
def errors() -> list[dict[str, Any]]:
    return corpus()


@pytest.fixture(scope="module")
def mined(errors: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Sites]:
    """Every package some truth lies in, mined as installed into one store: the store's path,
    and the messages its records raise at each ``(file, line)``."""
    tree = node_modules(SPEC)
    db = tmp_path_factory.mktemp("js-runtime") / "errdex.db"
    skipped = []
    sites: Sites = {}
    with open_store(db) as writing:
        for package_dir in sorted({e["truth"].package_dir for e in errors}):
            result = mine(
                tree / package_dir,
                repo=repo_name(package_dir),
                sha="0" * 40,
                path_prefix=package_dir + "/",
                jobs=2,
            )
            skipped += [(package_dir, s) for s in result.skipped]
            for record in result.records:
                for site in record.sites:
                    sites.setdefault((site.file_path, site.line_number), set()).add(record.error_message)
            writing.replace_repo(result.info, result.records)
    assert skipped == [], f"real packages parse; errdex skipped {skipped[:10]}"
    return db, sites


@pytest.fixture(scope="module")
def store(mined: tuple[Path, Sites]) -> Iterator[Store]:
    with open_store(mined[0], readonly=True) as reading:
        yield reading


def is_truth(match: Match, truth: Truth) -> bool:
    """Whether a match's record has a site at the truth's line of the truth's file: named from
    the tree (as mined here), or from its package's folder in a record of that package.  A
    site where a raise helper is called (``usage.fail('Unknown argument: ...')``) names the
    helper's own raise as where its error is made (``via``): that is the stack's first frame."""
    record = match.record
    for site in record.sites:
        for path, line in ((site.file_path, site.line_number), (site.via_file_path, site.via_line_number)):
            if line != truth.line or path is None:
                continue
            if path == truth.path:
                return True
            if path == truth.file and record.package == truth.package:
                return True
    return False


def last_line(error: dict[str, Any]) -> str:
    """The header Node prints for an uncaught error: ``AxiosError: Request failed ...``."""
    return f"{error['class']}: {error['message']}" if error["message"] else str(error["class"])


def shown(match: Match | None) -> str:
    if match is None:
        return "no match"
    record = match.record
    sites = ", ".join(f"{s.file_path}:{s.line_number}" for s in record.sites[:3])
    return f"{match.evidence} {record.error_message[:60]!r} at {sites}"


def another_copy(match: Match | None, truth: Truth, sites: Sites) -> bool:
    """Whether a miss names the truth's message in another file of the truth's package: the
    same code shipped twice (axios's ``lib/`` and ``dist/``), the copy that did not run."""
    if match is None:
        return False
    record = match.record
    same_package = any(s.file_path.startswith(truth.package_dir + "/") for s in record.sites)
    return same_package and record.error_message in sites.get((truth.path, truth.line), set())


#: Matches read per error for the ties: a template several functions raise (date-fns's
#: "Invalid time value", validator's "Invalid locale ...") ties at most this often here.
TIED = 20


def top1(
    store: Store, sites: Sites, errors: list[dict[str, Any]], text_of: Callable[[dict[str, Any]], str]
) -> tuple[float, float]:
    """The share of errors whose best match is the truth, and the share whose truth is among
    the matches tied with the best (the same score and template: what the paste cannot tell
    apart, one library raising one message in several functions); the misses printed."""
    matcher = Matcher(store)
    misses = []
    tied = 0
    for error in errors:
        answer = matcher.explain(text_of(error), top=TIED)
        best = answer.matches[0] if answer.matches else None
        if best is not None and is_truth(best, error["truth"]):
            continue
        misses.append(error | {"best": best})
        ties = [
            m
            for m in answer.matches
            if best is not None
            and m.score == best.score
            and m.record.message_pattern == best.record.message_pattern
        ]
        tied += any(is_truth(m, error["truth"]) for m in ties)
    found = len(errors) - len(misses)
    copies = sum(another_copy(m["best"], m["truth"], sites) for m in misses)
    share, with_ties = found / len(errors), (found + tied) / len(errors)
    print(f"\ntop-1 {found} of {len(errors)} ({share:.1%}); counting ties {with_ties:.1%}")
    print(f"  of the {len(misses)} misses, {tied} are ties; {copies} name the message at another copy")
    for package, count in sorted(Counter(m["truth"].package for m in misses).items()):
        print(f"  missed in {package}: {count}")
    for miss in misses[:400]:
        truth = miss["truth"]
        print(f"  {miss['package']}: {miss['case']}: {last_line(miss)[:70]!r}")
        print(f"      truth {truth.path}:{truth.line}; best {shown(miss['best'])}")
    return share, with_ties


def test_the_corpus_holds_enough_real_errors_from_enough_packages(errors: list[dict[str, Any]]) -> None:
    by_package = Counter(e["truth"].package for e in errors)
    scripts = Counter(e["package"] for e in errors)
    print(f"\n{len(errors)} errors made by {len(by_package)} packages, from {len(scripts)} scripts")
    for package, count in sorted(by_package.items()):
        print(f"  {package}: {count}")
    for package, case, why in left_out():
        print(f"  left out: {package}: {case}: {why}")
    assert len(errors) >= MINIMUM_ERRORS
    assert len(by_package) >= MINIMUM_PACKAGES
    # A script none of whose cases is kept has stopped testing anything (an API changed).
    written = {p.stem for p in Path(SCRIPTS).glob("*.js") if not p.name.startswith("_")}
    assert written <= set(scripts), f"scripts that kept no error: {sorted(written - set(scripts))}"


def test_every_truth_is_a_site_errdex_mined(mined: tuple[Path, Sites], errors: list[dict[str, Any]]) -> None:
    """What the explaining tests rest on: a line no record holds, no paste can find."""
    _, sites = mined
    missing = [e for e in errors if (e["truth"].path, e["truth"].line) not in sites]
    share = 1 - len(missing) / len(errors)
    print(f"\n{len(errors) - len(missing)} of {len(errors)} truths are mined sites ({share:.1%})")
    for error in missing[:40]:
        print(f"  {error['package']}: {error['case']}: {error['truth'].path}:{error['truth'].line}")
    assert share >= STACK_GOAL


def test_the_last_line_alone_finds_where_the_error_was_made(
    store: Store, mined: tuple[Path, Sites], errors: list[dict[str, Any]]
) -> None:
    strict, _ = top1(store, mined[1], errors, last_line)
    # Strictly: a message several functions of one library raise alike names all of them
    # equally, and a tie picked wrongly counts as a miss.
    assert strict >= LAST_LINE_GOAL


@pytest.mark.parametrize("pasted", ["stack", "inspect"])
def test_the_whole_stack_finds_where_the_error_was_made(
    store: Store, mined: tuple[Path, Sites], errors: list[dict[str, Any]], pasted: str
) -> None:
    strict, _ = top1(store, mined[1], errors, lambda error: error[pasted])
    assert strict >= STACK_GOAL


def test_a_raise_helper_of_a_package_installed_beside_is_where_the_stack_starts(
    errors: list[dict[str, Any]],
) -> None:
    """joi asserts with @hapi/hoek's ``assert(ok, ...args)``: mined as installed, each call is
    a record of joi whose ``via`` is hoek's raise, the line V8's stack starts at; mined alone
    (no hoek beside it), the same call is a record with no via."""
    tree = node_modules(SPEC)
    helper = tree / "node_modules/@hapi/hoek/lib/assert.js"
    # Read independently: the line of the file that throws the error built from ``args``.
    (line,) = [
        n
        for n, text in enumerate(helper.read_text().splitlines(), 1)
        if "throw new AssertError(args)" in text
    ]
    made_there = {
        e["message"]
        for e in errors
        if (e["truth"].path, e["truth"].line) == (str(helper.relative_to(tree)), line)
    }
    assert len(made_there) >= 5, made_there
    installed = mine(tree / "node_modules/joi", sha="0" * 40, path_prefix="node_modules/joi/", jobs=1).records
    via = {
        r.error_message: (s.via_file_path, s.via_line_number)
        for r in installed
        for s in r.sites
        if s.kind == "helper" and s.via_file_path and "hoek" in s.via_file_path
    }
    assert set(via.values()) == {("node_modules/@hapi/hoek/lib/assert.js", line)}
    matched = [
        m
        for m in made_there
        if any(matcher(r.message_pattern).match(m) is not None for r in installed if r.error_message in via)
    ]
    assert len(matched) == len(made_there), sorted(made_there - set(matched))
    alone = mine(tree / "node_modules/joi", sha="0" * 40, jobs=1).records
    helper_sites = [s for r in alone for s in r.sites if s.kind == "helper" and r.error_message in via]
    assert helper_sites and all(s.via_file_path is None for s in helper_sites)


def test_an_http_error_of_a_status_computed_at_run_time_is_no_500(errors: list[dict[str, Any]]) -> None:
    """send makes its errors in a helper, ``createError(status)``, from the status its callers
    pass (``this.error(403)``): the site is there, of http-errors' base class, with no status
    or message claimed, and each call passing a status alone is the error of that status,
    made there (express's ``res.sendFile`` of a path climbing out of its root)."""
    tree = node_modules(SPEC)
    index = tree / "node_modules/send/index.js"
    # Read independently: the helper's calls of createError with a status it was given.
    lines = [n for n, text in enumerate(index.read_text().splitlines(), 1) if "createError(status" in text]
    assert len(lines) >= 3, lines
    records = mine(tree / "node_modules/send", sha="0" * 40, path_prefix="node_modules/send/", jobs=1).records
    at = {
        (s.line_number, r.error_class, r.http_status)
        for r in records
        for s in r.sites
        if s.line_number in lines
    }
    source = index.read_text().splitlines()
    (alone,) = [n for n in lines if "return createError(status)" in source[n - 1]]
    # An error given (``createError(status, err)``) is returned as it is: its class is its own.
    assert at == {(line, "HttpError" if line == alone else None, None) for line in lines}
    made = [e for e in errors if e["truth"].path == "node_modules/send/index.js" and e["truth"].line in lines]
    assert made and {e["class"] for e in made} == {"ForbiddenError"}
    # Its callers pass the status: each call of ``error`` with a literal status alone is the
    # error of that status, made in the helper at the line whose test is that no error was
    # given; a call that passes one (``this.error(500, err)``) is none.
    called = {
        n: int(m[1])
        for n, text in enumerate(source, 1)
        if (m := re.search(r"\b(?:this|self)\.error\((\d+)\)", text))
    }
    assert len(called) >= 8
    helper = {
        (s.line_number, r.http_status, s.via_line_number)
        for r in records
        for s in r.sites
        if s.kind == "helper" and r.http_status is not None
    }
    assert helper == {(n, status, alone) for n, status in called.items()}
    forbidden = {
        (s.line_number, r.error_class, r.error_message)
        for r in records
        for s in r.sites
        if r.http_status == 403
    }
    assert forbidden and all(
        cls == "ForbiddenError" and message == "Forbidden" for _, cls, message in forbidden
    )
    (made_alone,) = made
    assert made_alone["truth"].line == alone and made_alone["message"] == "Forbidden"


def test_an_http_error_given_an_error_claims_neither_its_class_nor_a_status_message() -> None:
    """http-errors returns an error it is given as it is, its class and message its own:
    body-parser's ``createError(403, err)`` of what a ``verify`` callback threw prints that
    error, not ``ForbiddenError: Forbidden`` (Node runs the installed http-errors to show it)."""
    import json
    import subprocess

    tree = node_modules(SPEC)
    script = (
        "const createError = require('http-errors');"
        "const given = createError(403, new SyntaxError('bad body'));"
        "const alone = createError(403);"
        "console.log(JSON.stringify([[given.name, given.message], [alone.name, alone.message]]));"
    )
    run = subprocess.run(
        [NODE, "-e", script], cwd=tree, capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(run.stdout) == [["SyntaxError", "bad body"], ["ForbiddenError", "Forbidden"]]
    read = tree / "node_modules/body-parser/lib/read.js"
    # Read independently: the lines that hand createError an error and no text.
    given = [
        n
        for n, text in enumerate(read.read_text().splitlines(), 1)
        if re.search(r"createError\(\d+, err", text)
    ]
    assert given, "body-parser no longer passes an error to createError"
    records = mine(
        tree / "node_modules/body-parser", sha="0" * 40, path_prefix="node_modules/body-parser/", jobs=1
    ).records
    at = [
        (r.error_class, r.error_message)
        for r in records
        for s in r.sites
        if s.file_path == "node_modules/body-parser/lib/read.js" and s.line_number in given
    ]
    assert at and all(cls is None and message == "" for cls, message in at), at
