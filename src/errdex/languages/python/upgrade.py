"""Records written before guards and parameters were kept as structure (extension version 1).

Such a record kept its guards only as text (``conditions``) and its function's signature as the
``def`` line (``facts.signature``).  Reading one, errdex parses each once, here, into what the
extractor now records from the syntax tree, so that enrichment treats old and new alike.
"""

from __future__ import annotations

import ast
from typing import Any

from errdex.languages.python.extract import parameters_of
from errdex.languages.python.guards import condition_guard
from errdex.record import Guard, Parameter


def upgrade_facts(conditions: list[str], signature: str | None) -> dict[str, Any]:
    """``guards`` and ``parameters`` for a version 1 record's facts, as JSON values."""
    return {
        "guards": [_guard(text) for text in conditions],
        "parameters": _parameters(signature),
    }


def _guard(text: str) -> Guard:
    """A stored condition as a test that must hold (an ``else`` branch was stored as ``not (...)``,
    which reads the same)."""
    try:
        return condition_guard("if", ast.parse(text, mode="eval").body, False, text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # also too deep to unparse
        return Guard("if", text)


def _parameters(signature: str | None) -> list[Parameter]:
    if not signature:
        return []
    try:
        fn = ast.parse(f"def {signature}: pass").body[0]
        return list(parameters_of(fn.args)) if isinstance(fn, ast.FunctionDef) else []
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # also too deep to unparse
        return []
