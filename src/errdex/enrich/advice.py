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
    rf"\b(one of|either of|any of(?: the following)?|among(?: the following)?|(?<=choose )from"
    rf"|(?<=select )from"
    rf"|from the following"
    rf"|the following)\s*:?\s*(?:[\[(]\s*)?`?{_M}`?(?:\s*[\])])?",
    re.IGNORECASE,
)
_VERBS = (
    "Pass|Choose|Use|Set|Call|Install|Provide|Specify|Check|Ensure|Remove|Add|Upgrade|Update|Rewrite|"
    "Switch|Run|Define|Reduce|Increase|Wrap|Move|Rename|Enable|Disable|Select|Contact|Restart|Reinstall|"
    "Downgrade|Change|Convert|Return|Implement|Override|Do|Try|Make|Avoid|Consider|Replace|Register|"
    "Initialize|Initialise|Import|Include|Configure|Create|Delete|Open|Close|Close|Upload|Report|Raise|"
    "Lower|Limit|Drop|Cast|Apply|Supply|Give|Put|Keep|Stop|Start|Migrate|Evaluate|Annotate|Declare|Leave|"
    "Unset|Decorate|Mark|Subclass|Extend|Split|Wait|Retry|Assign|Attach|Bind|Commit|Flush|Refresh|Mount|"
    "Unmount|Connect|Reconnect|Join|Exclude|Filter|Sort|Quote|Escape|Encode|Decode|Load|Save|Read|Write"
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
    named: str | None = None  # what the sentence before called invalid ("Invalid value for x=...")
    for start, sentence, clause in _sentences(marked):
        said = False
        sentence, named = _with_subject(sentence, named)
        for kind, rule, write in _RULES:
            if kind in _RESTATING and (said or found):
                continue  # a message that already says what to do needs no restating of its rule
            for m in rule.finditer(sentence):
                # An instruction in lower case only after a ``;``, or opening the message with a
                # verb that can only be an instruction there ("use the name attribute"); a
                # modal says it is one anywhere ("must supply a tuple ...").
                lower = kind == "instruction" and not clause and m.group(0)[:1].islower()
                modal = _MODAL.match(m.group(0)) is not None
                if lower and not modal and (start + m.start() != 0 or not _OPENING_VERB.match(m.group(0))):
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
    ordered = [a for _, a in sorted(found, key=lambda item: item[0])]
    return [a for a in ordered if not _said_more_fully(a, ordered)]


def _said_more_fully(item: Advice, found: list[Advice]) -> bool:
    """An install step another piece of advice gives in more words ("Install `rich`" beside
    "Install it by running `pip install -U rich`"); "use a valid X" beside any other advice, which
    says what a valid one is ("Allowed precision values: ...")."""
    if item.kind == "valid":
        return any(a.kind != "valid" for a in found)
    if item.kind != "install":
        return False
    named = re.findall(r"`([^`]+)`", item.text) or [item.text.split()[-1].strip("'\".")]
    return any(
        a is not item and len(a.text) > len(item.text) and all(name in a.text for name in named)
        for a in found
    )


#: Kinds that restate a message's rule or complaint as a fix: left out where the message says
#: what to do itself.
_RESTATING = frozenset({"requirement", "avoid", "deprecated", "valid"})
_MODAL = re.compile(
    r"(?:you )?(?:must|should|need to|needs to|have to|has to|cannot|can't|can not|may not)\s", re.IGNORECASE
)
#: A sentence that calls something invalid, and names it: "Invalid value for `x`", "invalid
#: short option '%s'", "You selected an invalid strategy name".
_CALLED_INVALID = re.compile(
    rf"(?:^|\s)(?:an? )?(?:invalid|bad|illegal|wrong|incorrect|unknown|unrecogni[sz]ed|unsupported) "
    rf"((?:value|argument|option|setting|type)s? "
    rf"(?:for|of) )?([\w`'\"][\w`'\" .-]*?)\s*(?:[:=(]|{_M}|$)",
    re.IGNORECASE,
)
_EXPECTED_ALONE = re.compile(r"^expected:? ([\w ,.\[\]-]+?)\.?$", re.IGNORECASE)
_IS_INVALID = re.compile(
    r"^((?:`[^`\n]*`|[^`.!?;:\n])+?)\s+(?:is|are) (?:invalid|not valid|not an? valid)\b",
    re.IGNORECASE,
)
#: A sentence that says what something must be without saying what: "Must be >= 0", "It must be".
_SUBJECTLESS = re.compile(
    r"^(?:it |this |which )?((?:must|should|has to|needs to|need to) (?:not )?(?:be|have)\b.*)$",
    re.IGNORECASE,
)


def _with_subject(sentence: str, named: str | None) -> tuple[str, str | None]:
    """A sentence that says what "it" must be, with the subject the sentence before called
    invalid in its place ("Invalid value for x={x}. Must be >= 0": "x must be >= 0"); and what
    this sentence calls invalid, for the next one."""
    subjectless = _SUBJECTLESS.match(sentence)
    if subjectless is not None and named is not None:
        sentence = f"{named} {subjectless.group(1)}"
    expected = _EXPECTED_ALONE.match(sentence)
    if expected is not None and named is not None:  # "Bad type for x: {t}. Expected bool."
        sentence = f"{named} must be {expected.group(1)}"
    m = _CALLED_INVALID.search(sentence)
    if m is None:
        after = _IS_INVALID.match(sentence)  # "The provided lr scheduler `x` is invalid."
        read = _subject(after.group(1)) if after is not None else None
        return sentence, read[1] if read is not None and read[0] is None and _plain_subject(read[1]) else None
    subject = m.group(2).strip().rstrip(".!")  # "Invalid mode. Has to be min or max"
    if m.group(1) is None and not subject.startswith(("`", "'", '"')):
        subject = f"the {subject}"  # "invalid short option": "the short option"
    return sentence, subject if _without_marks(subject) == subject and len(subject.split()) <= 5 else None


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


#: What a message lists the valid ones of: "Valid entries: ...", "Allowed precision values: ...".
_LISTED = (
    "values|options|choices|modes|types|names|keys|arguments|formats|strategies|backends|methods|entries|"
    "levels|operators|flavou?rs|algorithms|engines|units|kinds|schemes|protocols|encodings|dtypes|fields|"
    "attributes|parameters|columns|devices|accelerators|styles|directions|commands|actions|events|codecs|"
    "versions|hooks|callbacks|plugins|precisions"
)


def _listed(adjective: str, noun: str, listing: str) -> str | None:
    """The choices a message lists, as "use one of": the list itself where the message writes it
    out, "the valid X the message lists" where a placeholder stands in it ("auto, {names}")."""
    listing = _GOT.sub("", listing).strip()
    if not listing or listing.endswith(","):
        return None  # a list a line break cut: "None,\nint, float"
    if _MARK.search(listing):
        return f"Use one of the {adjective.lower()} {noun} the message lists"
    if not _balanced(listing):  # "(valid options are 'a', 'b')": the list without its bracket
        listing = listing.removesuffix(")").strip()
        if not _balanced(listing):
            return None
    return f"Use one of {listing}"


#: The kinds of value a message says it expected ("expected a 1D array", "string is expected").
_KIND = (
    r"(?:array|list|tuple|2-tuple|dict|dictionary|str|string|int|integer|float|bool|boolean|number|mapping|"
    r"sequence|iterable|callable|function|coroutine|bytes|DataFrame|Series|Index|tensor|argument)s?"
)


def _pass_kind(kind: str, where: str | None = None) -> str | None:
    """ "Pass <a kind>", with the article its number takes ("Pass bytes", "Pass an integer")."""
    kind = kind.strip()
    if _MARK.search(kind) or (where is not None and _MARK.search(where)):
        return None
    first = kind.split()[0]
    if re.fullmatch(r"[A-Z][a-z]+", first) and first not in ("DataFrame", "Series", "Index"):
        kind = first.lower() + kind[len(first) :]  # "Boolean array expected": "a boolean array"
    plural = kind.endswith("s") and not kind.endswith(("ss", "us"))
    article = "" if plural else ("an " if kind[:1].lower() in "aeiou" else "a ")
    return f"Pass {article}{kind}{' ' + where.strip() if where else ''}"


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
    "equal": ("equals", "equal"),
    "consist of": ("consists of", "consist of"),
    "consist only of": ("consists only of", "consist only of"),
    "refer to": ("refers to", "refer to"),
    "conform to": ("conforms to", "conform to"),
    "point to": ("points to", "point to"),
    "support": ("supports", "support"),
    "not have": ("does not have", "do not have"),
    "not contain": ("does not contain", "do not contain"),
    "subclass": ("subclasses", "subclass"),
    "specify": ("specifies", "specify"),
    "provide": ("provides", "provide"),
}
#: What a caller is told not to do: "Cannot use X when Y" -> "Do not use X when Y".
_DONT = (
    "use|pass|set|specify|call|combine|mix|provide|apply|assign|modify|change|register|add|chain|nest|give|"
    "supply|access|index|instantiate|compare|subclass|override|mutate|reuse|enable|disable|select|define|"
    "declare|send|include|import|create|return|perform|pickle|delete|inherit|overwrite|subtract|multiply|"
    "divide|join|merge|concatenate|append|align|broadcast|slice|round|prepare|subscript|run|enter|attach|"
    "schedule|mix|iterate|reshape|resize|sort|insert|drop|rename|reindex|cast|serialize|marshal|"
    "start|restart|reopen|reset|release|acquire|close|await|yield|unpack|instantiate|invert|negate|convert|"
    "cut|flag|parameterize|annotate|connect|modify|shift|repeat|reuse|wrap|decorate|subclass|mutate"
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
    "installed": "install", "loaded": "load", "initialized": "initialize", "initialised": "initialise",
    "configured": "configure", "opened": "open", "closed": "close", "started": "start",
    "created": "create", "placed": "place", "wrapped": "wrap", "decorated": "decorate",
    "awaited": "await", "implemented": "implement", "run": "run", "invoked": "invoke",
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


def _requirement_of(subject_text: str, verb: str, object_text: str, article: bool = False) -> str | None:
    """ "make sure <subject> <verb> <object>", the verb agreeing with the subject; ``article``
    puts "the" before a plain noun subject ("invalid short option": "the short option")."""
    named = _named_by_message(subject_text)
    # "%s must be an integer": "what the message names"; "field {f} needs": "the field the message names"
    read = _subject(named) if named not in (None, subject_text) else _subject(subject_text)
    if read is None:
        return None
    condition, subject = read
    if (
        article
        and re.fullmatch(r"[a-z][a-z -]*", subject)
        and not re.match(r"(?:a|an|the|this|that)\s", subject)
    ):
        subject = f"the {subject}"
    single, plural = _CONJUGATED[" ".join(verb.lower().split())]
    rest = _GOT.sub("", object_text).strip().rstrip(",")
    if not rest:
        return None
    if single == "is" and not _plural(subject) and rest.lower() in _JSON_TYPES:
        rest = _JSON_TYPES[rest.lower()]
    if not _plural(subject):  # "must be None or have shape [1]": each verb agrees
        rest = re.sub(r"\b(or|and) have\b", r"\1 has", rest)
    rest = re.sub(r"\b(or|and) be\b", rf"\1 {'are' if _plural(subject) else 'is'}", rest)
    text = f"make sure {subject} {plural if _plural(subject) else single} {rest}"
    return f"{condition}, {text}" if condition else text


#: JSON schema types as a message names them ("must be object"), as a noun phrase.
_JSON_TYPES = {
    "object": "an object", "string": "a string", "array": "an array", "boolean": "a boolean",
    "number": "a number", "integer": "an integer",
}  # fmt: skip


def _passive(m: re.Match[str], _names: list[str]) -> str | None:
    """ "X must be called with Y" as the instruction "Call X with Y"."""
    read = _subject(m.group(1))
    if read is None or re.match(_PREPOSITION, read[1], re.IGNORECASE) or not _plain_subject(read[1]):
        return None  # "With `def f(x)`, `y` should be provided": the subject is not what it opens with
    condition, subject = read
    rest = _GOT.sub("", m.group(3) or "").strip().rstrip(",")
    if re.match(r"(?:and|or) (?:be|must|should)\b|by\s", rest):
        return None  # "should be provided and be an int", "implemented by subclasses": said as a rule
    text = f"{_PARTICIPLES[m.group(2).lower()]} {subject}{' ' + rest if rest else ''}"
    return f"{condition}, {text}" if condition else text


def _objectless(subject_text: str, verb: str, rest: str = "") -> str | None:
    named = _named_by_message(subject_text)
    if named is None:
        return None
    read = _subject(named)
    if read is None or read[0] is not None or not _plain_subject(read[1]):
        return None
    subject = read[1]
    if _FIXED_CASE.match(subject):
        return None
    verb = verb.lower()
    rest = _GOT.sub("", rest).strip().rstrip(",")
    if rest and (_MARK.search(rest) or len(rest.split()) > 8 or _NOT_ONE_PHRASE.search(rest)):
        return None
    if (
        verb
        in (
            "contain",
            "have",
            "include",
            "equal",
            "conform to",
            "start with",
            "end with",
            "specify",
            "define",
            "provide",
        )
        and not rest
    ):
        return None  # "does not contain" what, the message does not say
    if _plural(subject):
        said = verb
    else:
        head, _, tail = verb.partition(" ")
        head = {"have": "has", "specify": "specifies"}.get(
            head, head + ("es" if head.endswith(("ch", "sh")) else "s")
        )
        said = f"{head} {tail}".strip() if head != "has" else "has"
    return f"make sure {subject} {said}{' ' + rest if rest else ''}"


#: What "X is not ..." says that no "make sure X is ..." can fix, or that other rules say better.
_NOT_A_STATE = (
    r"(?:yet |currently )?(?:supported|allowed|permitted|implemented|available|possible|found|installed|"
    r"known|recognized|recognised|understood|a known|an? (?:valid|supported|recognized|known)|in\b|"
    r"defined|registered|present|callable|iterable|the same|equal|compatible|"
    r"valid|set up|running|started|empty|None|null|zero|ready|open|closed|done|finished|bound|attached|"
    r"one of|of|from|for|at|to|on|with|by|part of|able|allowed|needed|necessary|required|useful|"
    r"\S+ed\b)"
)
_COMPARATIVE = {
    "large": "a smaller", "big": "a smaller", "long": "a shorter", "small": "a larger", "short": "a longer",
    "deep": "a shallower", "high": "a lower", "low": "a higher", "many": "fewer", "few": "more",
}  # fmt: skip


#: A state that is more than one: a clause of its own ("a file name and encoding is specified"),
#: a negation, or words in capitals the message shouts (a garbled message).
_NOT_A_PLAIN_STATE = re.compile(
    r"\b(?:not|no|never|is|are|was|were|has|have|because|when|if|while|since|so)\b|\b[A-Z]{3,}\b(?![`'\"])"
)


#: States a value a caller passes can be made to have, whatever it is.
#: A case that is what it is ("the null graph", "empty Graph"): no "make sure" changes it.
_FIXED_CASE = re.compile(r"(?:(?:the|an?) )?(?:empty|null)\b", re.IGNORECASE)
_VALUE_STATE = re.compile(
    r"(?:all )?(?:unique|sorted|monotonic|equal|disjoint|hashable|numeric|finite|positive|non-negative|"
    r"integers?|strings?|aligned|consistent|contiguous|the same length|of the same length)"
)


def _named_by_message(text: str) -> str | None:
    """A subject whose one placeholder names it ("Column {name}", "The column '%s'") as the
    thing the message names ("the column the message names"); the text itself without a
    placeholder; None where a placeholder stands anywhere else ("The {weight} field")."""
    marks = _MARK.findall(text)
    if not marks:
        return text
    if re.fullmatch(rf"(['\"`]?){_M}\1", text.strip()):
        return "what the message names"
    m = re.fullmatch(rf"((?:the |a |an )?[A-Za-z][\w -]*?)\s+(['\"`]?){_M}\2", text.strip(), re.IGNORECASE)
    if (
        m is None
        or len(marks) != 1
        or re.search(
            rf"\s(?:of|inside|within|into|onto|about|over|under|between|around|through|{_PREPOSITION})$",
            m.group(1),
            re.IGNORECASE,
        )
    ):
        return None  # "attributes of {self}": the placeholder is what the phrase is about
    noun = re.sub(r"^(?:the|a|an)\s+", "", m.group(1), flags=re.IGNORECASE)
    return (
        f"the {noun[:1].lower() + noun[1:] if re.fullmatch(r'[A-Z][a-z]+', noun.split()[0]) else noun}"
        " the message names"
    )


def _required_for(subject_text: str, preposition: str, what: str) -> str | None:
    if _MARK.search(subject_text) or re.search(r"[<>=]=?\s*\d|\b(?:module|package|library)\b", subject_text):
        return None  # "pyarrow>=10 is required for ...": an install, said by its own rule
    read = _subject(subject_text)
    listed = read is not None and re.fullmatch(r"[^,]+(?:, [^,]+)* (?:or|and) [^,]+", read[1]) is not None
    if read is None or read[0] is not None or not (listed or _plain_subject(read[1])):
        return None  # ".csv, .yml or .yaml": a list is one subject
    rest = _GOT.sub("", what).strip().rstrip(",")
    return f"use {read[1]} {preposition} {rest}" if rest else None


def _attempted(verb: str, rest: str) -> str | None:
    """ "Trying to redefine primary-key column '%s' as ..." as "Do not redefine primary-key column
    ... as ...": what the caller's code tried, where the verb is something a caller does."""
    if _MARK.search(rest.split()[0] if rest.split() else ""):
        return None  # "to start {action}": what it tried, only the message says
    text = _without_marks(f"{verb} {_GOT.sub('', rest).strip().rstrip(',')}")
    if text is None or re.search(r"\b(?:however|but)\b", text) or _NOT_ONE_PHRASE.search(text):
        return None
    return f"Do not {text}"


def _after_closed(subject_text: str, state: str) -> str | None:
    read = _subject(subject_text)
    if read is None or read[0] is not None or not _plain_subject(read[1]):
        return None
    subject = read[1]
    verb = "are" if _plural(subject) else "is"
    done = {"shut down": "has shut down" if verb == "is" else "have shut down"}.get(state, f"{verb} {state}")
    return (
        f"do not use {subject} after it {done}" if verb == "is" else f"do not use {subject} after they {done}"
    )


def _incompatible(subject_text: str, other: str | None) -> str | None:
    if _MARK.search(subject_text):
        return None
    read = _subject(subject_text)
    if read is None or read[0] is not None or not _plain_subject(read[1]):
        return None
    subject = read[1]
    if other:
        other = _GOT.sub("", other).strip().rstrip(",")
        return f"do not use {subject} with {other}" if other and not _MARK.search(other) else None
    return f"do not use {subject} together" if re.search(r"\band\b", subject) else None


def _too(subject_text: str, word: str) -> str | None:
    read = _subject(subject_text)
    if read is None or read[0] is not None or not _plain_subject(read[1]):
        return None
    subject = re.sub(r"^(?:the|a|an|this|that)\s+", "", read[1], flags=re.IGNORECASE)
    if len(subject.split()) > 4:
        return None
    comparative = _COMPARATIVE[word.lower()]
    if _plural(subject):
        comparative = comparative.removeprefix("a ")
    return f"use {comparative} {subject}"


def _is_not(subject_text: str, state: str) -> str | None:
    named = _named_by_message(subject_text)
    if named is None:
        return None
    subject_text = named
    if _NOT_ONE_PHRASE.search(subject_text) or re.search(r"\bbecause\b", subject_text):
        return None
    read = _subject(subject_text)
    if read is None or not _plain_subject(read[1]) or len(read[1].split()) > 8:
        return None
    condition, subject = read
    if _FIXED_CASE.match(subject):
        return None
    if subject.lower() in ("there", "this", "that", "it") or re.match(
        r"(?:is|are|was|were)\b", subject, re.I
    ):
        return None
    bare = not re.match(
        r"(?:the|this|that|these|those|input|provided|given|passed|your)\b|[`'\"]", subject, re.I
    )
    if bare and _plural(subject) and not _VALUE_STATE.fullmatch(state.strip().lower()):
        return None  # "abstract nodes are not instantiable": a rule of the library, not a value to change
    state = _GOT.sub("", state).strip().rstrip(",")
    if not state or len(state.split()) > 8 or _MARK.search(state) or _NOT_A_PLAIN_STATE.search(state):
        return None
    text = f"make sure {subject} {'are' if _plural(subject) else 'is'} {state}"
    return f"{condition}, {text}" if condition else text


def _not_given(subject_text: str, participle: str, rest: str | None) -> str | None:
    """ "X not specified" as "Specify X": what the caller left out, in the message's own verb."""
    if _MARK.search(subject_text):
        return None
    read = _subject(subject_text)
    if read is None or read[0] is not None or not _plain_subject(read[1]) or _NOT_ONE_PHRASE.search(read[1]):
        return None
    subject = read[1]
    if re.match(r"(?:no|none|nothing|neither|either|both|each|every|all|any)\b", subject, re.I):
        return None
    if rest and _MARK.search(rest):
        return None
    return f"{_PARTICIPLES[participle.lower()]} {subject}{' ' + rest.strip() if rest else ''}"


#: What "use a valid X" says nothing about: a word that names no kind of value ("Invalid value:
#: {v}"), or a part of a file's own format no caller writes ("bad magic number: {m}").
_NOT_A_KIND = re.compile(
    r"(?:(?:the|an?) )?(?:values?|arguments?|inputs?|data|objects?|items?|types?|calls?|operations?|states?|"
    r"combinations?|entry|entries|things?|use|syntax|specification|description)"
    r"|.*\b(?:magic|checksum|crc|offset|header|signature|token|opcode|internal|central directory|characters?|"
    r"chars?|when|while|"
    r"if|unless)\b.*",
    re.IGNORECASE,
)


def _valid(what: str, opening: bool = False) -> str | None:
    """ "Use a valid X" for a message that calls the value it shows an invalid X: the kind it names
    is the fix's own; None where it names no kind, or where a placeholder stands in it.  ``opening``:
    the kind opens the message, so a capital there is the sentence's ("Precision {p} is invalid")."""
    what = re.sub(r"^(?:the|an?)\s+", "", what.strip(), flags=re.IGNORECASE)
    # "Invalid day specified for weekly rollover", "Specified path": the kind, not how it came
    what = re.sub(r"(?:^|\s)(?:specified|given|passed|provided|supplied)\b", "", what, flags=re.I).strip()
    if (
        not what
        or _MARK.search(what)
        or len(what.split()) > 5
        or _NOT_A_KIND.fullmatch(what)
        or _NOT_ONE_PHRASE.search(what)
        or not _balanced(what)
        or re.search(rf"\s{_PREPOSITION}$|\s(?:of|in)$", what)
    ):
        return None
    first = what.split()[0]
    if opening and re.fullmatch(r"[A-Z][a-z]+", first):
        what = first.lower() + what[len(first) :]  # "Precision {p} is invalid": "a valid precision"
    if _plural(what) and len(what.split()) == 1:
        return None  # "invalid errors: %r", "Invalid events": a parameter's name, not a kind
    return f"Use {'valid' if _plural(what) else 'a valid'} {what}"


def _passive_only(m: re.Match[str], _names: list[str]) -> str | None:
    """ "X can only be passed if Y" as "Pass X only if Y"."""
    if _MARK.search(m.group(1)):
        return None
    read = _subject(m.group(1))
    if read is None or read[0] is not None or not _plain_subject(read[1]):
        return None
    rest = _GOT.sub("", m.group(3) or "").strip().rstrip(",")
    if not rest or re.match(r"by\s", rest):
        return None
    return f"{_PARTICIPLES[m.group(2).lower()]} {read[1]} only {rest}"


def _can_only(subject_text: str | None, verb: str, rest: str) -> str | None:
    rest = _GOT.sub("", rest).strip().rstrip(",")
    if not rest or _MARK.search(rest) or verb in ("be", "happen", "occur", "exist") or verb.endswith("ed"):
        return None
    if subject_text is None:
        return f"{verb} only {rest}"
    read = _subject(subject_text)
    if read is None or read[0] is not None or not _plain_subject(read[1]):
        return None
    subject = read[1]
    said = (
        verb
        if _plural(subject)
        else {"have": "has"}.get(verb, verb + ("es" if verb.endswith(("ch", "sh", "s")) else "s"))
    )
    return f"make sure {subject} {said} only {rest}"


def _only(what: str, word: str, rest: str) -> str | None:
    rest = _GOT.sub("", rest).strip().rstrip(",")
    if _MARK.search(what) or len(what.split()) > 12:
        return None
    verb = "Use"
    passed = re.match(rf"to be ({'|'.join(_PARTICIPLES)})\b\s*", rest)
    if passed is not None:  # "only X are allowed to be passed to f()": "Pass only X to f()"
        verb, rest = _PARTICIPLES[passed.group(1)].capitalize(), rest[passed.end() :]
    elif word.lower() == "valid" and re.match(r"[a-z]", rest) and not re.match(_PREPOSITION, rest):
        rest = f"as {rest}"  # "only integers ... are valid indices": "as indices"
    return f"{verb} only {what.strip()}{' ' + rest if rest else ''}"


#: What a complaint's object may be: a short noun phrase or code, no placeholder but one the
#: message's reader sees in its own text (``_resolved`` decides).
_LONGEST_OBJECT = 12


_PREPOSITION = r"(?:with|when|for|in|on|at|by|from|to|if|after|before|during|while|without)\b"


def _plain_subject(subject: str) -> bool:
    """Whether a subject is one noun phrase an instruction can act on: no clause after a comma, no
    unbalanced bracket, not "the latter", not a verb ("Be aware that ...")."""
    if _split_comma(subject)[1] or not _balanced(subject):
        return False
    opening = r"(?:the )?(?:latter|former|above|following)\b|(?:be|note|please|or|and|but|nor)\b"
    return not re.match(opening, subject, re.IGNORECASE)


def _balanced(text: str) -> bool:
    depth = 0
    for ch in re.sub(r"`[^`]*`", "", text):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


#: A single word that says how something is, not what it is ("ambiguous is not supported": the
#: name of an argument, said as an adjective): no object to avoid.
_ADJECTIVE = re.compile(r"[a-z]+(?:ous|ent|ant|ive|al|ic|able|ible|ary|less)")


def _first_clause(text: str) -> str:
    """Text up to its first comma outside backticks and brackets: "sharding, so you may run out"
    -> "sharding"."""
    depth = 0
    in_code = False
    for i, ch in enumerate(text):
        if ch == "`":
            in_code = not in_code
        elif not in_code:
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
            if ch == "," and depth == 0:
                return text[:i]
    return text


#: A clause, a link or a dash inside what a complaint is about: more than one noun phrase.
_NOT_ONE_PHRASE = re.compile(
    r"\s-\s|https?:|[:;]|\bto be\b|\b(?:which|that|who|is|are|was|were|does|forces|has|have|because|should|"
    r"must|can|cannot|will|would|may)\b"
)


def _avoid_with(what: str, subject_text: str) -> str | None:
    what = re.sub(r"\s+yet$", "", _first_clause(_GOT.sub("", what)).strip().rstrip(",;"))
    if not what or len(what.split()) > _LONGEST_OBJECT or _MARK.search(what) or _NOT_ONE_PHRASE.search(what):
        return None
    subject_text = re.sub(r"^(?:currently|now|yet)\s+", "", subject_text.strip(), flags=re.IGNORECASE)
    named = _named_by_message(subject_text)  # "Dialect '%s'": "the dialect the message names"
    if named is None or re.search(r",|\s-\s", named) or _NOT_ONE_PHRASE.search(named):
        return None  # what does not support it, the message alone says
    subject_text = named
    # "does not support to clip gradients": a verb, "do not clip gradients", not "avoid to clip".
    verb = "do not" if what.lower().startswith("to ") else "avoid"
    what = what[3:] if verb == "do not" else what
    read = _subject(subject_text)
    if read is None:
        return f"{verb.capitalize()} {what}"
    condition, subject = read
    text = f"{verb} {what} {'when using' if ' with ' in what else 'with'} {subject}"
    return f"{condition}, {text}" if condition else text


def _avoid(subject_text: str, rest: str) -> str | None:
    named = _named_by_message(subject_text)  # "method %s": "the method the message names"
    if named is None or re.search(r",|\s-\s|^(?:cannot|can't|unable)\b", named, re.I):
        return None
    subject_text = named
    read = _subject(subject_text)
    if read is None or len(read[1].split()) > _LONGEST_OBJECT or not _plain_subject(read[1]):
        return None
    condition, subject = read
    if _ADJECTIVE.fullmatch(subject):
        return None
    rest = _first_clause(_GOT.sub("", rest)).strip().rstrip(",")
    if _NOT_ONE_PHRASE.search(subject) or _NOT_ONE_PHRASE.search(rest):
        return None
    if rest and not re.match(r"(?:in|for|with|on|by|when|if|as|inside|within|under|at|yet)\b", rest):
        return None  # "... is not supported, and ..." : more than where
    rest = re.sub(r"^by\b", "with", rest)
    rest = "" if rest == "yet" else rest
    if subject != "what the message names":  # "cumsum is not supported for {dtype} dtype"
        rest = re.sub(
            rf"^(for|with|on|in) ['\"`]?{_M}['\"`]? ([a-z]+)$", r"\1 the \2 the message names", rest
        )
    text = f"avoid {subject}{' ' + rest if rest else ''}"
    return f"{condition}, {text}" if condition else text


def _stop_using(subject_text: str) -> str | None:
    if _MARK.search(subject_text):
        return None  # "Use of keyword argument `{old}`": which one, only the message says
    read = _subject(subject_text)
    if read is None or read[0] is not None or not _plain_subject(read[1]):
        return None
    subject = read[1]
    first = subject.split()[0]
    if re.match(r"(?:the )?(?:use|usage|using) of\b", subject, re.IGNORECASE):
        subject = re.sub(r"^(?:the )?(?:use|usage|using) of\s+", "", subject, flags=re.IGNORECASE)
    elif re.search(r"\bbehaviou?r\b|^the default\b", subject, re.IGNORECASE):
        return f"stop relying on {subject}"
    elif re.match(r"support for\s", subject, re.IGNORECASE):
        subject = subject[len("support for ") :]
    elif (
        re.fullmatch(r"[a-z]+ing", first)
        and len(subject.split()) > 1
        and not first.endswith(("ring", "thing"))
    ):
        return f"stop {subject}"  # "Creating a LegacyVersion"
    return f"stop using {subject}"


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
    # "Valid isolation levels for {name} are {levels}" -> "Use one of the valid isolation levels the
    # message lists"; "Valid values are: a, b" -> "Use one of a, b"
    (
        "choices",
        _rule(
            rf"(?:^|[,(]\s*|\bthe (?:only )?)(valid|supported|allowed|available|possible|accepted|known)\s+"
            rf"((?:[a-z][\w-]* ){{0,2}}"
            rf"(?:{_LISTED}))(?:\s+for\s+[^:]*?)?\s*(?:(?:are|is|include)\s*:?|:)\s*(.+?)" + _END
        ),
        lambda m, _n: _listed(m.group(1), m.group(2), m.group(3)),
    ),
    # "invalid choice: %(value)r (choose from %(choices)s)" -> "Use one of the choices the message lists"
    (
        "choices",
        _rule(rf"\((?:choices|choose from|valid choices)\s*:?\s*{_M}\s*\)"),
        lambda m, _n: "Use one of the choices the message lists",
    ),
    (
        "choices",
        _rule(r"\bexpect(?:ed|ing) one of\s*:?\s*(.+?)" + _END),
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
        # Its options, then what it installs: "pip install -U rich", never "pip install -U".
        _rule(
            r"\b((?:pip|conda) install(?:\s+-[^\s`'\"]+)*\s+(?!-)[^\s`'\"]+?)(?=[`'\"]|[.;!,]?\s|[.;!,]?$)"
        ),
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
            r"\brequires? (?:the )?(?:\(missing\) )?(`[\w.\[\]-]+`|'[\w.\[\]-]+'|[\w.-]+) "
            r"(package|module|library)(?: to be installed)?\b"
        ),
        lambda m, _n: f"Install the {m.group(1)} {m.group(2).lower()}",
    ),
    # "`RichModelSummary` requires `rich` to be installed" -> "Install `rich`"
    (
        "install",
        _rule(r"\brequires? (`[\w.\[\]-]+`|'[\w.\[\]-]+') to be installed\b"),
        _group(1, "Install {0}"),
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
            r"^(?:you )?(?:must|should|need to|needs to|have to|has to)\s+"
            r"((?!be\b|not\b|have\b|never\b|only\b)"
            r"[a-z]+\b.+?)" + _END
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
    # "we only support format version (1,0), (2,0), and (3,0), not %s" -> "Use only format version ..."
    (
        "requirement",
        _rule(r"^(?:we|it|this|\w+) (?:currently )?only supports? ((?!`)[^;]+?)" + _END),
        lambda m, _n: _only(re.sub(r",?\s+(?:not|but not|got)\b.*$", "", m.group(1)), "", ""),
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
        _rule(
            r"^(`[^`]+`|[\w.]+\(\)|(?:the )?[\w./ -]{1,40}?(?:option|argument|command|function|method)|"
            r"(?!(?:it|this|that|which)\b)[a-z_][\w.]*) "
            r"requires ((?:at least|at most|exactly|a|an|one|\d+)\s.+?)" + _END
        ),
        lambda m, _n: (
            None
            if re.search(r"\b(?:when|if|unless|while|because|but)\b", m.group(2))
            else f"Pass {m.group(2).strip()} to {m.group(1)}"
        ),
    ),
    # "cat expects at least one tensor, but received zero" -> "Pass at least one tensor to cat"
    ("expected", _rule(r"^(`[^`]+`|[\w.]+(?:\(\))?) expects (.+?)" + _END), _expects),
    # "expected weight to be None or 1D tensor" -> "Make sure weight is None or 1D tensor"
    (
        "requirement",
        _rule(rf"^(?:[\w.()]+:?\s+)?expected {_SUBJECT} to (be|have) (.+?)" + _END),
        lambda m, n: _requirement_of(m.group(1), m.group(2), m.group(3)),
    ),
    # ".csv, .yml or .yaml is required for `hparams_file`" -> "Use .csv, .yml or .yaml for `hparams_file`"
    (
        "requirement",
        _rule(rf"^{_SUBJECT} (?:is|are) required (for|by|in|with|as) (.+?)" + _END),
        lambda m, _n: _required_for(m.group(1), m.group(2), m.group(3)),
    ),
    # "This result object is closed" -> "Do not use this result object after it is closed"
    (
        "requirement",
        _rule(
            rf"^{_SUBJECT} (?:is|are|was|were|has been|have been|has|have) "
            r"(closed|shut down|detached|disposed)\b"
        ),
        lambda m, _n: _after_closed(m.group(1), m.group(2)),
    ),
    # "AMP and the LBFGS optimizer are not compatible" -> "Do not use AMP and the LBFGS optimizer together"
    (
        "requirement",
        _rule(rf"^{_SUBJECT} (?:is|are) (?:not compatible|incompatible)(?: with (.+?))?" + _END),
        lambda m, _n: _incompatible(m.group(1), m.group(2)),
    ),
    # "Range too big" -> "Use a smaller range"
    (
        "requirement",
        _rule(
            rf"^{_SUBJECT}\s+(?:is |are |was |were )?too "
            r"(large|big|long|small|short|deep|high|low|many|few)\b"
        ),
        lambda m, _n: _too(m.group(1), m.group(2)),
    ),
    # "correlation requires that both inputs have same number of data points" -> "Make sure both ..."
    (
        "requirement",
        _rule(r"\brequires? that (.+?)" + _END),
        lambda m, _n: None if _MARK.search(m.group(1)) else f"Make sure {m.group(1).strip()}",
    ),
    # "Python 3.5 or later is required" -> "Use Python 3.5 or later"
    (
        "requirement",
        _rule(
            r"^([A-Za-z][\w.-]* \d+(?:\.\d+)*(?: or (?:later|newer|higher|above))?) (?:is|are) required"
            + _END
        ),
        _group(1, "Use {0}"),
    ),
    # "Can only compare identically-labeled Series objects" -> "Compare only identically-labeled ..."
    (
        "requirement",
        _rule(rf"^(?:{_SUBJECT}\s+)?(?:can|may) only ((?!be\b)[a-z]+) (.+?)" + _END),
        lambda m, _n: _can_only(m.group(1), m.group(2), m.group(3)),
    ),
    # "compress_rows works for 2D arrays only" -> "Use compress_rows only for 2D arrays"
    (
        "requirement",
        _rule(rf"^{_SUBJECT}\s+(?:only )?works? (for|with|on|in) (.+?) only" + _END),
        lambda m, _n: (
            None
            if _MARK.search(m.group(1) + m.group(3))
            else f"Use {m.group(1)} only {m.group(2)} {m.group(3)}"
        ),
    ),
    # "chunksize can only be passed if lines=True" -> "Pass chunksize only if lines=True"
    (
        "requirement",
        _rule(rf"^{_SUBJECT}\s+(?:can|may) (?:only be|be only) ({'|'.join(_PARTICIPLES)})\b(.*?)" + _END),
        _passive_only,
    ),
    # "Expected 1D or 2D array, got %dD array instead" -> "Pass a 1D or 2D array"
    (
        "expected",
        _rule(
            rf"^expected ((?:[\w-]+ )?(?:or [\w-]+ )?{_KIND}),?\s+(?:but\s+)?(?:got|received|found)\b.*?"
            + _END
        ),
        lambda m, _n: _pass_kind(m.group(1)),
    ),
    # "integer argument expected, got float", "2-tuple expected for range/rows" -> "Pass an integer
    # argument", "Pass a 2-tuple for range/rows"
    (
        "expected",
        _rule(
            rf"^(?:an? )?((?:[\w-]+ )?(?:(?:[\w-]+ )?or (?:an? )?)?{_KIND}) "
            r"(?:is |was |are |were )?expected\b"
            r"(?:\s+((?:for|as|when|in) [^,;]+?))?(?:,?\s+(?:not|got|but got|but|instead of)\b.*)?" + _END
        ),
        lambda m, _n: _pass_kind(m.group(1), m.group(2)),
    ),
    # "Trying to redefine primary-key column 'x' as ..." -> "Do not redefine primary-key column as ..."
    (
        "instruction",
        _rule(
            rf"^(?:trying|attempting|attempted|tried|an attempt was made) to ((?:{_DONT}|redefine)\b)(.+?)"
            + _END
        ),
        lambda m, _n: _attempted(m.group(1), m.group(2)),
    ),
    # "expected ']' at end of domain-literal but found '{value}'" -> "Make sure the input has ']' at ..."
    (
        "expected",
        _rule(r"^expected ('[^'\s]{1,3}'|\"[^\"\s]{1,3}\") ([^']+?)\s+but found\b.*?" + _END),
        lambda m, _n: (
            None if _MARK.search(m.group(2)) else f"Make sure the input has {m.group(1)} {m.group(2)}"
        ),
    ),
    # "not a gzip file" -> "Use a gzip file"
    (
        "requirement",
        _rule(r"^not (an? [\w-]+(?: [\w-]+){0,3})" + _END),
        _group(1, "Use {0}"),
    ),
    # "{source} needs field {d} to be of type `Literal`" -> "Make sure the field ... is of type `Literal`"
    (
        "requirement",
        _rule(rf"^{_SUBJECT}\s+needs? {_SUBJECT} to (be|have) (.+?)" + _END),
        lambda m, _n: _requirement_of(m.group(2), m.group(3), m.group(4)),
    ),
    # "Duplicate axes given" -> "Do not pass duplicate axes"
    (
        "requirement",
        _rule(r"^duplicate ([\w -]+?) (?:given|passed|specified|provided)" + _END),
        _group(1, "Do not pass duplicate {0}"),
    ),
    # "expected deg >= 0" -> "Make sure deg >= 0"
    (
        "requirement",
        _rule(r"^expected ([\w.()\[\]]+ (?:>=|<=|>|<|==|!=) [\w.()\[\]'\"-]+)" + _END),
        _group(1, "Make sure {0}"),
    ),
    # "Ellipses lengths do not match" -> "Make sure ellipses lengths match"
    (
        "requirement",
        _rule(
            rf"(?:^|\bbut\s+){_SUBJECT}\s+(?:does|do|did) not "
            r"(match|agree|align|contain|have|start with|end with|"
            r"exist|conform to|include|equal|specify|define|provide)\b(.*?)" + _END
        ),
        lambda m, _n: _objectless(m.group(1), m.group(2), m.group(3)),
    ),
    # "{obj}.__annotations__ is neither a dict nor None" -> "Make sure ... is a dict or None"
    (
        "requirement",
        _rule(rf"^{_SUBJECT}\s+(is|are) neither (.+?) nor (.+?)" + _END),
        lambda m, _n: (
            None
            if _MARK.search(m.group(4)) or re.search(r",\s*nor\b", m.group(4))
            else _requirement_of(m.group(1), "be", f"{m.group(3)} or {m.group(4)}")
        ),
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
    # "invalid short option '%s': must a single character or None" -> "Make sure the short option
    # is a single character or None"
    (
        "requirement",
        _rule(
            r"^(?:an? )?(?:bad|invalid|illegal|wrong|incorrect) (?!(?:value|argument|option|setting)s? "
            r"(?:for|of)\b)([^:]+?):\s*(?:it )?(?:must|should|needs to|has to) "
            r"(?:(not be|be|have|contain|match) |(?=(?:a|an|the) ))(.+?)" + _END
        ),
        lambda m, _n: _requirement_of(m.group(1), m.group(2) or "be", m.group(3), article=True),
    ),
    # "RangeIndex(...) must be called with integers" -> "Call RangeIndex(...) with integers"
    (
        "requirement",
        _rule(
            rf"^{_SUBJECT}\s+(?:must|should|needs to|need to|has to|have to)\s+(?:always |first )?be\s+"
            rf"({'|'.join(_PARTICIPLES)})\b(.*?)" + _END
        ),
        _passive,
    ),
    # "Shapes must match" -> "Make sure the shapes match"
    (
        "requirement",
        _rule(rf"^{_SUBJECT}\s+(?:must|should|need to|needs to|have to|has to)\s+(match|agree|exist)" + _END),
        lambda m, _n: _objectless(m.group(1), m.group(2)),
    ),
    # "Only a single dictionary or list of tuples is accepted positionally" -> "Use only ..."
    (
        "requirement",
        _rule(
            r"^only (.+?) (?:is|are|can be|may be) (accepted|allowed|supported|permitted|valid)\b(.*?)" + _END
        ),
        lambda m, _n: _only(m.group(1), m.group(2), m.group(3)),
    ),
    # "the 'c' engine does not support skipfooter" -> "Avoid skipfooter with the 'c' engine"
    (
        "avoid",
        _rule(
            rf"^{_SUBJECT}\s+(?:does not|doesn't|do not|don't|cannot|can't|can not) (?:yet )?"
            r"(?:support|handle|accept|allow|implement)\s+(.+?)" + _END
        ),
        lambda m, _n: _avoid_with(m.group(2), m.group(1)),
    ),
    # "Non-blocking socket (timeout=0) is not supported" -> "Avoid non-blocking socket (timeout=0)"
    (
        "avoid",
        _rule(
            rf"^{_SUBJECT}\s+(?:is |are )?(?:currently |yet )?"
            r"(?:not (?:yet |currently )?(?:supported|allowed|permitted|"
            r"implemented)"
            r"|unsupported)"
            r"\b(.*?)" + _END
        ),
        lambda m, _n: _avoid(m.group(1), m.group(2)),
    ),
    # "`pandas.io.json.json_normalize` is deprecated" -> "Stop using `pandas.io.json.json_normalize`"
    (
        "deprecated",
        _rule(rf"^{_SUBJECT}\s+(?:is|are|has been|have been|was|were) (?:now )?deprecated\b.*?" + _END),
        lambda m, _n: _stop_using(m.group(1)),
    ),
    (
        "deprecated",
        _rule(rf"^(?:.*?\band )?{_SUBJECT}\s+(?:should|must) no longer be used\b.*?" + _END),
        lambda m, _n: _stop_using(m.group(1)),
    ),
    # "`batch_size` must be a positive integer" -> "Make sure `batch_size` is a positive integer"
    (
        "requirement",
        _rule(
            rf"^(?:[\w.()]+:\s+)?{_SUBJECT}\s+(must|should|needs to|need to|has to|have to)\s+"
            r"(not be|be|not have|have|not contain|contain|match|include|start with|end with|return|define|"
            r"implement|accept|take|inherit from|subclass|specify|provide|equal|consist only of|consist of|"
            r"refer to|conform to|point to|support)\s+(.+?)" + _END
        ),
        _requirement,
    ),
    # "sample width not specified", "__package__ not set to a string" -> "Specify sample width", "Set
    # __package__ to a string"
    (
        "requirement",
        _rule(
            rf"^{_SUBJECT}\s+(?:is |are |was |were |has been |have been )?not "
            r"(specified|set|supplied|given|provided|passed)\b(?:\s+((?:to|as) [^,;]+?))?" + _END
        ),
        lambda m, _n: _not_given(m.group(1), m.group(2), m.group(3)),
    ),
    # "Node {u} not in G.", "The node {n} is not in the graph." -> "Use a node that is in G"
    (
        "requirement",
        _rule(
            rf"^(?:the )?(node|edge|vertex) (['\"`]?){_M}\2 (?:is )?not in ((?:the )?(?:G|graph|digraph))\b"
            r"(?: from [\w.]+)?" + _END
        ),
        lambda m, _n: (
            f"Use {'an' if m.group(1)[:1] in 'eE' else 'a'} {m.group(1).lower()} that is in {m.group(3)}"
        ),
    ),
    # "invalid mode: %r", "Invalid URL {url}" -> "Use a valid mode", "Use a valid URL"
    (
        "valid",
        _rule(rf"^(?:an? )?(?:invalid|bad|illegal) ([^:]+?)\s*(:?)\s*(['\"`]?){_M}\3" + _END),
        # Without a colon, a placeholder after "for mode" is the mode: "bad operation for mode %r".
        lambda m, _n: (
            None
            if not m.group(2) and re.search(r"\s(?:for|at|in|of|on|with)\s", m.group(1))
            else _valid(m.group(1))
        ),
    ),
    # "%r is not a valid netmask", "{name} is an invalid keyword argument for {cls}" -> "Use a valid netmask"
    (
        "valid",
        _rule(rf"^(['\"`]?){_M}\1 is (?:not an? valid|an invalid) (.+?)" + _END),
        lambda m, _n: _valid(m.group(2)),
    ),
    # "Precision {p} is invalid" -> "Use a valid precision"
    (
        "valid",
        _rule(rf"^((?:the )?[\w`.-]+(?: [\w`.-]+){{0,2}}) (['\"`]?){_M}\2 is invalid" + _END),
        lambda m, _n: _valid(m.group(1), opening=True),
    ),
    # Last, as the others say it better: "Matrix is not positive definite" -> "Make sure the matrix is
    # positive definite"
    (
        "requirement",
        _rule(rf"^{_SUBJECT}\s+(?:is|are) not ((?!{_NOT_A_STATE})[^,;]+?)" + _END),
        lambda m, _n: _is_not(m.group(1), m.group(2)),
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
    demonstrative = first.lower() in ("this", "that", "these", "those") and len(subject.split()) > 1
    if first.lower() in _PRONOUNS and subject.lower() != "there" and not demonstrative:
        return None
    if re.search(r"\b(?:it|its|they|them|their)\b", subject, re.IGNORECASE):
        return None  # "instance of it": what "it" is, the sentence before says
    if re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*|An?", first) and len(subject.split()) > 1:
        # "The filename", not "ZoneInfo", "CUDA" or a name alone ("Any cannot be instantiated")
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
    text = re.sub(  # "{prefix}.a.b", "{prefix}.a[{i}]", "{prefix}.a.{key}"
        rf"^['\"`]?{_M}((?:\.[\w-]+|\[{_M}\]|\.{_M})*\.[\w-]+(?:\.[\w-]+|\[{_M}\]|\.{_M})*)['\"`]?(?=\s|$)",
        lambda m: "`…" + _MARK.sub("…", m.group(1)) + "`",
        text,
    )
    text = re.sub(rf"\s*,\s*['\"`]?{_M}['\"`]?\s*,", "", text)  # "Number of samples, %s, must"
    text = re.sub(rf"\s*\(\s*{_M}\s*\)", "", text)
    text = re.sub(rf"^([A-Za-z_][\w.]*)={_M}(?=\s|$)", r"\1", text)  # "fast_dev_run={x} is not valid"
    text = re.sub(rf"(?<=[\w)\]'\"`])\s+(['\"`]?){_M}\1(?=[\s,]|$)", "", text)
    text = " ".join(text.split())
    return None if _MARK.search(text) else text


def _plural(subject: str) -> bool:
    """Whether a subject is plural, by its head noun (``Device IDs``, not ``the number of
    samples``); a subject in backticks is one name."""
    plain = re.sub(r"\([^)]*\)|\s+the message names$", "", subject)
    if re.fullmatch(r"\s*`[^`]*`\s*", plain):
        return False
    head = re.split(
        r"\s(?:of|for|in|with|from|to|on|passed|given|used|that|which|beginning|starting|ending|containing|named"
        r"|called)\s",
        plain,
        maxsplit=1,
    )[0]
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
    # "Do not create a dataclass from {cls} as it is already a model": "from something that is already".
    text = re.sub(
        rf"\b(from|on|to|with) ['\"`]?{_M}['\"`]? as (?:it|this) is already\b",
        r"\1 something that is already",
        text,
    )
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
