"""Similarity for messages no template produces exactly.

Both sides become tokens: values a message interpolates (numbers, hex, UUIDs, paths, quoted
text) turn into typed placeholders, and a template's placeholders into wildcards that absorb
one of them.  A value is not thrown away: its text stays a token too, so a message naming
``'users.id'`` or ``404`` still scores higher against the template that spells it.  Overlap
is weighted by rarity, so ``the`` and ``is`` count for little.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping

_TOKEN = re.compile(
    r"(?P<uuid>\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b)"
    r"|(?P<hex>\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{12,}\b)"
    r"|(?P<path>(?:\b[A-Za-z]:)?(?:[\\/][\w.-]+){2,}[\\/]?)"
    r"|(?P<quoted>'[^'\n]{0,200}'|\"[^\"\n]{0,200}\"|`[^`\n]{0,200}`)"
    r"|(?P<num>(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]))"
    r"|(?P<word>\w+)"
)
_TEMPLATE_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
_WORD = re.compile(r"\w+")
WILDCARD = "<*>"
_TYPED_WEIGHT = 0.5


def message_tokens(message: str) -> Counter[str]:
    """Typed placeholders for values, plus the words of the text (values' words included)."""
    out: Counter[str] = Counter()
    for m in _TOKEN.finditer(message):
        kind = m.lastgroup
        if kind == "word":
            out[m.group()] += 1
            continue
        out[f"<{kind}>"] += 1
        out.update(_WORD.findall(m.group()))
    return out


def template_tokens(message: str) -> Counter[str]:
    """A record's message: its literal words, and one wildcard per placeholder."""
    out: Counter[str] = Counter()
    pos = 0
    for m in _TEMPLATE_PLACEHOLDER.finditer(message):
        out.update(_WORD.findall(message[pos : m.start()]))
        out[WILDCARD] += 1
        pos = m.end()
    out.update(_WORD.findall(message[pos:]))
    return out


def similarity(query: Counter[str], template: Counter[str], counts: Mapping[str, int], total: int) -> float:
    """Weighted overlap in [0, 1]: shared weight over the weight of either side."""

    def weight(token: str) -> float:
        if token.startswith("<") and token.endswith(">"):
            return _TYPED_WEIGHT
        return math.log((total + 1) / (counts.get(token, 0) + 1)) + 1.0

    shared = 0.0
    for token, n in template.items():
        if token != WILDCARD:
            shared += weight(token) * min(n, query.get(token, 0))
    typed = sum(n for t, n in query.items() if t.startswith("<"))
    shared += _TYPED_WEIGHT * min(template.get(WILDCARD, 0), typed)
    union = (
        sum(weight(t) * n for t, n in query.items())
        + sum(weight(t) * n for t, n in template.items() if t != WILDCARD)
        + _TYPED_WEIGHT * template.get(WILDCARD, 0)
    )
    union -= shared
    return shared / union if union > 0 else 0.0
