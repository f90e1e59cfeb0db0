"""Mined and pasted text as it may be shown: every character a terminal would act on, escaped.

A record's message, source and prose come from code errdex never ran, and a paste from anyone:
either can hold escape sequences (colours, OSC 8 hyperlinks, a cleared screen), carriage returns
that overwrite what came before, or bidi overrides that reorder what the reader sees.  Every front
end shows such text through ``visible``, which writes those characters as Python escapes
(``\\x1b``, ``\\u202e``), so what is printed is what the text holds.  Rich markup is a separate
matter: the CLI hands this text to Rich as ``rich.text.Text``, which no markup or emoji code
touches.  The module imports nothing, so the hooks can use it in any process.
"""

from __future__ import annotations

import re

#: C0 controls but tab and newline, DEL, C1 controls, bidi marks, embeddings, overrides and
#: isolates, line and paragraph separators, and lone surrogates (which no UTF-8 stream takes).
_ACTING = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
_IN_LINES = re.compile(f"[{_ACTING}]")
_IN_A_LINE = re.compile(f"[\t\n{_ACTING}]")
#: What a JSON writer leaves raw: C1 controls, bidi and separators (C0 it escapes itself).
_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with each acting character as its Python escape; ``lines`` keeps newlines and
    tabs, for fields shown as blocks (source code, prose), where they are layout."""
    return (_IN_LINES if lines else _IN_A_LINE).sub(_escape, text)


def visible_json(text: str) -> str:
    """JSON text with the characters a terminal acts on as ``\\u`` escapes: the same document to
    any JSON reader, harmless on a screen.  Expects text ``errdex.record.dumps`` wrote."""
    return _IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")
