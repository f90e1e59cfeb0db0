"""errdex's answer as a few lines of plain text, printed under the traceback it explains.

One rendering for every hook (``sys.excepthook``, threads, IPython, pytest): the text lands in
terminals, log files, notebooks and CI output alike, so it has no colour, no box and no markup,
and it stays short: the traceback above it is what the reader came for.  Mined and pasted text
in it is ``errdex.display.visible``: no escape sequence in a record reaches the terminal.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from errdex.display import visible

if TYPE_CHECKING:
    from errdex.match.explain import Answer, Match
    from errdex.record import Record

#: Wide enough for a path and a line number, narrow enough for a CI log viewer.
WIDTH = 100
_INDENT = "  "
_MESSAGE_CHARS = 160


def brief(answer: Answer, *, others: int = 3, advice: int = 3) -> str:
    """The best match (class and message, where it is raised, permalink, evidence, up to ``advice``
    solutions or else its conditions), then one line for each of up to ``others`` candidates."""
    origin = answer.origin(answer.query.primary) if answer.query.errors else None
    if origin is not None:
        # No record is the site: the frame is the answer; records with the message come after.
        lines = [f"errdex: {_query(answer)}"]
        lines.append(_fill(origin.sentence(), _INDENT, _INDENT))
        rest = _others(answer.for_error(answer.query.primary), "", others)
        if rest:
            lines.append(f"{_INDENT}records with this message, raised elsewhere:")
            lines += [_candidate(match) for match in rest]
        return "\n".join(lines)
    if not answer.matches:
        return f"errdex: no record explains {_query(answer)}"
    best = answer.matches[0]
    record, site = best.record, best.site
    where = visible(f"{site.function or '(module level)'} ({site.file_path}:{site.line_number})")
    if record.package:
        where += visible(f", {record.package} {record.version or ''}".rstrip())
    lines = [
        f"errdex: {_one_line(f'{_class(record)}: {record.error_message}', _MESSAGE_CHARS)}",
        f"{_INDENT}raised in {where}",
    ]
    if record.github_url:
        lines.append(f"{_INDENT}{visible(record.github_url)}")
    evidence = f"{_INDENT}evidence: {best.evidence} (score {best.score:.2f})"
    if best.captures:
        values = ", ".join(f"{visible(k)}={_one_line(v, 60)}" for k, v in best.captures.items())
        evidence += f"; captured {values}"
    lines.append(evidence)
    if record.solutions:
        lines += _bullets("how to fix it:", record.solutions[:advice])
    elif record.conditions:
        lines += _bullets("raised when:", record.conditions[:advice])
    lines += [f"{_INDENT}{visible(line)}" for line in record.model_authors()]
    rest = _others(answer.matches[1:], record.id, others)
    if rest:
        lines.append(f"{_INDENT}other candidates:")
        lines += [_candidate(match) for match in rest]
    return "\n".join(lines)


def _query(answer: Answer) -> str:
    errors = answer.query.errors
    if not errors:
        return "this error"
    error = errors[answer.query.primary]
    text = f"{error.error_class}: {error.message}" if error.error_class else error.message
    return _one_line(text, _MESSAGE_CHARS) or "this error"


def _class(record: Record) -> str:
    return record.qualified_class or record.error_class or record.error_type


def _others(matches: list[Match], best_id: str, limit: int) -> list[Match]:
    """Other records, each once: a chained error may be explained by the same record again."""
    seen = {best_id}
    out: list[Match] = []
    for match in matches:
        if match.stored.id not in seen and len(out) < limit:
            seen.add(match.stored.id)
            out.append(match)
    return out


def _candidate(match: Match) -> str:
    record = match.stored  # one line of facts: no prose needed
    text = _one_line(f"{_class(record)}: {record.error_message}", 70)
    where = visible(f"{match.site.file_path}:{match.site.line_number}")
    return f"{_INDENT * 2}{match.score:.2f} {match.evidence:<13} {text} ({where})"


def _bullets(title: str, items: list[str]) -> list[str]:
    lines = [f"{_INDENT}{title}"]
    for item in items:
        lines.append(_fill(" ".join(item.split()), f"{_INDENT * 2}- ", f"{_INDENT * 2}  "))
    return lines


def _fill(text: str, first: str, rest: str) -> str:
    """``text`` made visible and wrapped at ``WIDTH``, words and paths never broken."""
    return textwrap.fill(
        visible(text), WIDTH, initial_indent=first, subsequent_indent=rest,
        break_long_words=False, break_on_hyphens=False,
    )  # fmt: skip


def _one_line(text: str, limit: int) -> str:
    """Whitespace folded to single spaces, cut at ``limit`` characters: a template may span lines."""
    text = visible(" ".join(text.split()))
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."
