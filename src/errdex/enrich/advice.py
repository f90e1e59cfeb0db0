"""The advice a message gives about itself: "please provide ...", "did you forget ...?".

Library authors often write the fix into the message.  That advice is the best-grounded
solution there is, so it is read out first, in the message's own words, turned into an
instruction ("Provide the model used ...").  Nothing here invents advice a message lacks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Where an advice clause ends: a sentence end, or the end of the message.
_END = r"(?=[.;!]\s|[.;!]?$|\n)"


@dataclass(frozen=True, slots=True)
class Advice:
    #: What kind of advice: ``provide``, ``forgot``, ``instead``, ``choices``, ``expected``,
    #: ``requirement``, ``suggestion``, ``install``, ``instruction``.
    kind: str
    #: The advice as an instruction, in the message's words.
    text: str


def _capital(text: str) -> str:
    text = text.strip().rstrip(",:")
    return text[:1].upper() + text[1:] if text else text


_RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    # "please provide the model used ...", "please pass `x=`", "Please install foo"
    (
        "provide",
        re.compile(
            r"\bplease\s+((?:provide|pass|specify|set|use|call|install|make sure|ensure|check|"
            r"consider|add|remove|define|choose|select|upgrade|update|run|try|report|open|contact|"
            r"rewrite|switch|refer|see|read|file)\b.*?)" + _END,
            re.IGNORECASE | re.DOTALL,
        ),
        "{0}",
    ),
    # "Did you forget to call `fabric.setup()`?" -> "Call `fabric.setup()`"
    ("forgot", re.compile(r"\bdid you (?:forget|mean) (?:to )?(.+?)\?", re.IGNORECASE), "{0}"),
    # "... is deprecated, use `new_name` instead" -> "Use `new_name` instead"
    (
        "instead",
        re.compile(r"\b(use|call|pass|set|try)\s+(.+?)\s+instead\b", re.IGNORECASE),
        "{0} {1} instead",
    ),
    # "mode must be one of ['a', 'b']" -> "Pass one of ['a', 'b'] as mode"
    (
        "choices",
        re.compile(r"^(.*?)\s*(?:must|should) be one of:?\s*(.+?)" + _END, re.IGNORECASE | re.DOTALL),
        "Use one of {1} for {0}",
    ),
    (
        "choices",
        re.compile(
            r"\b(?:valid|supported|allowed) (?:values|options|choices) (?:are|is):?\s*(.+?)" + _END,
            re.IGNORECASE,
        ),
        "Use one of {0}",
    ),
    # "expected str, got int" -> "Pass str (it got int)"
    (
        "expected",
        re.compile(
            r"\bexpected:?\s+(.+?),?\s+(?:but\s+)?(?:got|received|found)\s+(.+?)" + _END, re.IGNORECASE
        ),
        "Pass {0} (the call gave {1})",
    ),
    # "you can set `x` to ...", "you should call ..."
    (
        "suggestion",
        re.compile(
            r"\byou (?:can|could|should|must|need to|may want to|might want to|have to)\s+(.+?)" + _END,
            re.IGNORECASE,
        ),
        "{0}",
    ),
    ("suggestion", re.compile(r"\b(?:try|consider)\s+(.+?)" + _END, re.IGNORECASE), "Try {0}"),
    ("suggestion", re.compile(r"\bmake sure (?:that )?(.+?)" + _END, re.IGNORECASE), "Make sure {0}"),
    (
        "install",
        re.compile(r"\b(pip install\s+\S+(?:\s+\S+)*?)" + r"(?=[`'\"]|[.;!]?\s|$)", re.IGNORECASE),
        "Run `{0}`",
    ),
    # "`psutil` is not installed" -> "Install `psutil`"
    (
        "install",
        re.compile(r"(`[\w.\[\]-]+`|'[\w.\[\]-]+'|\b[\w.-]+) (?:is|are) not installed", re.I),
        "Install {0}",
    ),
    # "is only supported in torch >= 2.2" -> "Use it only in torch >= 2.2"
    (
        "requirement",
        re.compile(
            r"\bonly (?:supported|available|possible|allowed|works?) (in|with|on|for|if|when) (.+?)" + _END,
            re.I,
        ),
        "Use it only {0} {1}",
    ),
    # "requires PyTorch 2.4 or higher" -> "Install PyTorch 2.4 or higher"
    (
        "install",
        re.compile(
            r"\brequires? ([\w.-]+ ?(?:>=|>)? ?\d+(?:\.\d+)*(?: or (?:higher|newer|later|above))?)", re.I
        ),
        "Install {0}",
    ),
    # "We recommend `Fabric(strategy='ddp_spawn')` instead", "It is recommended that you rewrite ..."
    ("suggestion", re.compile(r"\b(?:we|i) recommend (?:that you |to )?(.+?)" + _END, re.I), "Use {0}"),
    (
        "suggestion",
        re.compile(r"\bit is (?:recommended|advised) (?:that you |to )?(.+?)" + _END, re.I),
        "{0}",
    ),
    # A sentence that is itself an instruction: "Choose one or the other.", "Pass it in like so: ..."
    (
        "instruction",
        re.compile(
            r"(?:^|[.!?:]\s+)((?:Pass|Choose|Use|Set|Call|Install|Provide|Specify|Check|Ensure|Remove|Add|"
            r"Upgrade|Update|Rewrite|Switch|Run|Define|Reduce|Increase|Wrap|Move|Rename|Enable|Disable|"
            r"Select|Contact|Restart|Reinstall|Downgrade|Change|Convert|Return|Implement|Override)\b.+?)"
            + _END
        ),
        "{0}",
    ),
    # "The filename cannot be empty" -> "Make sure the filename is not empty"
    (
        "requirement",
        re.compile(
            r"^(.{1,80}?) (?:cannot|can't|must not|should not) be (empty|none|null|negative|zero)\b", re.I
        ),
        "Make sure {0} is not {1}",
    ),
    # "`batch_size` must be a positive integer" -> "Make sure `batch_size` is a positive integer"
    (
        "requirement",
        re.compile(
            r"^(.{1,80}?)\s+(must|should|needs to|has to)\s+(be|have|not be|contain|match)\s+(.+?)" + _END,
            re.IGNORECASE | re.DOTALL,
        ),
        "Make sure {0} {2}s {3}",
    ),
)

_VERB = {"bes": "is", "haves": "has", "not bes": "is not", "contains": "contains", "matchs": "matches"}


def advice(message: str) -> list[Advice]:
    """Every piece of advice in a message, in the order it appears, without repeats."""
    found: list[tuple[int, Advice]] = []
    seen: set[str] = set()
    for kind, rule, form in _RULES:
        if kind == "requirement" and found:
            continue  # a message that already says what to do needs no restating of its rule
        for m in rule.finditer(message):
            groups = [g.strip() for g in m.groups() if g is not None]
            if kind == "requirement" and re.match(r"[A-Z][a-z]", groups[0]):
                groups[0] = groups[0][0].lower() + groups[0][1:]  # "The filename" inside a sentence
            text = form.format(*groups) if form != "{0}" else groups[0]
            for wrong, right in _VERB.items():
                text = text.replace(f" {wrong} ", f" {right} ")
            text = _capital(text)
            key = text.lower()
            if len(text) < 4 or key in seen:
                continue
            seen.add(key)
            found.append((m.start(), Advice(kind, text)))
    return [a for _, a in sorted(found, key=lambda item: item[0])]
