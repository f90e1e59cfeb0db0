"""Site facts in words: where an error is raised and under which conditions.

Until enrichment runs, these sentences are all the prose a record carries.  Each one is
built from facts of the site itself (function, file, line, guard conditions), so two records
in different functions never share a sentence and nothing is generic filler.
"""

from __future__ import annotations

from errdex.mine.python import RawSite

_RAISED = {
    "raise": "Raised as `{cls}`",
    "helper": "Raised as `{cls}` through a raise helper",
    "assert": "An `assert` fails with `AssertionError`",
    "warn": "Warns with `{cls}`",
    "log": "Logged at {severity} level",
    "exit": "Exits the program with this message",
    "http": "Answers HTTP {status}",
}


def _where(site: RawSite, file_path: str, module: str | None) -> str:
    place = f"`{site.function}`" if site.function else f"module-level code of `{module or file_path}`"
    return f"in {place} ({file_path}, line {site.line})"


def documentation(site: RawSite, file_path: str, module: str | None, other_lines: list[int]) -> str:
    lead = _RAISED[site.kind].format(
        cls=site.class_written or "an exception",
        severity=site.severity,
        status=site.http_status or "an error status",
    )
    text = f"{lead} {_where(site, file_path, module)}."
    if other_lines:
        shown = ", ".join(str(n) for n in other_lines[:10])
        more = f" and {len(other_lines) - 10} more" if len(other_lines) > 10 else ""
        text += f" The same message is also raised in this file at line {shown}{more}."
    return text


def trigger_scenarios(site: RawSite, file_path: str) -> str:
    where = f"`{site.function}`" if site.function else f"`{file_path}` at import time"
    if not site.conditions:
        return f"Whenever {where} reaches line {site.line}: no `if` or `while` guards it there."
    conditions = [f"`{c}`" for c in site.conditions]
    joined = conditions[0] if len(conditions) == 1 else ", ".join(conditions[:-1]) + " and " + conditions[-1]
    return f"When {joined}, in {where}."


def common_situations(site: RawSite, module: str | None) -> str:
    if site.function:
        scope = f" of `{module}`" if module else ""
        return f"Code that calls `{site.function}`{scope}."
    return f"Importing `{module}`." if module else ""
