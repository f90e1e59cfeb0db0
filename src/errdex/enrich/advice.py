"""The advice a message gives about itself: "please provide ...", "did you forget ...?".

Library authors often write the fix into the message.  That advice is the best-grounded
solution there is, so it is read out first, in the message's own words, turned into an
instruction ("Provide the model used ...").  Nothing here invents advice a message lacks.

A message is read sentence by sentence (a ``;`` ends a clause too; "e.g." and text in
backticks end nothing), so a rule never runs across two sentences.  The values a message
interpolates at run time (its placeholders: ``{device}``, ``%s``) are never written into the
advice: the reader's own message shows them.  A placeholder in a clause that only reports what
was passed ("..., got {device}") goes with its clause; one that lists the choices becomes "the
values the message lists"; one inside quoted code reads as ``…`` with a note that the message
gives it; advice that would need one anywhere else is left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from errdex.patterns import PLACEHOLDER_GROUP, split_pattern


@dataclass(frozen=True, slots=True)
class Advice:
    #: What kind of advice: ``provide``, ``forgot``, ``instead``, ``choices``, ``expected``,
    #: ``requirement``, ``suggestion``, ``install``, ``instruction``.
    kind: str
    #: The advice as an instruction, in the message's words.
    text: str


#: A placeholder's place in the marked message: private-use characters no message holds.
_OPEN, _CLOSE = "\ue000", "\ue001"
_MARK = re.compile(f"{_OPEN}(\\d+){_CLOSE}")
_M = f"{_OPEN}\\d+{_CLOSE}"
#: How a ``%`` conversion is written (``%s``, ``%(name)r``, ``%-10.2f``).
_PERCENT = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[a-zA-Z]")
#: Placeholders in a message read without its pattern: ``{...}`` and ``%`` conversions.
_LOOSE = re.compile(r"\{[^{}\n]*\}|" + _PERCENT.pattern)
#: Words a sentence may end with only when it was cut short.
_DANGLING = frozenset({
    "with", "e.g", "e.g.", "i.e", "i.e.", "to", "the", "a", "an", "and", "or", "of", "for", "like", "as",
    "by", "in", "on", "from", "at", "is", "are", "be", "than", "such", "via", "into", "your", "its", "their",
})  # fmt: skip
_ABBREVIATIONS = ("e.g", "i.e", "etc", "vs", "cf", "approx", "resp", "incl", "esp", "viz", "ca", "no", "ver")
_PRONOUNS = frozenset({
    "it", "this", "that", "they", "these", "those", "which", "there", "he", "she", "we", "you", "i", "one",
    "something",
})  # fmt: skip
_CONDITIONAL = re.compile(r"^(if|when|unless|since|because|although|while|once)\b", re.IGNORECASE)
#: The parts of a sentence that report what was passed, not what to do: ", got {x}".
_GOT = re.compile(
    r"(?:,\s*|\s+(?=but\b)|\s*\(\s*(?=got\b|found\b|given\b|received\b))(?:but\s+)?"
    r"(?:got|found|given|received|passed|instead got|you passed|you gave|you provided|you chose|"
    r"you used|you set|it was|it is|was|is used|are used|which is)\b.*$",
    re.IGNORECASE | re.DOTALL,
)
#: Expressions that name the object's own class: a method of that class says it.
_OWN_CLASS = re.compile(rf"{_OPEN}(\d+){_CLOSE}\.(?=[A-Za-z_])")
_CLASS_NAMES = frozenset(
    {
        "type(self).__name__",
        "self.__class__.__name__",
        "cls.__name__",
        "type(self).__qualname__",
        "self.__class__.__qualname__",
        "cls.__qualname__",
    }
)
_LISTS = re.compile(
    rf"\b(one of|either of|any of(?: the following)?|among(?: the following)?|from(?: the following)?"
    rf"|the following)\s*:?\s*(?:[\[(]\s*)?`?{_M}`?(?:\s*[\])])?",
    re.IGNORECASE,
)
_VERBS = (
    "Pass|Choose|Use|Set|Call|Install|Provide|Specify|Check|Ensure|Remove|Add|Upgrade|Update|Rewrite|"
    "Switch|Run|Define|Reduce|Increase|Wrap|Move|Rename|Enable|Disable|Select|Contact|Restart|Reinstall|"
    "Downgrade|Change|Convert|Return|Implement|Override|Do|Try|Make|Avoid|Consider|Replace|Register|"
    "Initialize|Initialise|Import|Include|Configure|Create|Delete|Open|Close|Close|Upload|Report|Raise|"
    "Lower|Limit|Drop|Cast|Apply|Supply|Give|Put|Keep|Stop|Start|Migrate"
)
_OPENING_VERB = re.compile(r"(?:use|pass|call|specify|provide|install|try|consider)\s")
_NOT_IMPERATIVE = frozenset({
    "failed", "fails", "is", "was", "are", "were", "has", "had", "have", "not", "of", "error", "errors",
    "must", "will", "cannot", "can", "should", "would", "does", "did", "may", "might", "could", "value",
    "values", "type", "types", "object", "objects", "function", "method", "mode", "option",
})  # fmt: skip


def advice(message: str, pattern: str | None = None) -> list[Advice]:
    """Every piece of advice in a message, in the order it appears, without repeats.

    ``pattern`` (the record's ``messagePattern``) tells the message's placeholders from text that
    only looks like one; without it, every ``{...}`` and ``%s`` is taken for a placeholder."""
    marked, names = _marked(message, pattern)
    found: list[tuple[int, Advice]] = []
    seen: set[str] = set()
    for start, sentence, clause in _sentences(marked):
        said = False
        for kind, rule, write in _RULES:
            if kind == "requirement" and (said or found):
                continue  # a message that already says what to do needs no restating of its rule
            for m in rule.finditer(sentence):
                # An instruction in lower case only after a ``;``, or opening the message with a
                # verb that can only be an instruction there ("use the name attribute").
                lower = kind == "instruction" and not clause and m.group(0)[:1].islower()
                if lower and (start + m.start() != 0 or not _OPENING_VERB.match(m.group(0))):
                    continue
                written = write(m, names)
                if written is None:
                    continue
                text = _resolved(written, names)
                if text is None:
                    continue
                key = text.lower().rstrip(".")
                if key in seen:
                    continue
                seen.add(key)
                said = True
                found.append((start + m.start(), Advice(kind, text)))
    return [a for _, a in sorted(found, key=lambda item: item[0])]


def _marked(message: str, pattern: str | None) -> tuple[str, list[str]]:
    """The message with each placeholder as a mark, and what each mark stands for as written."""
    written = _placeholders(message, pattern) if pattern is not None else None
    out: list[str] = []
    names: list[str] = []
    if written is None:
        pos = 0
        for m in _LOOSE.finditer(message):
            out += [message[pos : m.start()], f"{_OPEN}{len(names)}{_CLOSE}"]
            names.append(m.group(0))
            pos = m.end()
        out.append(message[pos:])
        return "".join(out), names
    for literal, value in written:
        out.append(literal)
        if value is not None:
            out.append(f"{_OPEN}{len(names)}{_CLOSE}")
            names.append(value)
    return "".join(out), names


def _placeholders(message: str, pattern: str) -> list[tuple[str, str | None]] | None:
    """The message split at its placeholders, as its pattern places them: (literal text, the
    placeholder written after it); None where the two do not line up."""
    segments = split_pattern(pattern)
    if PLACEHOLDER_GROUP not in pattern:
        return [(message, None)] if segments == [message] else None
    if not message.startswith(segments[0]):
        return None
    parts: list[tuple[str, str | None]] = []
    pos = len(segments[0])
    literal = segments[0]
    for n, following in enumerate(segments[1:], 1):
        last = n == len(segments) - 1
        end = _written_end(message, pos)
        if (
            end is None
            or not message.startswith(following, end)
            or (last and end + len(following) != len(message))
        ):
            if last:
                end = len(message) - len(following) if message.endswith(following) else -1
            else:
                end = message.find(following, pos + 1) if following else -1
            if end <= pos:
                return None
        parts.append((literal, message[pos:end]))
        literal = following
        pos = end + len(following)
    if pos != len(message):
        return None
    parts.append((literal, None))
    return parts


def _written_end(message: str, pos: int) -> int | None:
    """Where a placeholder written at ``pos`` (``{...}`` with nested braces, or ``%s``) ends."""
    if message.startswith("{", pos):
        depth = 0
        for i in range(pos, len(message)):
            if message[i] == "{":
                depth += 1
            elif message[i] == "}":
                depth -= 1
                if depth == 0:
                    return i + 1
        return None
    m = _PERCENT.match(message, pos)
    return m.end() if m else None


def _sentences(text: str) -> list[tuple[int, str, bool]]:
    """The sentences and ``;`` clauses of a message: (offset, text, whether it follows a ``;``
    or ``:`` in its sentence).  Text in backticks and abbreviations ("e.g.") end none."""
    out: list[tuple[int, str, bool]] = []
    start = 0
    clause = False
    in_code = False
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "`":
            in_code = not in_code
        elif not in_code and (ch == "\n" or (ch in ".!?;" and (i + 1 == n or text[i + 1].isspace()))):
            if ch == "." and (_abbreviation(text, i) or _ellipsis_within(text, i)):
                i += 1
                continue
            piece = text[start : i + (ch != "\n")]
            if piece.strip():
                out.append((start + len(piece) - len(piece.lstrip()), piece.strip(), clause))
            clause = ch == ";"
            start = i + 1
        i += 1
    piece = text[start:]
    if piece.strip():
        out.append((start + len(piece) - len(piece.lstrip()), piece.strip(), clause))
    return out


def _ellipsis_within(text: str, dot: int) -> bool:
    """``...`` standing for arguments inside a sentence (``target_mbs=... instead``)."""
    return text[max(0, dot - 2) : dot + 1] == "..." and bool(re.match(r"\s+[a-z]", text[dot + 1 :]))


def _abbreviation(text: str, dot: int) -> bool:
    word = re.search(r"([A-Za-z.]+)$", text[:dot])
    return word is not None and word.group(1).lower().rstrip(".") in _ABBREVIATIONS


# -- rules -------------------------------------------------------------------------------------

Writer = Callable[[re.Match[str], list[str]], str | None]


def _group(n: int, form: str = "{0}") -> Writer:
    def write(m: re.Match[str], _names: list[str]) -> str | None:
        return form.format(m.group(n).strip())

    return write


def _forgot(m: re.Match[str], _names: list[str]) -> str | None:
    verb, to, what = m.group(1).lower(), m.group(2), m.group(3).strip()
    if verb == "forget":
        return what if to else f"Add {what}"
    return what if to else f"Check whether you meant {what}"


def _instead(m: re.Match[str], _names: list[str]) -> str | None:
    rest = f" instead of {m.group(3).strip()}" if m.group(3) else " instead"
    return f"{m.group(1)} {m.group(2).strip()}{rest}"


def _choices(m: re.Match[str], names: list[str]) -> str | None:
    read = _subject(m.group(1))
    if read is None:
        return None
    condition, subject = read
    choices = _LISTS.sub(lambda x: "one of the values the message lists", f"one of {m.group(2).strip()}")
    text = f"use {choices} for {subject}"
    return f"{condition}, {text}" if condition else text


def _expected(m: re.Match[str], _names: list[str]) -> str | None:
    return f"Pass {m.group(1).strip()}"


def _suggestion(m: re.Match[str], _names: list[str]) -> str | None:
    what = m.group(1).strip()
    return f"do {what}" if what.lower().startswith("not ") else what


def _verb_kept(m: re.Match[str], _names: list[str]) -> str | None:
    return f"{m.group(1)} {m.group(2).strip()}"


def _not_empty(m: re.Match[str], _names: list[str]) -> str | None:
    read = _subject(m.group(1))
    if read is None:
        return None
    condition, subject = read
    verb = "are" if _plural(subject) else "is"
    value = m.group(2) if m.group(2) in ("None", "NULL") else m.group(2).lower()
    text = f"make sure {subject} {verb} not {value}"
    return f"{condition}, {text}" if condition else text


_CONJUGATED = {
    "be": ("is", "are"),
    "not be": ("is not", "are not"),
    "have": ("has", "have"),
    "contain": ("contains", "contain"),
    "match": ("matches", "match"),
    "include": ("includes", "include"),
    "start with": ("starts with", "start with"),
    "end with": ("ends with", "end with"),
    "return": ("returns", "return"),
    "define": ("defines", "define"),
    "implement": ("implements", "implement"),
    "accept": ("accepts", "accept"),
    "take": ("takes", "take"),
    "inherit from": ("inherits from", "inherit from"),
    "subclass": ("subclasses", "subclass"),
    "specify": ("specifies", "specify"),
    "provide": ("provides", "provide"),
}
#: What a caller is told not to do: "Cannot use X when Y" -> "Do not use X when Y".
_DONT = (
    "use|pass|set|specify|call|combine|mix|provide|apply|assign|modify|change|register|add|chain|nest|give|"
    "supply|access|index|instantiate|compare|subclass|override|mutate|reuse|enable|disable|select|define|"
    "declare|send|include|import|create|return"
)
#: "X cannot be used with Y" -> "Do not use X with Y": each participle and its verb.
_PARTICIPLES = {
    "used": "use", "passed": "pass", "set": "set", "specified": "specify", "called": "call",
    "combined": "combine", "mixed": "mix", "applied": "apply", "assigned": "assign", "modified": "modify",
    "changed": "change", "registered": "register", "added": "add", "chained": "chain", "nested": "nest",
    "given": "give", "accessed": "access", "indexed": "index", "instantiated": "instantiate",
    "compared": "compare", "subclassed": "subclass", "overridden": "override", "mutated": "mutate",
    "reused": "reuse", "returned": "return", "enabled": "enable", "disabled": "disable",
    "selected": "select", "defined": "define", "declared": "declare", "sent": "send",
    "included": "include", "imported": "import", "provided": "provide", "supplied": "supply",
}  # fmt: skip


def _cannot_be(m: re.Match[str], _names: list[str]) -> str | None:
    read = _subject(m.group(1))
    if read is None:
        return None
    condition, subject = read
    rest = _GOT.sub("", m.group(3) or "").strip().rstrip(",")
    text = f"do not {_PARTICIPLES[m.group(2).lower()]} {subject}{' ' + rest if rest else ''}"
    return f"{condition}, {text}" if condition else text


def _recommended(what: str) -> str:
    """What a message recommends, as an instruction: "We recommend removing X" -> "Consider
    removing X"; "we recommend `Y` instead" -> "Use `Y` instead"; "we recommend to use Y" -> "Use Y"."""
    first = what.split()[0] if what.split() else ""
    if first.endswith("ing") and first.isalpha():
        return f"Consider {what}"
    if re.fullmatch(_VERBS, first[:1].upper() + first[1:]):
        return what
    return f"Use {what}"


def _expects(m: re.Match[str], _names: list[str]) -> str | None:
    what = _GOT.sub("", m.group(2)).strip().rstrip(",")
    return f"pass {what} to {m.group(1)}" if what else None


def _required(m: re.Match[str], _names: list[str]) -> str | None:
    read = _subject(m.group(1))
    if read is None or read[0] is not None:
        return None
    subject, rest = read[1], (m.group(2) or "").strip()
    if re.search(r"[<>=]=?\s*\d|\b(?:module|package|library)\b", subject):
        return f"install {subject}"
    if re.match(r"(?:a|an)\s", subject, re.IGNORECASE) and _without_marks(subject) == subject:
        return f"pass {subject[:1].lower()}{subject[1:]}{' ' + rest if rest else ''}"
    return None


def _requirement(m: re.Match[str], _names: list[str]) -> str | None:
    return _requirement_of(m.group(1), m.group(3), m.group(4))


def _requirement_of(subject_text: str, verb: str, object_text: str) -> str | None:
    read = _subject(subject_text)
    if read is None:
        return None
    condition, subject = read
    single, plural = _CONJUGATED[" ".join(verb.lower().split())]
    rest = _GOT.sub("", object_text).strip().rstrip(",")
    if not rest:
        return None
    if not _plural(subject):  # "must be None or have shape [1]": each verb agrees
        rest = re.sub(r"\b(or|and) have\b", r"\1 has", rest)
    text = f"make sure {subject} {plural if _plural(subject) else single} {rest}"
    return f"{condition}, {text}" if condition else text


_SUBJECT = r"((?:`[^`\n]*`|\.(?=\w)|[^`.!?;:\n])+?)"
#: The end of a sentence: its full stop, never the last dot of a ``...`` it ends on.
_END = r"(?:(?<!\.\.)\.|!)?$"


def _rule(expression: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    return re.compile(expression, flags)


_RULES: tuple[tuple[str, re.Pattern[str], Writer], ...] = (
    # "please provide the model used ...", "please pass `x=`", "Please install foo"
    (
        "provide",
        # Any verb but those that give no advice ("please note", "please be aware").
        _rule(r"\bplease\s+((?!note\b|be\b|wait\b|ignore\b|refer to the\b)[a-z]+\b.*?)" + _END),
        _group(1),
    ),
    # "Did you forget to call `fabric.setup()`?" -> "Call `fabric.setup()`"
    ("forgot", _rule(r"\bdid you (forget|mean)( to)? (.+?)\?"), _forgot),
    # "... is deprecated, use `new_name` instead" -> "Use `new_name` instead"
    (
        "instead",
        _rule(r"\b(use|call|pass|set|try|do)\s+(.+?)\s+instead\b(?:\s+of\s+(.+?))?(?=,|" + _END + ")"),
        _instead,
    ),
    # "`mode` must be one of ['a', 'b']" -> "Use one of ['a', 'b'] for `mode`"
    (
        "choices",
        _rule(
            rf"^{_SUBJECT}\s+(?:must|should|has to|needs to|need to)\s+be\s+(?:one of|either of|any of|among)"
            r"\s*:?\s*(.+?)" + _END
        ),
        _choices,
    ),
    (
        "choices",
        _rule(
            r"\b(?:valid|supported|allowed|available|possible|accepted|known)\s+(?:values|options|choices|"
            r"modes|types|names|keys|arguments|formats|strategies|backends|methods)\s+(?:are|is|include)\s*:?"
            r"\s*(.+?)" + _END
        ),
        _group(1, "Use one of {0}"),
    ),
    (
        "choices",
        _rule(r"\bexpected one of\s*:?\s*(.+?)" + _END),
        lambda m, _n: "Use one of " + _GOT.sub("", m.group(1)).strip().rstrip(","),
    ),
    # "expected a str, got int" -> "Pass a str"
    (
        "expected",
        _rule(
            r"\bexpected:?\s+((?:a|an|the)\s.+?|`[^`]+`),?\s+(?:but\s+)?(?:got|received|found|instead got)"
            r"\s+(.+?)" + _END
        ),
        _expected,
    ),
    # "you can set `x` to ...", "you should call ..."
    (
        "suggestion",
        _rule(
            r"\byou (?:can|could|should|must|need to|may want to|might want to|have to|may need to|"
            r"might need to|will need to|probably want to)\s+(.+?)" + _END
        ),
        _suggestion,
    ),
    ("suggestion", _rule(r"(?:^|[,:]\s*)(try|consider)\s+(.+?)" + _END), _verb_kept),
    ("suggestion", _rule(r"\bmake sure (?:that )?(.+?)" + _END), _group(1, "Make sure {0}")),
    (
        "install",
        _rule(r"\b((?:pip|conda) install\s+[^\s`'\"]+(?:\s+[^\s`'\"]+)*?)(?=[`'\"]|[.;!]?\s|[.;!]?$)"),
        _group(1, "Run `{0}`"),
    ),
    # "`psutil` is not installed" -> "Install `psutil`"
    (
        "install",
        _rule(r"(`[\w.\[\]-]+`|'[\w.\[\]-]+'|\b[\w.-]+) (?:is|are) not installed"),
        _group(1, "Install {0}"),
    ),
    # "is only supported in torch >= 2.2" -> "Use it only in torch >= 2.2"
    (
        "requirement",
        _rule(
            r"\bonly (?:supported|available|possible|allowed|works?|valid|implemented) "
            r"(in|with|on|for|if|when|by|from|under|after|before) (.+?)" + _END
        ),
        lambda m, _n: f"Use it only {m.group(1)} {_GOT.sub('', m.group(2)).strip().rstrip(',')}",
    ),
    # "requires the spmd_types package to be installed" -> "Install the spmd_types package"
    (
        "install",
        _rule(
            r"\brequires? (?:the )?(`[\w.\[\]-]+`|'[\w.\[\]-]+'|[\w.-]+) (package|module|library)"
            r"(?: to be installed)?\b"
        ),
        lambda m, _n: f"Install the {m.group(1)} {m.group(2).lower()}",
    ),
    # "requires PyTorch 2.4 or higher" -> "Install PyTorch 2.4 or higher"
    (
        "install",
        _rule(r"\brequires? ([\w.-]+ ?(?:>=|>)? ?\d+(?:\.\d+)*(?: or (?:higher|newer|later|above))?)"),
        _group(1, "Install {0}"),
    ),
    # "We recommend `Fabric(strategy='ddp_spawn')` instead", "It is recommended that you rewrite ..."
    (
        "suggestion",
        _rule(r"\b(?:we|i) (?:strongly )?recommend (?:that you |to )?(.+?)" + _END),
        lambda m, _n: _recommended(m.group(1)),
    ),
    (
        "suggestion",
        _rule(r"\bit is (?:recommended|advised) (?:that you |to )?(.+?)" + _END),
        _group(1),
    ),
    # A sentence or clause that is itself an instruction: "Choose one or the other.", "HINT: do
    # `.launch(fn)`", "...; set the 'persisted' flag to None".
    (
        "instruction",
        re.compile(
            rf"^(?:(?:HINT|Hint|hint|TIP|Tip|tip|NOTE|Note|Suggestion|Solution|Fix)\s*:\s*)?((?i:{_VERBS})\b(?!\s+(?i:"
            + "|".join(sorted(_NOT_IMPERATIVE))
            + r")\b).+?)"
            + _END
        ),
        _group(1),
    ),
    (
        "instruction",
        re.compile(
            rf"\b(?:HINT|Hint|hint|TIP|Tip|tip|Suggestion|Solution|Fix)\s*:\s*((?i:{_VERBS})\b.+?)" + _END
        ),
        _group(1),
    ),
    # "Must pass right_on or right_index=True" -> "Pass right_on or right_index=True"
    (
        "instruction",
        _rule(
            r"^(?:you )?(?:must|should|need to|needs to|have to|has to)\s+((?!be\b|not\b|have\b)[a-z]+\b.+?)"
            + _END
        ),
        _group(1),
    ),
    # "Cannot use a callable replacement when regex=False" -> "Do not use ..."
    (
        "instruction",
        _rule(rf"^(?:you )?(?:cannot|can't|can not|must not|should not|may not)\s+((?:{_DONT})\b.+?)" + _END),
        _group(1, "Do not {0}"),
    ),
    # "Only one of `a` and `b` can be given" -> "Pass only one of `a` and `b`"
    (
        "instruction",
        _rule(
            r"^only one of (.+?) (?:can|may|should|must) be "
            r"(?:passed|given|specified|set|provided|used)\b(.*?)" + _END
        ),
        lambda m, _n: f"Pass only one of {m.group(1).strip()}{m.group(2).rstrip()}",
    ),
    # "`x` and `y` are mutually exclusive" -> "Pass only one of `x` and `y`"
    (
        "instruction",
        _rule(rf"^{_SUBJECT} are mutually exclusive\b" + r".*?" + _END),
        lambda m, _n: (
            f"Pass only one of {m.group(1).strip()}" if " and " in m.group(1) or "," in m.group(1) else None
        ),
    ),
    # "expect a list of futures, not {x}" -> "Pass a list of futures"
    (
        "expected",
        _rule(
            r"^expect(?:ed|s)?:? ((?:a|an)\s.+?)"
            r"(?:,?\s+(?:not|but got|got|but found|found|received|instead of)\b.*)?" + _END
        ),
        _group(1, "Pass {0}"),
    ),
    # "Specifying config in two places is ambiguous, use either X or Y" -> "Use either X or Y"
    (
        "instruction",
        _rule(
            r",\s*((?:use|pass|set|call|specify|provide|choose|select)\s+"
            r"(?:either|one of|only|a|an|the|`|'|\")"
            r"[^;]*?)" + _END
        ),
        _group(1),
    ),
    # "the XLAFSDPStrategy only supports `sum`, `mean` for the reduce operation, got: x" -> "Use only ..."
    (
        "requirement",
        _rule(
            r"\bonly supports? ((?:`[^`]+`(?:,?\s*(?:or|and)?\s*)?)+)"
            r"(?:\s+(for|with|in|as|on) ([^,]+?))?(?:,.*)?" + _END
        ),
        lambda m, _n: (
            f"Use only {m.group(1).strip().rstrip(',')}"
            + (f" {m.group(2)} {m.group(3).strip()}" if m.group(2) else "")
        ),
    ),
    # "`setup_dataloaders` requires at least one dataloader" -> "Pass at least one dataloader to ..."
    (
        "requirement",
        _rule(r"^(`[^`]+`|[\w.]+\(\)) requires ((?:at least|at most|exactly|a|an|one)\s.+?)" + _END),
        lambda m, _n: f"Pass {m.group(2).strip()} to {m.group(1)}",
    ),
    # "cat expects at least one tensor, but received zero" -> "Pass at least one tensor to cat"
    ("expected", _rule(r"^(`[^`]+`|[\w.]+(?:\(\))?) expects (.+?)" + _END), _expects),
    # "expected weight to be None or 1D tensor" -> "Make sure weight is None or 1D tensor"
    (
        "requirement",
        _rule(rf"^(?:[\w.()]+:?\s+)?expected {_SUBJECT} to (be|have) (.+?)" + _END),
        lambda m, n: _requirement_of(m.group(1), m.group(2), m.group(3)),
    ),
    # "A coroutine object is required" -> "Pass a coroutine object"; "pyarrow>=10 is required" -> install
    ("requirement", _rule(rf"^{_SUBJECT} (?:is|are) required\b(?! to)(.*?)" + _END), _required),
    # "`x` cannot be used with `y`" -> "Do not use `x` with `y`"
    (
        "requirement",
        _rule(
            rf"^{_SUBJECT} (?:cannot|can't|can not|must not|should not|may not) be "
            rf"({'|'.join(_PARTICIPLES)})\b(.*?)" + _END
        ),
        _cannot_be,
    ),
    # "bad value for 'compress': must be None, 'gzip' or 'xz'" -> "Make sure 'compress' is None, ..."
    (
        "requirement",
        _rule(
            r"^(?:an? )?(?:bad|invalid|unknown|unsupported|illegal|wrong) "
            r"(?:value|argument|option|setting)s? (?:for|of) ([^:]+?):\s*(?:it )?"
            r"(?:must|should|needs to|has to) (not be|be|have|contain|match) (.+?)" + _END
        ),
        lambda m, _n: _requirement_of(m.group(1), m.group(2), m.group(3)),
    ),
    # "The filename cannot be empty" -> "Make sure the filename is not empty"
    (
        "requirement",
        _rule(
            rf"^{_SUBJECT} (?:cannot|can't|must not|should not|may not) be "
            r"(empty|none|null|negative|zero|blank)\b"
        ),
        _not_empty,
    ),
    # "`batch_size` must be a positive integer" -> "Make sure `batch_size` is a positive integer"
    (
        "requirement",
        _rule(
            rf"^(?:[\w.()]+:\s+)?{_SUBJECT}\s+(must|should|needs to|need to|has to|have to)\s+"
            r"(not be|be|have|contain|match|include|start with|end with|return|define|implement|accept|take|"
            r"inherit from|subclass|specify|provide)\s+(.+?)" + _END
        ),
        _requirement,
    ),
)


# -- placeholders and grammar ------------------------------------------------------------------


def _subject(text: str) -> tuple[str | None, str] | None:
    """A sentence's subject as the object of "make sure": its placeholders left out where they
    only name it ("the column %r"), a leading condition kept apart ("If lengths are passed"),
    its first word lowered where it is a plain capitalised word; None where it is a pronoun,
    too long, or needs a placeholder."""
    text = text.strip()
    condition = None
    if _CONDITIONAL.match(text):
        head, comma, rest = _split_comma(text)
        if not comma:
            return None
        condition = _without_marks(head)
        if condition is None:
            return None
        condition = condition[:1].upper() + condition[1:]
        text = rest.strip()
    subject = _without_marks(text)
    if subject is None:
        return None
    subject = subject.strip().rstrip(",")
    named = _INVALID_VALUE.match(subject)
    if named is not None:  # "invalid value for result_type": the subject is result_type
        subject = named.group(1)
    if not subject or len(subject) > 80 or len(subject.split()) > 12:
        return None
    first = subject.split()[0]
    if first.lower() in _PRONOUNS and subject.lower() != "there":
        return None
    if re.fullmatch(r"[A-Z][a-z]+", first):  # "The filename", not "ZoneInfo" or "CUDA"
        subject = first.lower() + subject[len(first) :]
    return condition, subject


_INVALID_VALUE = re.compile(
    r"(?:an? )?(?:invalid|unknown|unsupported|unrecognized|bad|unexpected|illegal|wrong) "
    r"(?:value|argument|option|input|choice)s? (?:for|of) (.+)$",
    re.IGNORECASE,
)


def _split_comma(text: str) -> tuple[str, str, str]:
    in_code = False
    for i, ch in enumerate(text):
        if ch == "`":
            in_code = not in_code
        elif ch == "," and not in_code:
            return text[:i], ",", text[i + 1 :]
    return text, "", ""


def _without_marks(text: str) -> str | None:
    """Text with the placeholders that only name what it is about taken out (``argument %s``,
    ``the table '{name}'``, ``({len(x)})``); None where a placeholder is more than that."""
    text = re.sub(rf"\s*\(\s*{_M}\s*\)", "", text)
    text = re.sub(rf"(?<=[\w)\]'\"`])\s+(['\"`]?){_M}\1(?=[\s,]|$)", "", text)
    text = " ".join(text.split())
    return None if _MARK.search(text) else text


def _plural(subject: str) -> bool:
    """Whether a subject is plural, by its head noun (``Device IDs``, not ``the number of
    samples``); a subject in backticks is one name."""
    plain = re.sub(r"\([^)]*\)", "", subject)
    if re.fullmatch(r"\s*`[^`]*`\s*", plain):
        return False
    head = re.split(r"\s(?:of|for|in|with|from|to|on|passed|given|used|that|which)\s", plain, maxsplit=1)[0]
    head = re.sub(r"`[^`]*`", "x", head).strip()
    if re.search(r"\band\b", head):
        return True
    words = head.split()
    if not words:
        return False
    word = words[-1].strip("'\",")
    if "_" in word or any(ch.isdigit() for ch in word):
        return False  # a name (``post_processing_timeout_s``), one thing
    word = word.lower()
    return len(word) >= 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ias"))


def _resolved(text: str, names: list[str]) -> str | None:
    """Advice ready to show: its placeholders gone (see the module's docstring), cut-off
    endings refused, the first letter a capital."""
    if _MARK.search(text):
        if _GOT.search(text) and _MARK.search(_GOT.search(text).group(0)):  # type: ignore[union-attr]
            text = _GOT.sub("", text)
        text = re.sub(rf"\s*\([^()]*{_M}[^()]*\)", "", text)  # a parenthesis about the value given
        text = _OWN_CLASS.sub(
            lambda m: "" if names[int(m.group(1))].strip("{}") in _CLASS_NAMES else m.group(0), text
        )
        text = _LISTS.sub(lambda m: _list_words(m.group(1)), text)
        text = re.sub(rf"\s*:\s*['\"`]?{_M}['\"`]?\s*[.!]?$", "", text)
        text = re.sub(
            rf",?\s+(?:not|instead of)\s+['\"`]?{_M}['\"`]?\s*[.!]?$", "", text
        )  # "a list, not {x}"
        text = re.sub(rf"=\s*{_M}(?=[\s,.;!]|$)(?![^`]*`)", "", text)  # "min(m, n)={min(m, n)}": its value
        # A value the sentence ends on ("try opset version {v}"): the message shows it.
        ending = re.search(rf"(?<=\w)\s+['\"]?{_M}['\"]?([.!]?)$", text)
        coded = _in_code(text if ending is None else text[: ending.start()] + " …" + ending.group(1))
        if coded is None or _MARK.search(coded):
            return None
        text = coded
    text = " ".join(text.split()).strip().rstrip(",:;")
    if len(text.split()) < 2:
        return None  # a bare verb ("Remove."): the message says too little to act on
    last = text.rstrip(".!?").split()[-1].lower() if text.rstrip(".!?").split() else ""
    if last in _DANGLING or text.count("`") % 2:
        return None
    return text[:1].upper() + text[1:]


def _list_words(phrase: str) -> str:
    phrase = phrase.lower()
    if phrase.startswith(("among", "from")):
        return f"{phrase.split()[0]} the values the message lists"
    if phrase == "the following":
        return "the values the message lists"
    return "one of the values the message lists"


def _in_code(text: str) -> str | None:
    """Placeholders inside quoted code as ``…``, with a note that the message gives them; None
    where the code is nothing but a placeholder."""
    changed = False

    def span(m: re.Match[str]) -> str:
        nonlocal changed
        code = m.group(1)
        if not _MARK.search(code):
            return m.group(0)
        if not _MARK.sub("", code).strip(" '\"=.,()[]{}"):
            return m.group(0)  # nothing but the placeholder: left for the caller to refuse
        changed = True
        return "`" + _MARK.sub("…", code) + "`"

    text = re.sub(r"`([^`]*)`", span, text)
    if _MARK.search(text):
        return None
    if changed or re.search(r"\s…[.!]?$", text):
        end = text[-1] if text[-1:] in ".!?" else ""
        text = f"{text.rstrip('.!?')} (the message gives the value){end}"
    return text
