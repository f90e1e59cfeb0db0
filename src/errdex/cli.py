"""The ``errdex`` command: mine sources into a store, read records back, export them."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.text import Text

from errdex.display import visible, visible_json
from errdex.errors import ErrdexError
from errdex.record import Record, Site, dumps, json_schema, utc_now

if TYPE_CHECKING:
    from rich.table import Table

    from errdex.enrich.model import Summary as ModelSummary
    from errdex.envindex import Refreshed
    from errdex.languages.pastes import Frame
    from errdex.match.explain import Answer, Match
    from errdex.mine.sources import Skipped
    from errdex.nodeindex import Refreshed as NodeRefreshed
    from errdex.session import Session
    from errdex.store import Store

app = typer.Typer(
    name="errdex",
    help="Map an error message back to the line of library source that raised it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="SQLite file or postgresql:// URL (default: $ERRDEX_DB, else the Python environment's index).",
    ),
]
PythonOption = Annotated[
    str | None,
    typer.Option(
        "--python",
        help="The interpreter whose environment to index (default: the active virtual environment,"
        " else a .venv here or above, else the Python running errdex).",
    ),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")]
LongOption = Annotated[
    bool, typer.Option("--long", help="Show the whole stored source window, not the lines around the raise.")
]
TimeBudgetOption = Annotated[
    float,
    typer.Option(min=0.01, help="Seconds a lookup may take; past them it stops, answered as failed."),
]


@app.command()
def mine(
    path: Annotated[
        Path,
        typer.Argument(
            help="A repository checkout, an unpacked wheel, sdist or npm package, or an archive of"
            " one (.tgz, .tar.gz, .whl, .zip)."
        ),
    ],
    repo: Annotated[
        str | None,
        typer.Option(
            help="OWNER/NAME on GitHub (default: the checkout's remote, else the repository"
            " the package metadata links to)."
        ),
    ] = None,
    sha: Annotated[
        str | None,
        typer.Option(
            help="The 40-hex commit the source corresponds to (default: the checkout's HEAD;"
            " without one, records have no commit and no permalink)."
        ),
    ] = None,
    path_prefix: Annotated[
        str, typer.Option(help="Prefix mapping PATH onto the repository layout, e.g. src/.")
    ] = "",
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            help="Extra glob of files or directories to leave out (a leading / matches from PATH only)."
        ),
    ] = None,
    default_excludes: Annotated[
        bool, typer.Option(help="Leave out tests, docs, examples, benchmarks, vendored, hidden.")
    ] = True,
    max_file_size: Annotated[int, typer.Option(help="Skip files larger than this many bytes.")] = 2_000_000,
    jobs: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")] = None,
    db: DbOption = None,
    enrich: Annotated[
        bool, typer.Option(help="Write explanations and fixes from the mined facts (offline, deterministic).")
    ] = True,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List skipped files.")] = False,
    quiet: QuietOption = False,
) -> None:
    """Mine every place PATH raises, warns or logs an error, replacing that repository's records."""
    from errdex.enrich import enrich as run_enrich
    from errdex.enrich.model import keep_model_prose
    from errdex.mine import mine as run_mine
    from errdex.store import open_store, writing

    target = _target(db)
    # The store is opened and its writer lock taken first: a store that cannot take the result
    # refuses it before the mine, and a second writer waits its turn rather than losing its work.
    with writing(target, _waiting(quiet)), open_store(target) as store:
        with _progress(quiet) as (progress, _):
            result = run_mine(
                path,
                repo=repo,
                sha=sha,
                path_prefix=path_prefix,
                exclude=exclude or (),
                default_excludes=default_excludes,
                max_file_size=max_file_size,
                jobs=jobs,
                progress=progress,
            )
        records = run_enrich(result.records) if enrich else result.records
        # A model's prose about these facts, asked before: mined again, it still holds.
        records = keep_model_prose(store, records)
        info = store.replace_repo(result.info, records, symbols=result.symbols)
        location = getattr(store, "path", db)
    if info.sha is None and not quiet:
        why = (
            "its git HEAD names no commit errdex can read"
            if result.origin.kind == "checkout"
            else "not a git checkout"
        )
        note = f"errdex: no commit known for {path} ({why}; --sha gives one): records have no permalink"
        if result.origin.kind == "npm":  # linked at the release tag, as an installed distribution is
            linked = any(r.github_url for r in records)
            then = f"permalinks point at the tag v{info.version}" if linked else "records have no permalink"
            why = "its package.json has no gitHead"
            note = f"errdex: no commit known for {path} ({why}; --sha gives one): {then}"
        err.print(_text(note), soft_wrap=True)
    if not quiet:
        dist = f" ({info.package} {info.version})" if info.package else ""
        commit = f"@{info.sha[:10]}" if info.sha else ""
        out.print(
            _text(
                f"{info.repo}{commit}{dist}: {info.files} files, {info.records} records, "
                f"{info.sites} sites, {info.skipped} skipped -> {location}"
            )
        )
    if result.skipped and (verbose or not quiet):
        if verbose:
            for skip in result.skipped:
                print(visible(f"skipped {skip.path}: {skip.reason}"), file=sys.stderr)
        elif not quiet:
            err.print(f"{len(result.skipped)} skipped (--verbose lists them)")
    # Each is logged as it fails (``errdex.enrich``); the count says what it cost.
    unwritten = sum(r.enrichment == "none" for r in records) if enrich else 0
    if unwritten:
        err.print(f"{unwritten} records stored without prose: enrichment failed on them")


@app.command("enrich")
def enrich_(
    repo: Annotated[str | None, typer.Option(help="Only this repository (OWNER/NAME).")] = None,
    force: Annotated[
        bool, typer.Option(help="Also replace prose errdex did not write (imported, a model's).")
    ] = False,
    llm: Annotated[
        str | None,
        typer.Option(help="Ask the model at this OpenAI-compatible endpoint (http://127.0.0.1:8080/v1)."),
    ] = None,
    model: Annotated[str | None, typer.Option(help="The model to ask (with --llm).")] = None,
    api_key_env: Annotated[
        str | None, typer.Option(help="The environment variable holding the endpoint's API key.")
    ] = None,
    only_missing: Annotated[bool, typer.Option(help="Only records with no model prose yet.")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Send at most this many records.")] = None,
    concurrency: Annotated[int, typer.Option(min=1, max=64, help="Requests at once.")] = 1,
    budget_tokens: Annotated[
        int | None, typer.Option(min=1, help="Send no more records once this many tokens are used.")
    ] = None,
    timeout: Annotated[float, typer.Option(min=1, help="Seconds a request may take.")] = 120.0,
    retries: Annotated[int, typer.Option(min=0, max=10, help="Retries of a request that failed.")] = 4,
    max_tokens: Annotated[
        int,
        typer.Option(min=1, help="Tokens the model may write per record; a longer answer is cut, a failure."),
    ] = 1500,
    db: DbOption = None,
    quiet: QuietOption = False,
) -> None:
    """Write the stored records' explanations and fixes again from their facts, without mining;
    with --llm, ask a language model and keep each field it writes only where the facts back it."""
    from errdex.enrich import enrich as run_enrich
    from errdex.enrich.model import with_model_prose
    from errdex.store import open_store, writing

    if llm is not None or model is not None:
        _enrich_with_model(llm, model, api_key_env, repo, only_missing, limit, concurrency, budget_tokens,
                           timeout, retries, max_tokens, db, quiet)  # fmt: skip
        return
    target = _target(db)
    changed = kept = models = 0
    with writing(target, _waiting(quiet)), open_store(target) as store:
        for name in _repos(store, repo):
            records = list(store.records(name))
            ours = [r for r in records if force or r.enrichment in ("none", "static")]
            kept += len(records) - len(ours)
            if force:
                ours = [r.model_copy(update={"model_prose": {}}) for r in ours]
            enriched = [with_model_prose(old, new) for old, new in zip(ours, run_enrich(ours), strict=True)]
            changed += store.update_prose(enriched)
            models += sum(bool(r.model_prose) for r in enriched)
    if not quiet:
        others = f"; kept {kept} written by others (--force replaces them)" if kept else ""
        by_models = f"; kept the model prose of {models} (--force replaces it)" if models else ""
        out.print(f"enriched {changed} records{others}{by_models}")


def _repos(store: Store, repo: str | None) -> list[str]:
    known = [info.repo for info in store.repos()]
    if repo is not None and repo not in known:
        raise ErrdexError(f"no repository {repo!r} in this store (errdex stats lists what it holds)")
    return [repo] if repo is not None else known


def _paged(store: Store, repo: str | None) -> Iterator[Record]:
    """The store's records (of ``repo``), a page at a time: each page is read whole before any
    of its prose is written back, so the reader never holds more than a page."""
    after = 0
    while page := store.records_page(after, 500, repo):
        for num, record in page:
            after = num
            yield record


def _enrich_with_model(
    llm: str | None,
    model: str | None,
    api_key_env: str | None,
    repo: str | None,
    only_missing: bool,
    limit: int | None,
    concurrency: int,
    budget_tokens: int | None,
    timeout: float,
    retries: int,
    max_tokens: int,
    db: str | None,
    quiet: bool,
) -> None:
    """``errdex enrich --llm URL --model NAME``: a bar of records asked, then what was kept.
    Exits 1 when every call sent failed: nothing was learnt, and a script should know."""
    import os

    from errdex.enrich.model import Asker, enrich_with_model
    from errdex.store import open_store, writing

    if llm is None or model is None:
        raise ErrdexError("--llm URL and --model NAME go together")
    api_key = None
    if api_key_env is not None:
        api_key = os.environ.get(api_key_env)
        if not api_key:
            raise ErrdexError(f"--api-key-env {api_key_env}: that variable is not set")
    asker = Asker(llm, model, api_key, timeout=timeout, retries=retries, max_tokens=max_tokens)
    target = _target(db)
    with writing(target, _waiting(quiet)), open_store(target) as store:
        names = _repos(store, repo)
        expected = sum(info.records for info in store.repos() if info.repo in names)
        with _progress(quiet, "asking", "records") as (progress, _):
            summary = enrich_with_model(
                store,
                _paged(store, repo),
                asker,
                only_missing=only_missing,
                limit=limit,
                concurrency=concurrency,
                budget_tokens=budget_tokens,
                progress=progress,
                expected=expected,
            )
    if not quiet:
        _print_model_summary(summary)
    if summary.sent and sum(summary.calls_failed.values()) == summary.sent:
        reasons = ", ".join(f"{n} {reason}" for reason, n in summary.calls_failed.most_common())
        err.print(
            _text(f"errdex: every call to the model failed ({reasons}): nothing was kept"), soft_wrap=True
        )
        raise typer.Exit(1)


def _print_model_summary(summary: ModelSummary) -> None:
    failed = sum(summary.calls_failed.values())
    rejected = sum(summary.fields_rejected.values())
    out.print(
        f"{summary.records} records: {summary.sent} sent, {summary.cached} answered from the cache,"
        f" {summary.current} already current, {summary.over_budget} not sent (token budget spent);"
        f" {summary.changed} records changed",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    out.print(
        f"fields kept {sum(summary.fields_kept.values())}, rejected {rejected}; calls failed {failed};"
        f" tokens used {summary.tokens}",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    for name, count in sorted(summary.fields_kept.items()):
        out.print(_text(f"  kept      {count:>5}  {name}"), soft_wrap=True)
    for (name, reason), count in sorted(summary.fields_rejected.items(), key=lambda kv: -kv[1]):
        out.print(_text(f"  rejected  {count:>5}  {name}: {reason}"), soft_wrap=True)
    for reason, count in sorted(summary.calls_failed.items(), key=lambda kv: -kv[1]):
        out.print(_text(f"  failed    {count:>5}  {reason}"), soft_wrap=True)


@app.command("export")
def export(
    format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="errlookup (schema v2 JSONL), errdex (JSONL), parquet, or sqlite (a store file to"
            " hand out: errdex explain --db FILE opens it).",
        ),
    ],
    out_path: Annotated[Path, typer.Option("--out", "-o", help="File to write.")],
    db: DbOption = None,
    repo: Annotated[str | None, typer.Option(help="Only this OWNER/NAME.")] = None,
    quiet: QuietOption = False,
) -> None:
    """Write the store's records to a file, and FILE.manifest.json beside it (its sha256, what it holds)."""
    from errdex.store import open_store
    from errdex.store.snapshot import export as write_snapshot
    from errdex.store.snapshot import is_store_file, snapshot_format

    fmt = snapshot_format(format)
    target = _target(db)
    if is_store_file(out_path, target):
        raise ErrdexError(f"--out {out_path} is the store being exported; write the export elsewhere")
    with open_store(target, readonly=True) as store:
        _repos(store, repo)  # an unknown --repo is an error, not an empty export
        manifest, left_out = write_snapshot(store, fmt, out_path, repo=repo, created_at=utc_now())
    if not quiet:
        out.print(_text(f"{manifest.records} records -> {out_path} ({len(manifest.sources)} releases)"))
    if left_out:
        err.print(
            f"{left_out} records left out: schema v2 needs a commit and a GitHub permalink, which"
            " installed distributions mined from site-packages, and sources mined without a"
            " commit (--sha), may lack (--format errdex keeps them)"
        )


@app.command("import")
def import_(
    file: Annotated[
        Path,
        typer.Argument(
            help="A snapshot or export: JSON Lines (errlookup or errdex), Parquet, or an errdex SQLite"
            " file; checked against FILE.manifest.json when there is one."
        ),
    ],
    db: DbOption = None,
    quiet: QuietOption = False,
) -> None:
    """Load a snapshot, replacing each release (repository, package, version) it holds."""
    from errdex.store import open_store, writing
    from errdex.store.snapshot import import_snapshot, is_store_file

    target = _target(db)
    if is_store_file(file, target):
        raise ErrdexError(f"{file} is the store it would be imported into")
    with writing(target, _waiting(quiet)), open_store(target) as store:
        infos = import_snapshot(file, store)
    if not quiet:
        for info in infos:
            release = " ".join(part for part in (info.repo, info.package, info.version) if part)
            out.print(_text(f"{release}: {info.records} records"))


@app.command()
def show(
    key: Annotated[str, typer.Argument(help="A record id, or OWNER/NAME/slug.")],
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the errdex JSON record.")] = False,
    long: LongOption = False,
    version: Annotated[
        str | None, typer.Option("--version", help="The release to show (default: the newest that has it).")
    ] = None,
) -> None:
    """Show one record: message, where it is raised, why, and the source around it."""
    from errdex.session import Session

    with Session(_target(db), readonly=False) as session:
        record = session.get(key, version)
        releases = session.releases(record) if record is not None else []
    if record is None:
        which = f" of release {version}" if version else ""
        raise ErrdexError(f"no record {key!r}{which} in this store (errdex stats lists what it holds)")
    if as_json:
        _write_json(record.to_errdex())
        return
    _print_record(record, long=long, releases=releases)


def _print_record(
    record: Record,
    site: Site | None = None,
    *,
    captures: dict[str, str] | None = None,
    evidence: Text | None = None,
    frames: Sequence[Frame] = (),
    long: bool = False,
    releases: Sequence[str] = (),
) -> None:
    """The record, the answer first: its message (the values ``captures`` holds filled in), the
    ``evidence`` of a match, where it is raised (through the public function one of ``frames``
    is in, where the facts name it), what it means, when, how to fix it; then the
    source around the raise (``long``: the whole stored window), then the rest.

    "raised in" names ``site`` when a match found it at one (a record keeps every line raising
    its message), else the record's own place."""
    from rich.syntax import Syntax

    from errdex.match.explain import releases_text

    shown = site or _first_site(record)
    message = f"{record.error_class or record.error_type}: {_filled(record, captures or {})}"
    out.print(_text(message, "bold", lines=True))
    if evidence is not None:
        out.print(evidence)
    facts = _grid()
    where = f"{shown.function or '(module level)'} · {shown.file_path}:{shown.line_number}"
    public = _public_call(record, shown, frames)
    facts.add_row("raised in", _text(f"{public} → {where}" if public else where))
    # The prose is written for the record's first site: another site's own tests said here.
    first = (shown.file_path, shown.line_number) == (record.file_path, record.line_number)
    for n, condition in enumerate(() if first else shown.conditions):
        facts.add_row("and" if n else "if", _text(condition, lines=True))
    if record.package:
        facts.add_row("package", _text(f"{record.package} {record.version or ''}".rstrip()))
    if record.language != "python":  # a Python environment's answers say nothing new by it
        facts.add_row("language", _text(record.language))
    if (raised_in := releases_text(list(releases), record.version)) is not None:
        facts.add_row("releases", _text(raised_in))
    if record.github_url:
        facts.add_row("permalink", _text(_site_link(record.github_url, record, shown)))
    out.print(facts)
    # Another site ran: its own tests are above, and the prose says whose line it is about.
    written = "" if first else f" (written for line {record.line_number}, where it is first raised)"
    for label, text in (
        ("What it means", record.documentation),
        ("When it happens", record.trigger_scenarios),
    ):
        if text:
            out.print(Text.assemble((label + written, "bold"), "  ", _text(text, lines=True)))
    if record.solutions:
        out.print(Text("How to fix it" + written, "bold"))
        out.print(_bullets(record.solutions))
    # Colours only where they show: preparing the Python lexer costs more than the whole lookup.
    lexer = record.language if out.is_terminal else "text"
    _print_source(record, shown, lexer, long=long)
    if record.common_situations:
        out.print(
            Text.assemble(("Where it comes from", "bold"), "  ", _text(record.common_situations, lines=True))
        )
    rest = _grid()
    if record.qualified_class:
        rest.add_row("class", _text(record.qualified_class))
    if captures:
        rest.add_row("template", _text(record.error_message, lines=True))
    rest.add_row("pattern", _text(record.message_pattern))
    for condition in record.conditions if first else ():
        rest.add_row("condition", _text(condition, lines=True))
    others = [s for s in record.sites if (s.file_path, s.line_number) != (shown.file_path, shown.line_number)]
    if others:
        places = (
            str(s.line_number) if s.file_path == shown.file_path else f"{s.file_path}:{s.line_number}"
            for s in others
        )
        rest.add_row("also at", _text(", ".join(places)))
    rest.add_row("record", _text(f"{record.repo} · {record.slug} · {record.id}"))
    out.print(rest)
    for label, code in (("Example fix", record.example_fix), ("Check first", record.validation_code)):
        if code:
            out.print(f"[bold]{label}[/bold]")
            out.print(Syntax(visible(code, lines=True), lexer, word_wrap=True))
    if record.enrichment != "none":
        static = {
            field: facts for field, facts in record.provenance.items() if field not in record.model_prose
        }
        backed = ", ".join(sorted({fact for facts in static.values() for fact in facts}))
        out.print(_text(f"written by {record.enrichment} rules from: {backed}", "dim"))
    for line in record.model_authors():
        out.print(_text(line, "dim"))


#: Source lines shown around a raise unless ``--long`` asks for the whole stored window.
SHORT_SOURCE = 12
#: Of those, the lines above the raise (its guards are there), the rest below it.
_ABOVE = 6
_DEF = re.compile(r"(?:async\s+)?def\s")


def _print_source(record: Record, site: Site, lexer: str, *, long: bool) -> None:
    """The source around ``site``'s line (the record's own when the site's lies outside the
    stored window), that line highlighted: the enclosing function's lines nearest it, at most
    ``SHORT_SOURCE``, or with ``long`` the whole window."""
    from rich.syntax import Syntax

    lines = record.source_code.split("\n")
    start, end = record.source_code_start, record.source_code_start + len(lines) - 1
    inside = site.file_path == record.file_path and start <= site.line_number <= end
    line = site.line_number if inside else record.line_number
    first, last = (start, end) if long else _around(lines, start, line, SHORT_SOURCE)
    where = f"{record.file_path}, lines {first}-{last}"
    if not inside:  # a site the window was not cut for: say whose lines these are
        where += (
            f", around line {line} (where it is first raised; line {site.line_number} is past the window)"
        )
    more = "" if (first, last) == (start, end) else f"; --long shows lines {start}-{end}"
    out.print(Text.assemble(("Source", "bold"), "  ", _text(f"{where}{more}", "dim")))
    out.print(
        Syntax(
            visible("\n".join(lines[first - start : last - start + 1]), lines=True),
            lexer,
            line_numbers=True,
            start_line=first,
            highlight_lines={line},
            word_wrap=True,
        )
    )


def _around(lines: list[str], start: int, line: int, limit: int) -> tuple[int, int]:
    """The first and last line numbers of at most ``limit`` lines of ``lines`` (numbered from
    ``start``) around ``line``, none blank at either edge, kept inside the block that encloses
    it, as indentation tells: the function whose ``def`` is the nearest line above indented
    less than every line between, else the least indented lines of the window above it."""
    at = line - start
    low, high = 0, len(lines) - 1
    floor, ends = _indent(lines[at]), 0  # ``ends``: 1 when a line as deep as ``floor`` ends it
    for i in range(at - 1, -1, -1):
        text = lines[i].strip()
        if not text or text.startswith("#") or _indent(lines[i]) >= floor:
            continue
        floor = _indent(lines[i])
        if _DEF.match(text):
            low, ends = i, 1
            while low > 0 and lines[low - 1].strip().startswith("@") and _indent(lines[low - 1]) == floor:
                low -= 1
            break
    for j in range(at + 1, len(lines)):
        text = lines[j].strip()
        if text and not text.startswith("#") and _indent(lines[j]) < floor + ends:
            high = j - 1
            break
    while high > at and not lines[high].strip():
        high -= 1
    first = max(low, at - _ABOVE)
    last = min(high, first + limit - 1)
    first = max(low, last - limit + 1)
    while first < at and not lines[first].strip():
        first += 1
    while last > at and not lines[last].strip():
        last -= 1
    return start + first, start + last


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _first_site(record: Record) -> Site:
    from errdex.match.explain import record_site

    return record_site(record)


def _filled(record: Record, captures: dict[str, str]) -> str:
    """The record's message with the values a match captured in place of its placeholders; a
    placeholder nothing captured keeps the template's text (``{version}``, ``%s``)."""
    from errdex.patterns import MessageMatcher, split_pattern

    if not captures or not record.placeholders:
        return record.error_message
    literals = split_pattern(record.message_pattern)
    # The template's own text for each placeholder: its message read against its pattern.
    written = MessageMatcher(record.message_pattern).match(record.error_message)
    if written is None or not len(written) == len(record.placeholders) == len(literals) - 1:
        return record.error_message
    parts = [literals[0]]
    for name, as_written, literal in zip(record.placeholders, written, literals[1:], strict=True):
        parts += [captures.get(name, as_written), literal]
    return "".join(parts)


def _public_call(record: Record, site: Site, frames: Sequence[Frame] = ()) -> str | None:
    """The public function a user's code reaches the raise through, with the functions between
    (``pkg.Api.run → _check``), where the record's facts name one other than the raising
    function as the user calls it: the one a traceback frame shows, else the first, with how
    many others there are.  None for a site in another function than the record's first, which
    the facts do not describe."""
    # Read defensively: facts written before entry points were kept have none.
    entries = list(getattr(record.facts, "entry_points", None) or ())
    if not entries or site.function is None or site.function != record.function:
        return None
    chosen = next((e for frame in frames for e in entries if _called_at(e, frame)), None)
    entry = chosen or entries[0]
    name = getattr(entry, "name", None) or entry.function
    if entry.function == site.function:  # public itself: said only where its name tells more
        if name.rpartition(".")[2] == site.function.rpartition(".")[2]:
            return None
        return str(name)
    chain = " → ".join([name, *getattr(entry, "via", ())])
    others = len({(e.function, e.file_path) for e in entries}) - 1
    if chosen is None and others:
        chain += f" (or {others} other public function{'s' if others > 1 else ''})"
    return chain


def _called_at(entry: object, frame: Frame) -> bool:
    """Whether a traceback frame is in ``entry``: the same function name, in a file of that name."""
    function, path = getattr(entry, "function", ""), getattr(entry, "file_path", "")
    where = (frame.relative or frame.path).replace("\\", "/")
    return (
        frame.function == function.rpartition(".")[2] and where.rpartition("/")[2] == path.rpartition("/")[2]
    )


def _site_link(url: str, record: Record, site: Site) -> str:
    """The permalink, pointed at ``site``'s line where that is not the record's own (same file,
    same commit: only the line anchor differs)."""
    base, hash_, _ = url.partition("#L")
    if not hash_ or site.file_path != record.file_path or site.line_number == record.line_number:
        return url
    return f"{base}#L{site.line_number}"


def _grid() -> Table:
    """Labelled facts: a short label, then a value that wraps (a word longer than the line
    folds) and is never cut."""
    from rich.table import Table

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    return grid


def _bullets(items: list[str]) -> Table:
    """Prose items as a list, each wrapped under its own first word."""
    from rich.table import Table

    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for item in items:
        grid.add_row("  -", _text(item, lines=True))
    return grid


def _text(value: str, style: str = "", *, lines: bool = False) -> Text:
    """Mined or pasted text for Rich: acting characters escaped (``visible``), and as a ``Text``,
    so no ``[tag]`` or ``:emoji:`` in it is read as markup."""
    return Text(visible(value, lines=lines), style=style)


def _write_json(value: object) -> None:
    """One JSON document on a line of stdout, as UTF-8 whatever the locale: lone surrogates as
    ``dumps`` writes them, characters a terminal acts on as ``\\u`` escapes."""
    sys.stdout.flush()
    sys.stdout.buffer.write(visible_json(dumps(value)).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


@app.command()
def explain(
    text: Annotated[
        str | None,
        typer.Argument(help="The error: a message, a last line or a whole traceback; - reads stdin."),
    ] = None,
    db: DbOption = None,
    top: Annotated[int, typer.Option(min=1, max=100, help="How many matches to show.")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
    batch: Annotated[
        bool, typer.Option(help='Read JSON Lines {"text": ...} from stdin, write one JSON answer per line.')
    ] = False,
    python: PythonOption = None,
    long: LongOption = False,
    version: Annotated[
        str | None,
        typer.Option(
            "--version",
            help="Of records stored for several releases, answer this one's (8.1.6, or click==8.1.6)"
            " where the traceback's paths name none; default: the newest.",
        ),
    ] = None,
) -> None:
    """Explain a pasted error: which library raised it, where, why, and what the record knows.

    Without --db or $ERRDEX_DB, the Python environment's index is built on first use and
    refreshed whenever something was installed, upgraded or removed; so is the index of the
    node_modules here or in a parent directory, where there is one, in the same store."""
    from errdex.defaults import default_target, find_node_modules
    from errdex.match.parse import MAX_PASTE_BYTES, PasteError
    from errdex.session import Session

    target, interpreter = default_target(db, python)
    if interpreter is not None:
        _refresh(target, interpreter, jobs=None, force=False, quiet=False)  # all on stderr
        if (tree := find_node_modules()) is not None:
            _refresh_node(target, tree, jobs=None, force=False, quiet=False)
    # Not read-only: a pattern index built here is kept in the store for the next command.
    with Session(target, readonly=False) as session:
        if batch:
            _explain_batch(session, top, version)
            return
        if text is None or text == "-":
            if sys.stdin.isatty():
                err.print("Paste the error, then press Ctrl-D.")
            # Bytes, decoded here: the locale cannot fail the read, and an undecodable byte stays
            # itself (a lone surrogate, as in argv), which the paste check counts as unreadable.
            text = sys.stdin.buffer.read(MAX_PASTE_BYTES + 1).decode("utf-8", "surrogateescape")
        try:
            answer = session.explain(text, top, version=version)
        except PasteError as exc:
            raise ErrdexError(str(exc)) from exc
    if answer.unexplained:
        _say_unexplained(answer.unexplained)
    if as_json:
        _write_json(answer.to_json())
        return
    _print_answer(answer, long=long)


def _say_unexplained(count: int) -> None:
    from errdex.match.explain import MAX_ERRORS, MAX_MATCHES

    many = count != 1
    err.print(
        f"errdex: {count} more error{'s' if many else ''} in the paste {'were' if many else 'was'} not"
        f" looked up (an answer explains at most {MAX_ERRORS} errors with {MAX_MATCHES} records):"
        " paste them on their own",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


def _explain_batch(session: Session, top: int, version: str | None = None) -> None:
    """One answer per input line; a bad line gets an error object and the batch goes on.

    Lines are read as bytes and decoded one by one, so a line that is not UTF-8 fails alone,
    whatever the locale says stdin holds."""
    from errdex.match.parse import PasteError

    for number, raw in enumerate(sys.stdin.buffer, 1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw.decode("utf-8"))
            text = item.get("text") if isinstance(item, dict) else None
            if not isinstance(text, str):
                raise ValueError('expected an object with a string "text"')
            result: dict[str, object] = session.explain(text, top, version=version).to_json()
        # RecursionError: JSON nested deeper than the decoder goes.
        except (ValueError, RecursionError, PasteError) as exc:
            result = {"error": f"line {number}: {exc}"}
        _write_json(result)


def _print_answer(answer: Answer, *, long: bool = False) -> None:
    errors = answer.query.errors
    primary = answer.query.primary if errors else 0
    origin = answer.origin(primary)
    if origin is not None:
        # No record is the site: the frame is the answer, records with its message come after.
        out.print(_text(origin.sentence(), "bold"))
        same = answer.for_error(primary)
        if same:
            out.print("[bold]Records with this message, raised elsewhere[/bold]")
            _print_candidates(same)
        if rest := [m for m in answer.matches if m.error != primary]:
            out.print("[bold]Other candidates[/bold]")
            _print_candidates(rest)
        return
    if not answer.matches:
        shown = errors[-1] if errors else None
        what = f"{shown.error_class}: {shown.message}" if shown and shown.error_class else "this error"
        out.print(_text(f"No record explains {what}"))
        return
    best, *others = answer.matches
    evidence = Text.assemble(
        (best.evidence, "bold"),
        f" match, score {best.score:.2f}",
        _text(f" · captured {best.captures}" if best.captures else ""),
    )
    frames = errors[best.error].frames if best.error < len(errors) else ()
    _print_record(
        best.record,
        best.site,
        captures=best.captures,
        evidence=evidence,
        frames=frames,
        long=long,
        releases=best.releases,
    )
    if others:
        out.print("[bold]Other candidates[/bold]")
        _print_candidates(others)


def _print_candidates(matches: list[Match]) -> None:
    """One line of facts for each match: score, evidence, class and message, where, id."""
    from rich.table import Table

    candidates = Table.grid(padding=(0, 1))
    candidates.add_column(no_wrap=True)  # "  0.44" and the evidence: short, never cut
    candidates.add_column(no_wrap=True)
    candidates.add_column(overflow="fold")
    for match in matches:
        record, site = match.stored, match.site  # one line of facts: no prose needed
        where = f"{record.repo} {site.file_path}:{site.line_number}, {record.id}"
        message = _words(record.error_message, CANDIDATE_CHARS)
        candidates.add_row(
            Text(f"  {match.score:.2f}"),
            Text(match.evidence),
            _text(
                f"{record.error_class}: {message}  ({where})"
                if record.error_class
                else f"{message}  ({where})"
            ),
        )
    out.print(candidates)


#: A candidate's message is shown up to about this many characters, cut between words.
CANDIDATE_CHARS = 160


def _words(text: str, limit: int) -> str:
    """``text`` on one line (a template may span several), and past ``limit`` characters cut at
    the last space before it, marked with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip() + " …"


@app.command()
def index(
    python: PythonOption = None,
    db: DbOption = None,
    node: Annotated[
        Path | None,
        typer.Option(
            "--node",
            help="Index this node_modules (or the one in this project directory) alone; default:"
            " the Python environment, and the node_modules here or above if there is one.",
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Mine every library again, changed or not.")] = False,
    jobs: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List skipped files.")] = False,
    quiet: QuietOption = False,
) -> None:
    """Index a Python environment (its standard library and every installed distribution) and
    the node_modules of the project here, as errdex explain uses them.

    Nothing is imported or run: distributions are read from their *.dist-info on disk, npm
    packages from their package.json.  Run again, it mines only what was installed, upgraded
    or removed since."""
    from errdex.defaults import choose_interpreter, default_target, find_node_modules
    from errdex.envindex import cache_patterns
    from errdex.nodeindex import node_modules_of

    target, interpreter = default_target(db, python)
    trees = [node_modules_of(node)] if node is not None else [found] if (found := find_node_modules()) else []
    done: list[tuple[str, Sequence[tuple[str, Skipped]]]] = []
    if node is None:
        env = _refresh(target, interpreter or choose_interpreter(python), jobs=jobs, force=force, quiet=quiet)
        mined = sum(info.records for info in env.mined)
        said = (
            f"{env.environment.prefix} (Python {env.environment.version}): {len(env.mined)} libraries"
            f" mined ({mined} records), {len(env.removed)} removed, {env.unchanged} unchanged -> {target}"
        )
        done.append((said, env.skipped))
    for tree in trees:
        packages = _refresh_node(target, tree, jobs=jobs, force=force, quiet=quiet)
        mined = sum(info.records for info in packages.mined)
        said = (
            f"{packages.node_modules}: {len(packages.mined)} packages mined ({mined} records),"
            f" {len(packages.removed)} removed, {packages.unchanged} unchanged -> {target}"
        )
        done.append((said, packages.skipped))
    # A refresh leaves the pattern index built; an index that was fresh may still lack it (its
    # records changed by a mine since, or written by another errdex): built here, not by a lookup.
    cache_patterns(target, _waiting(quiet))
    if quiet:
        return
    for said, skipped in done:
        out.print(_text(said), soft_wrap=True)
        if skipped:
            if verbose:
                for package, skip in skipped:
                    print(visible(f"skipped {package}: {skip.path}: {skip.reason}"), file=sys.stderr)
            else:
                err.print(f"{len(skipped)} skipped (--verbose lists them)")


def _refresh(target: str, interpreter: str, *, jobs: int | None, force: bool, quiet: bool) -> Refreshed:
    """Index or refresh the environment with a progress bar; every step is said on stderr."""
    from errdex.envindex import current, ensure_fresh

    if not force and (done := current(target, interpreter)) is not None:
        return done  # the common case: no bar, nothing to say
    with _progress(quiet) as (progress, phase):
        return ensure_fresh(target, interpreter, jobs=jobs, progress=progress, phase=phase, force=force)


def _refresh_node(target: str, tree: Path, *, jobs: int | None, force: bool, quiet: bool) -> NodeRefreshed:
    """Index or refresh a node_modules with a progress bar, as ``_refresh`` does the environment."""
    from errdex.nodeindex import current, ensure_fresh

    if not force and (done := current(target, tree)) is not None:
        return done
    with _progress(quiet) as (progress, phase):
        return ensure_fresh(target, tree, jobs=jobs, progress=progress, phase=phase, force=force)


@contextmanager
def _progress(
    quiet: bool, doing: str = "mining", units: str = "files"
) -> Iterator[tuple[Callable[[int, int], None], Callable[[str], None]]]:
    """A bar of files mined (or ``units`` done) on stderr, and a way to say what is being done
    above it."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn(doing),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(units),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        # Off where no terminal shows it: a log would get only the blank line it leaves.
        disable=quiet or not err.is_terminal,
    ) as bar:
        task = bar.add_task("mine", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        def phase(text: str) -> None:
            if not quiet:
                bar.console.print(_text(f"errdex: {text}"), soft_wrap=True)

        yield progress, phase


def _waiting(quiet: bool) -> Callable[[str], None]:
    """What a writer says on stderr while another process holds the store."""

    def say(text: str) -> None:
        if not quiet:
            err.print(f"errdex: {text}", markup=False, highlight=False, soft_wrap=True)

    return say


def _target(db: str | None) -> str:
    from errdex.defaults import default_target

    return default_target(db)[0]


@app.command()
def stats(db: DbOption = None) -> None:
    """Count what the store holds, per repository."""
    from rich.table import Table

    from errdex.store import open_store

    with open_store(_target(db)) as store:
        totals = store.stats()
        repos = store.repos()
    table = Table("repository", "package", "kind", "files", "records", "skipped", "commit")
    for info in repos:
        table.add_row(
            _text(info.repo),
            _text(f"{info.package or ''} {info.version or ''}".strip()),
            info.kind,
            str(info.files),
            str(info.records),
            str(info.skipped),
            (info.sha or "")[:10],
        )
    out.print(table)
    out.print(", ".join(f"{k}: {v}" for k, v in totals.items()))


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[
        str, typer.Option(help="Address to listen on (loopback unless you mean to share).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    time_budget: TimeBudgetOption = 5.0,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Server processes (lookups hold Python's lock: one per core).")
    ] = 1,
) -> None:
    """Serve the store read-only: the HTTP API (/api/search, /api/explain, /api/errors/ID,
    /api/repos, /schema.json, /docs) and pages to paste an error into and read records."""
    import uvicorn

    from errdex.serve.app import SERVE_BUDGET, SERVE_DB, create_app

    target = _target(db)
    # A store that cannot be opened fails here, in one line, not once in each worker.
    app = create_app(target, time_budget=time_budget)
    # Lookups run in threads beside the event loop; handing Python's lock over every 5 ms (the
    # default) lets one long explain delay every quick search behind it by that much, each time.
    sys.setswitchinterval(0.0005)
    if workers == 1:
        uvicorn.run(app, host=host, port=port, log_level="info")
        return
    app.state.session.close()
    # Worker processes build the app themselves, from the environment they inherit.
    os.environ[SERVE_DB], os.environ[SERVE_BUDGET] = target, str(time_budget)
    uvicorn.run(
        "errdex.serve.app:app_from_environment",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="info",
    )


@app.command()
def schema() -> None:
    """Print the JSON Schema of an errdex record (schema v2 fields plus extensions)."""
    sys.stdout.write(json.dumps(json_schema(), indent=2) + "\n")


hook_app = typer.Typer(
    help="Explain uncaught errors in every Python process of this environment, after their traceback.",
    no_args_is_help=True,
)
app.add_typer(hook_app, name="hook")

SiteDirOption = Annotated[
    Path | None,
    typer.Option("--site-dir", help="Where the .pth file goes (default: this interpreter's site-packages)."),
]


@hook_app.command("install")
def hook_install(site_dir: SiteDirOption = None) -> None:
    """Write errdex-hook.pth, which turns errdex's excepthook on at every interpreter start-up."""
    from errdex.hooks.pth import install_pth

    path = install_pth(site_dir)
    out.print(_text(f"wrote {path}"), soft_wrap=True)
    out.print(
        "uncaught errors are now explained from $ERRDEX_DB, else the environment's index"
        " (`errdex index` builds it); ERRDEX_HOOK=0 turns this off for one process,"
        " `errdex hook uninstall` for good",
        markup=False,
        highlight=False,
    )


@hook_app.command("uninstall")
def hook_uninstall(site_dir: SiteDirOption = None) -> None:
    """Remove errdex-hook.pth."""
    from errdex.hooks.pth import uninstall_pth

    path, removed = uninstall_pth(site_dir)
    message = f"removed {path}" if removed else f"no errdex hook at {path}: nothing to remove"
    out.print(_text(message), soft_wrap=True)


@app.command()
def mcp(db: DbOption = None, time_budget: TimeBudgetOption = 5.0) -> None:
    """Serve the store read-only to coding agents: an MCP server on stdio with the tools
    search_error, explain_error, get_error and list_repos (stdout carries only the protocol)."""
    from errdex.serve.mcp import serve as serve_mcp

    serve_mcp(_target(db), time_budget)


corpus_app = typer.Typer(
    help="Many packages and their releases, planned from a package index, mined into one store.",
    no_args_is_help=True,
)
app.add_typer(corpus_app, name="corpus")

CorpusDbOption = Annotated[
    str | None,
    typer.Option("--db", help="The corpus's SQLite file or postgresql:// URL (default: $ERRDEX_DB)."),
]
IndexOption = Annotated[
    str | None,
    typer.Option(
        "--index-url",
        help="A PEP 691 package index (default: $ERRDEX_INDEX_URL, else https://pypi.org/simple).",
    ),
]


def _corpus_target(db: str | None) -> str:
    target = db or os.environ.get("ERRDEX_DB")
    if not target:
        raise ErrdexError("a corpus needs a store: pass --db FILE or postgresql://... (or set ERRDEX_DB)")
    return target


@corpus_app.command("add")
def corpus_add(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            help="Requirements (requests>=2.20; a bare name means its newest release) or directories."
        ),
    ] = None,
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="A file of requirements, one a line.")
    ] = None,
    db: CorpusDbOption = None,
    quiet: QuietOption = False,
) -> None:
    """Add packages (or local checkouts) to the corpus; `errdex corpus run` mines them."""
    from errdex.corpus.run import read_names, requirement_entry
    from errdex.store import open_store, writing

    wanted = [*(names or []), *(read_names(file) if file else [])]
    if not wanted:
        raise ErrdexError("name a package, a directory, or --file FILE")
    entries = [requirement_entry(name) for name in wanted]
    target = _corpus_target(db)
    with writing(target, _waiting(quiet)), open_store(target) as store:
        added = store.corpus_add(entries)
    if not quiet:
        out.print(_text(f"{len(added)} added, {len(entries) - len(added)} already in the corpus -> {target}"))


@corpus_app.command("run")
def corpus_run(
    db: CorpusDbOption = None,
    engine: Annotated[str, typer.Option(help="local (a process pool) or ray (a Ray cluster).")] = "local",
    address: Annotated[
        str | None, typer.Option(help="An existing Ray cluster (default: start one on this machine).")
    ] = None,
    jobs: Annotated[int | None, typer.Option(min=1, help="Tasks at once (default: all cores).")] = None,
    index_url: IndexOption = None,
    retry_failed: Annotated[bool, typer.Option(help="Try failed artifacts now, cooling off or not.")] = False,
    max_failures: Annotated[int, typer.Option(min=1, help="Stop after this many failures in a row.")] = 10,
    work_dir: Annotated[
        Path | None, typer.Option(help="Where artifacts are unpacked (default: the system's temp directory).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the run's report as JSON.")] = False,
    quiet: QuietOption = False,
) -> None:
    """Plan every requirement from the package index and mine each artifact not yet done."""
    from errdex.corpus.run import run

    if engine not in ("local", "ray"):
        raise ErrdexError(f"--engine must be local or ray, not {engine!r}")
    target = _corpus_target(db)
    with _progress(quiet or json_out, "mining", "artifacts") as (progress, _):
        report = run(
            target,
            index_url=index_url or os.environ.get("ERRDEX_INDEX_URL") or "https://pypi.org/simple",
            engine="ray" if engine == "ray" else "local",
            address=address,
            jobs=jobs,
            retry_failed=retry_failed,
            max_failures=max_failures,
            work_dir=os.fspath(work_dir) if work_dir else None,
            progress=lambda _, done, total: progress(done, total),
        )
    summary = {
        "planned": report.planned,
        "done": len(report.done),
        "failed": len(report.failed),
        "skipped": len(report.skipped),
        "alreadyDone": report.already_done,
        "cacheHits": report.cache_hits,
        "cacheMisses": report.cache_misses,
        "cacheHitRate": round(report.cache_rate, 4),
        "seconds": round(report.seconds, 2),
        "stopped": report.stopped,
        "problems": [{"requirement": r, "reason": why} for r, why in report.problems],
        "failures": [
            {"package": a.package, "version": a.version, "failure": a.failure, "reason": a.reason}
            for a in report.failed
        ],
        "skips": [{"package": a.package, "version": a.version, "reason": why} for a, why in report.skipped],
    }
    if json_out:
        _write_json(summary)
    elif not quiet:
        out.print(
            _text(
                f"{len(report.done)} done, {len(report.failed)} failed, {len(report.skipped)} skipped,"
                f" {report.already_done} done before; {report.planned} newly planned; file cache:"
                f" {report.cache_hits} hits, {report.cache_misses} extracted ({report.cache_rate:.0%})"
                f" in {report.seconds:.1f} s -> {target}"
            ),
            soft_wrap=True,
        )
        for requirement, why in report.problems:
            err.print(_text(f"not planned: {requirement}: {why}"), soft_wrap=True)
        for a in report.failed:
            err.print(_text(f"failed ({a.failure}): {a.package} {a.version}: {a.reason}"), soft_wrap=True)
    if report.stopped:
        _fail(f"errdex: run stopped: {report.stopped}")
    if report.problems and not report.done and not report.already_done:
        sys.exit(1)


@corpus_app.command("status")
def corpus_status(
    db: CorpusDbOption = None,
    package: Annotated[str | None, typer.Option(help="Only this package.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print every artifact as JSON.")] = False,
) -> None:
    """Every planned artifact: queued, done, failed (with why) or skipped (with why)."""
    from dataclasses import asdict

    from rich.table import Table

    from errdex.corpus.run import due
    from errdex.record import canonical
    from errdex.store import open_store

    with open_store(_corpus_target(db), readonly=True) as store:
        artifacts = store.artifacts(canonical(package) if package else None)
        requirements = store.corpus_requirements()
    _, cooling = due(artifacts, retry_failed=False)
    waiting = {a.key: why for a, why in cooling}
    if json_out:
        _write_json(
            {
                "requirements": requirements,
                "artifacts": [{**asdict(a), "coolingOff": waiting.get(a.key)} for a in artifacts],
            }
        )
        return
    table = Table("package", "release", "kind", "state", "records", "why")
    for a in artifacts:
        why = a.reason or ""
        if a.key in waiting:
            why = f"{why} ({waiting[a.key]})"
        table.add_row(_text(a.package), _text(a.version), a.kind, a.state, str(a.records), _text(why))
    out.print(table)
    counts = {
        state: sum(a.state == state for a in artifacts) for state in ("queued", "done", "failed", "skipped")
    }
    out.print(
        ", ".join(f"{state}: {n}" for state, n in counts.items()) + f"; {len(requirements)} requirements"
    )


@corpus_app.command("diff")
def corpus_diff(
    package: Annotated[str, typer.Argument(help="The package.")],
    old: Annotated[str, typer.Argument(help="The older release.")],
    new: Annotated[str, typer.Argument(help="The newer release.")],
    db: CorpusDbOption = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the differences as JSON.")] = False,
) -> None:
    """The error messages added, removed and changed between two releases of a package."""
    from errdex.corpus.diff import diff_releases
    from errdex.store import open_store

    with open_store(_corpus_target(db), readonly=True) as store:
        changes = diff_releases(store, package, old, new)
    if json_out:
        _write_json(changes.to_json())
        return

    def line(sign: str, r: Record) -> Text:
        return _text(
            f"{sign} {r.error_class or r.error_type}: {r.error_message}  ({r.file_path}:{r.line_number})"
        )

    for record in changes.added:
        out.print(line("+", record), soft_wrap=True)
    for record in changes.removed:
        out.print(line("-", record), soft_wrap=True)
    for before, after in changes.changed:
        out.print(line("~", before), soft_wrap=True)
        out.print(line(" ", after), soft_wrap=True)
    out.print(
        _text(
            f"{changes.package} {old} -> {new}: {len(changes.added)} added, {len(changes.removed)} removed,"
            f" {len(changes.changed)} changed, {changes.unchanged} unchanged"
        )
    )


def main() -> None:
    """Run the CLI; errdex's own failures print as one line and exit non-zero, never a traceback."""
    try:
        app()
    except ErrdexError as exc:
        _fail(f"errdex: error: {exc}")
    except OSError as exc:
        _fail(f"errdex: error: {exc}")
    except KeyboardInterrupt:
        _fail("errdex: interrupted", 130)


def _fail(message: str, code: int = 1) -> None:
    # Plain text, unwrapped: one line whatever the terminal width, easy to grep in logs.
    print(visible(" ".join(message.split())), file=sys.stderr)
    sys.exit(code)
