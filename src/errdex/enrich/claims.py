"""What prose claims of a record, read from its words: the conditions it states, set against the
guards of the raise.

Prose is English, whichever language the code is in: "when `model` is None", "if more than one
model was set up", "unless `strict` is False", "without `model=`".  Each condition is read as an
``Atom`` (``subject relation operand``), the same shape the language's reader gives a guard's
test (``ClaimReader.test``), and the two are compared: a stated condition about what a guard
tests must agree with it (say no more than the guard allows), never merely avoid its exact
negation.  A subject no guard tests is left alone unless the prose states it as code, which must
then be a test the raise makes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from errdex.languages.base import ClaimReader
from errdex.languages.snippets import Atom, Relation
from errdex.record import TEST_KINDS, Guard

Verdict = Literal["agree", "contradict", "partial", "unrelated"]
#: The operand of "`x` is left at its default": the parameter's default, which the record gives.
DEFAULT = "<default>"

_NUMBERS = {
    "zero": 0, "no": 0, "none": 0, "one": 1, "a single": 1, "single": 1, "only one": 1, "exactly one": 1,
    "just one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "a": 1, "an": 1,
}  # fmt: skip
_NUMBER = r"(?:-?\d+(?:\.\d+)?|zero|one|two|three|four|five|six|seven|eight|nine|ten)"
#: Where a condition starts, and the words that end one.
_OPENERS = re.compile(
    r"\b(?P<opener>when(?:ever)?|if|only\s+if|unless|once|as\s+long\s+as|in\s+case|provided\s+that|"
    r"whether|where)\b\s+(?P<clause>(?:`[^`\n]{0,200}`|[^.;:!?\n`]){1,300})",
    re.I,
)
_WITHOUT = re.compile(
    r"\bwithout\s+(?:passing|giving|setting|specifying|providing|an?\s+|the\s+|any\s+)?"
    r"(?:explicit\s+)?`(?P<name>[A-Za-z_$][\w$.]*)=?`",
    re.I,
)
#: "with a non-None `filter`", "passing an empty `name`": a value's state, in words.
_WITH = re.compile(
    r"\b(?:with|passing|given|giving|using)\s+(?:an?\s+|the\s+)?(?P<state>non-None|non-null|not-None|None|null|"
    r"non-empty|empty|no|a\s+truthy|a\s+falsy|truthy|falsy)\s+`(?P<name>[A-Za-z_$][\w$.]*)=?`",
    re.I,
)
_STATES: dict[str, Relation] = {
    "non-none": "not-none", "non-null": "not-none", "not-none": "not-none", "none": "none", "null": "none",
    "non-empty": "truthy", "empty": "falsy", "no": "none", "a truthy": "truthy", "a falsy": "falsy",
    "truthy": "truthy", "falsy": "falsy",
}  # fmt: skip
#: A noun phrase, then what a relative clause says of it: "an action name that is not yet in `x`".
_RELATIVE = re.compile(
    r"(?P<np>(?:`[^`]+`|[A-Za-z_][\w-]*)(?:\s+(?:`[^`]+`|[A-Za-z_][\w-]*)){0,3})\s+(?:that|which|who)\s+"
    r"(?P<rest>(?:is|are|was|were)\b(?:`[^`\n]{0,200}`|[^.;:,!?\n`]){1,120})",
    re.I,
)
_CONCESSIVE = re.compile(r"\b(?:even|regardless\s+of|no\s+matter|whether\s+or\s+not|not\s+only)\s*$", re.I)
_CLAUSE_END = re.compile(
    r",\s|\s+(?:then|so that|so|because|since|which|where|otherwise)\b|\s[-\u2013\u2014]\s|\(", re.I
)
_SPLIT = re.compile(r"\s+(?:and|or|but|nor)\s+(?=\S)", re.I)
_VERB = re.compile(
    r"^(?P<subject>.+?)\s+(?P<verb>is|are|was|were|has\s+been|have\s+been|gets|get|got|becomes|become|"
    r"remains|stays|stay|equals|exceeds|exceed|holds|hold|returns|return|evaluates\s+to)\s+"
    r"(?P<not>not\s+|never\s+)?(?P<predicate>.+)$",
    re.I,
)
_QUANTIFIED = re.compile(
    r"^(?:(?:you|the\s+user|a\s+user|someone)\s+)?(?:(?:use|uses|used|using|pass|passes|passed|passing|"
    r"set\s+up|sets\s+up|setting\s+up|give|gives|given|giving|have|has|having|with|call|calls|calling|"
    rf"there\s+(?:is|are|was|were))\s+)?(?P<quantity>no|zero|exactly\s+{_NUMBER}|only\s+one|just\s+one|a\s+single|"
    rf"more\s+than\s+{_NUMBER}|fewer\s+than\s+{_NUMBER}|less\s+than\s+{_NUMBER}|at\s+least\s+{_NUMBER}|"
    rf"at\s+most\s+{_NUMBER}|{_NUMBER}\s+or\s+more|{_NUMBER}\s+or\s+fewer|several|multiple|many|"
    r"one|two|three|four|five|\d+)\s+(?P<rest>[A-Za-z_`][^,]*)$",
    re.I,
)
_CONTRACTIONS = [
    (re.compile(rf"\b{w}n't\b", re.I), f"{w} not")
    for w in ("is", "are", "was", "were", "does", "do", "has", "have")
]
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "its",
        "it",
        "this",
        "that",
        "your",
        "you",
        "user",
        "users",
        "their",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "self",
        "this",
        "cls",
        "len",
        "length",
        "value",
        "values",
        "object",
        "objects",
        "instance",
        "given",
        "set",
    ]
)


@dataclass(frozen=True, slots=True)
class Claim:
    """One condition the prose states, and where."""

    atom: Atom
    #: The words it was read from.
    text: str
    #: Whether its subject is code (in backticks), not words.
    coded: bool


def conditions(text: str, reader: ClaimReader, about: Iterable[str] = ()) -> list[Claim]:
    """The conditions ``text`` states the error happens under: each ``when``/``if``/``unless``
    clause, split at ``and``/``or``; each ``without `x```, ``with a non-None `x```; each relative
    clause (an action name "that is not in `x`").  A clause counts only where what it is a
    condition of is the error: the words before it, back to the last comma, speak of raising,
    failing or the error, or name the call (``about``) that raises; "it imports them only when
    ..." states a condition of something else."""
    text = _expanded(text)
    found: list[Claim] = []
    names = [a.lower() for a in about if a]
    for match in _OPENERS.finditer(text):
        if _CONCESSIVE.search(text[max(0, match.start() - 14) : match.start()]):
            continue  # "even if `x` is set": what does not matter, no condition of the raise
        if not _of_the_error(text, match.start(), names):
            continue
        clause = _clause(match.group("clause"))
        negate = match.group("opener").lower() == "unless"
        for piece in _SPLIT.split(clause):
            claim = _read(piece.strip(), reader)
            if claim is not None:
                found.append(_negated(claim) if negate else claim)
    for match in _WITHOUT.finditer(text):
        found.append(Claim(Atom(match.group("name"), "none"), match.group(0), True))
    for match in _WITH.finditer(text):
        state = _STATES[" ".join(match.group("state").lower().split())]
        found.append(Claim(Atom(match.group("name"), state), match.group(0), True))
    for match in _RELATIVE.finditer(text):
        if not _of_the_error(text, match.start(), names):
            continue
        words = match.group("np").split()
        while words and words[0].lower() in ("a", "an", "the", "for", "with", "of", "to", "on", "in"):
            words = words[1:]
        if words:
            claim = _read(f"{' '.join(words)} {match.group('rest')}", reader)
            if claim is not None:
                found.append(claim)
    return found


def _clause(text: str) -> str:
    """A condition's words up to where its clause ends (a comma, "because", a parenthesis),
    never inside code in backticks."""
    quoted = [m.span() for m in re.finditer(r"`[^`]*`", text)]
    for end in _CLAUSE_END.finditer(text):
        if not any(a < end.start() < b for a, b in quoted):
            return text[: end.start()]
    return text


#: Words that make a clause's head about the error: it is raised, thrown, it fails, it happens.
_ERROR_WORDS = re.compile(
    r"\b(?:rais\w*|throw\w*|fail\w*|error\w*|exception\w*|warn\w*|trigger\w*|happen\w*|occur\w*|"
    r"reach\w*|hit|hits|crash\w*|abort\w*|reject\w*|refus\w*|complain\w*)\b",
    re.I,
)


def _of_the_error(text: str, at: int, names: Sequence[str]) -> bool:
    """Whether the clause starting at ``at`` is a condition of the error: the words before it, in
    its sentence and back to the last comma or semicolon, speak of the error or name its call;
    a clause that opens a sentence is the sentence's own condition."""
    start = max(text.rfind(c, 0, at) for c in (".", ";", ",", ":", "\n"))
    head = text[start + 1 : at].strip()
    if not head:
        return True
    low = head.lower()
    return bool(_ERROR_WORDS.search(head)) or any(n and n in low for n in names)


def coded_tests(text: str, reader: ClaimReader) -> list[Claim]:
    """Each test the prose quotes as code (```model is None```, ```fns.length === 0```): a
    comparison, a negation, a type test, read by the language."""
    found = []
    for span in re.findall(r"`([^`\n]{1,200})`", text):
        if not reader.TEST_SHAPE.search(span):
            continue
        test = reader.test(span)
        if test is None or not test.exact:
            continue
        found += [Claim(atom, span, True) for atom in test.atoms]
    return found


def passed(text: str, parameters: Iterable[str]) -> list[Claim]:
    """What prose has a call pass to a parameter that a guard may test (```strict=False```,
    ``get_current_context(silent=True)``): each ``name=value`` of a parameter as ``name == value``."""
    names = set(parameters)
    found = []
    for name, value in _PASSED.findall(text):
        if name not in names:
            continue
        value = value.strip().strip(",)")
        if value in ("None", "null", "undefined"):
            found.append(Claim(Atom(name, "none"), f"{name}={value}", True))
        elif re.fullmatch(r"True|False|true|false|-?\d+(?:\.\d+)?|'[^']*'|\"[^\"]*\"", value):
            found.append(Claim(Atom(name, "==", value), f"{name}={value}", True))
    return found


_PASSED = re.compile(r"(?<![\w.=!<>])([A-Za-z_][\w]*)\s?=\s?((?:'[^'\n]*'|\"[^\"\n]*\"|[\w.-]+))(?!\s*=)")


def _expanded(text: str) -> str:
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


def _negated(claim: Claim) -> Claim:
    atom = claim.atom
    return Claim(Atom(atom.subject, NEGATED[atom.relation], atom.operand), claim.text, claim.coded)


NEGATED: dict[Relation, Relation] = {
    "none": "not-none", "not-none": "none", "truthy": "falsy", "falsy": "truthy", "==": "!=", "!=": "==",
    "<": ">=", "<=": ">", ">": "<=", ">=": "<", "is-a": "not-a", "not-a": "is-a", "in": "not-in",
    "not-in": "in", "has": "lacks", "lacks": "has",
}  # fmt: skip


def _read(piece: str, reader: ClaimReader) -> Claim | None:
    """One atom of a condition, in words or in code; None where it has no shape errdex reads."""
    piece = piece.strip().rstrip(")").strip()
    if not piece:
        return None
    whole = re.fullmatch(r"`([^`]+)`", piece)
    if whole is not None and reader.TEST_SHAPE.search(whole.group(1)):
        test = reader.test(whole.group(1))
        if test is not None and test.exact and len(test.atoms) == 1:
            return Claim(test.atoms[0], piece, True)
        return None
    verb = _VERB.match(piece)
    quantified = _QUANTIFIED.match(piece)
    if verb is not None and not (quantified and _quantity(quantified.group("quantity"))):
        subject, coded = _subject(verb.group("subject"))
        if subject is None:
            return None
        negated = bool(verb.group("not"))
        kind = verb.group("verb").lower()
        predicate = verb.group("predicate").strip()
        if kind in ("exceeds", "exceed"):
            predicate = f"greater than {predicate}"
        elif kind == "equals":
            predicate = f"equal to {predicate}"
        read = _predicate(predicate)
        if read is None:
            return None
        relation, operand = read
        if negated:
            relation = NEGATED[relation]
        return Claim(Atom(subject, relation, operand), piece, coded)
    if quantified is not None:
        read = _quantity(quantified.group("quantity"))
        if read is None:
            return None
        relation, operand = read
        subject = " ".join(w.strip("`") for w in quantified.group("rest").split()[:6])
        return Claim(Atom(subject, relation, operand), piece, False)
    return None


def _subject(words: str) -> tuple[str | None, bool]:
    """The subject of a condition: the code in backticks it names, else its last few words."""
    coded = re.findall(r"`([^`]+)`", words)
    if coded:
        name = coded[-1].strip().rstrip("=")
        return (name if re.fullmatch(r"[\w$.()\[\]'\" ]+", name) else None), True
    tail = re.sub(r"^(?:the|a|an|your|its|their|this|that)\s+", "", words.strip(), flags=re.I)
    parts = tail.split()
    if not parts or len(parts) > 6:
        return None, False
    return " ".join(parts), False


def _predicate(text: str) -> tuple[Relation, str | None] | None:
    """A predicate in words: ``None``, ``not passed``, ``greater than 1``, ``a `str```."""
    text = text.strip().strip(".").strip()
    low = text.lower().strip("`")
    low = re.sub(r"\s+(?:yet|anymore|explicitly|at all|either|instead|already)$", "", low)
    low = re.sub(r"^(?:itself|themselves|already|still|also|then|actually|really|yet|in fact)\s+", "", low)
    text = re.sub(
        r"^(?:itself|themselves|already|still|also|then|actually|really|yet|in fact)\s+", "", text, flags=re.I
    )
    if re.fullmatch(
        r"(?:left\s+)?(?:at|to)\s+(?:its|the)\s+default(?:\s+value)?|(?:its|the)\s+default(?:\s+value)?", low
    ):
        return "==", DEFAULT
    if re.fullmatch(r"(?:installed|available|importable|present|found)", low):
        return "truthy", None
    if re.fullmatch(r"(?:not\s+installed|unavailable|not\s+available|not\s+importable|missing)", low):
        return "falsy", None
    if re.fullmatch(r"(?:none|null|undefined|nil|unset|left unset|omitted|left out|absent|not given|"
                    r"not passed|not provided|not set|not specified|not supplied|not defined)", low):  # fmt: skip
        return "none", None
    if re.fullmatch(r"(?:passed|given|provided|specified|supplied|set|defined|present|non-null|not null)"
                    r"(?:\s+(?:to|as|by|in)\b.*)?", low):  # fmt: skip
        return "not-none", None
    if low in ("empty", "blank", "an empty string", "an empty list", "the empty string"):
        return "falsy", None
    if low in ("non-empty", "nonempty", "not empty"):
        return "truthy", None
    if low in ("true", "truthy", "enabled", "on", "set to true", "turned on"):
        return "truthy", None
    if low in ("false", "falsy", "falsey", "disabled", "off", "set to false", "turned off"):
        return "falsy", None
    if low in ("zero", "0"):
        return "==", "0"
    if low == "negative":
        return "<", "0"
    if low == "positive":
        return ">", "0"
    if low in ("non-negative", "nonnegative"):
        return ">=", "0"
    order = re.fullmatch(
        rf"(?P<word>(?:greater|more|larger|bigger|higher|less|fewer|smaller|lower)\s+than|above|over|below|"
        rf"under|at\s+least|at\s+most|no\s+more\s+than|no\s+less\s+than|equal\s+to|exactly|set\s+to|"
        rf"not\s+equal\s+to|different\s+from|other\s+than)\s+`?(?P<n>{_NUMBER})`?(?:\s+\w+)?",
        low,
    )
    if order is not None:
        n = _number(order.group("n"))
        word = " ".join(order.group("word").split())
        if n is None:
            return None
        relation: Relation
        if word in (
            "greater than",
            "more than",
            "larger than",
            "bigger than",
            "higher than",
            "above",
            "over",
        ):
            relation = ">"
        elif word in ("less than", "fewer than", "smaller than", "lower than", "below", "under"):
            relation = "<"
        elif word in ("at least", "no less than"):
            relation = ">="
        elif word in ("at most", "no more than"):
            relation = "<="
        elif word in ("not equal to", "different from", "other than"):
            relation = "!="
        else:
            relation = "=="
        return relation, str(n)
    more = re.fullmatch(rf"`?(?P<n>{_NUMBER})`?\s+or\s+(?P<w>more|greater|higher|fewer|less|lower)", low)
    if more is not None and (n := _number(more.group("n"))) is not None:
        return (">=" if more.group("w") in ("more", "greater", "higher") else "<="), str(n)
    typed = re.fullmatch(
        r"(?:an?\s+|an\s+instance\s+of\s+|instance\s+of\s+|of\s+type\s+|of\s+class\s+|a\s+subclass\s+of\s+)"
        r"`?(?P<type>[A-Za-z_$][\w$.]*)`?(?:\s+(?:instance|object|value|subclass))?",
        text.strip(),
        re.I,
    )
    if typed is not None:
        return "is-a", typed.group("type")
    if re.fullmatch(r"`[^`]+`|'[^']*'|\"[^\"]*\"|-?\d+(?:\.\d+)?", text.strip()):
        return "==", text.strip().strip("`")
    member = re.fullmatch(r"(?:one\s+of|in|among)\s+`?(?P<set>[^`]+)`?", low)
    if member is not None:
        return "in", member.group("set")
    return None


def _quantity(text: str) -> tuple[Relation, str] | None:
    low = " ".join(text.lower().split())
    if low in ("several", "multiple", "many"):
        return ">", "1"
    prefixes: tuple[tuple[str, Relation], ...] = (
        ("more than ", ">"), ("fewer than ", "<"), ("less than ", "<"), ("at least ", ">="), ("at most ", "<="),
        ("exactly ", "=="),
    )  # fmt: skip
    for prefix, relation in prefixes:
        if low.startswith(prefix) and (n := _number(low[len(prefix) :])) is not None:
            return relation, str(n)
    tail = re.fullmatch(r"(.+)\s+or\s+(more|fewer)", low)
    if tail is not None and (n := _number(tail.group(1))) is not None:
        return (">=" if tail.group(2) == "more" else "<="), str(n)
    n = _number(low)
    return ("==", str(n)) if n is not None else None


def _number(text: str) -> int | float | None:
    text = text.strip().strip("`")
    if text in _NUMBERS:
        return _NUMBERS[text]
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


# -- against the guards ---------------------------------------------------------------------------


def guard_atoms(guards: Sequence[Guard], reader: ClaimReader) -> list[Atom]:
    """What must hold where the raise runs, as atoms: each test guard's ``needed`` condition,
    read by the language (an inexact test, such as an ``or``, is left out)."""
    atoms: list[Atom] = []
    for guard in guards:
        if guard.kind not in TEST_KINDS or not guard.text:
            continue
        test = reader.test(guard.needed)
        if test is not None and test.exact:
            atoms += test.atoms
    return atoms


def judge(claim: Claim, guards: Iterable[Atom], *, either: bool = False) -> tuple[Verdict, Atom | None]:
    """How a claim stands against the guards on its subject: ``contradict`` if they rule it out,
    ``partial`` if it admits values they refuse and refuses values they admit (``at least two``
    where the raise needs exactly one), ``agree`` if it says what they say, or part of it (one
    of several conditions, ``x != 0`` of ``x != 0 and x < 0``), ``unrelated`` if none tests its
    subject.  With ``either``, the claim may also state the guards' negation (a fix's check)."""
    matched = _nearest(claim, [g for g in guards if same_subject(claim, g)])
    if not matched:
        return "unrelated", None
    verdict, guard = _against(claim.atom, matched)
    if either and verdict != "agree":
        flipped = Atom(claim.atom.subject, NEGATED[claim.atom.relation], claim.atom.operand)
        if _against(flipped, matched)[0] == "agree":
            return "agree", None
    return verdict, guard


def _nearest(claim: Claim, matched: list[Atom]) -> list[Atom]:
    """Of the guards a claim's subject matches, those it is most likely about: in words, those
    sharing the most words with it ("more than one model was set up" is about
    ``self._models_setup``, not ``model``), and of those, the ones that test it the same way (a
    number against numbers) where there are such."""
    if not claim.coded and len(matched) > 1:
        mine = words(claim.atom.subject)
        best = max(len(mine & words(g.subject)) for g in matched)
        matched = [g for g in matched if len(mine & words(g.subject)) == best]
    alike = [
        g
        for g in matched
        if _family(g.relation, g.operand) == _family(claim.atom.relation, claim.atom.operand)
    ]
    return alike or matched


def _family(relation: Relation, operand: str | None) -> str:
    if relation in ("none", "not-none", "truthy", "falsy"):
        return "presence"
    if relation in ("is-a", "not-a"):
        return "type"
    if relation in ("<", "<=", ">", ">=") or (
        relation in ("==", "!=") and _number(operand or "") is not None
    ):
        return "number"
    return relation


def _against(atom: Atom, matched: list[Atom]) -> tuple[Verdict, Atom | None]:
    """One atom against the guards on its subject, all of which must hold: as numbers where
    they all are (the intersection of their intervals), else guard by guard."""
    claim = _interval(atom)
    intervals = [_interval(g) for g in matched]
    if claim is not None and all(i is not None for i in intervals):
        # Saying one of the guards as it is, where several bound the subject, is saying part of it.
        one_of = any(claim == i for i in intervals)
        verdict = _within(claim, [i for i in intervals if i is not None], weaker=one_of)
        return verdict, (matched[0] if verdict in ("contradict", "partial") else None)
    verdicts = [(compare(atom, g), g) for g in matched]
    for v, g in verdicts:
        if v == "contradict":
            return v, g
    if any(v == "agree" for v, _ in verdicts):
        return "agree", None
    for v, g in verdicts:
        if v == "partial":
            return v, g
    # A guard tests the subject, but not in any way the claim can be set against.
    return "unrelated", matched[0]


def words(text: str) -> set[str]:
    """The words a subject is made of: identifiers split at ``_``, ``.`` and case changes,
    lower-cased, plurals folded, little words left out (``self._models_setup``: model, setup)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    spaced = re.sub(r"\bset\s+up\b", "setup", spaced, flags=re.I)
    out = set()
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", spaced):
        low = word.lower()
        if low.endswith("ies") and len(low) > 4:
            low = low[:-3] + "y"
        elif low.endswith("s") and not low.endswith("ss") and len(low) > 3:
            low = low[:-1]
        if low not in _STOP and len(low) > 1:
            out.add(low)
    return out


def same_subject(claim: Claim, guard: Atom) -> bool:
    """Whether a claim is about what a guard tests: the same code (its last names alike, a
    receiver aside), or, in words, most of the words the guard's subject is named with."""
    mine, theirs = words(claim.atom.subject), words(guard.subject)
    if claim.coded:
        a = _last(claim.atom.subject)
        b = _last(guard.subject)
        return bool(a) and (a == b or (bool(mine) and mine == theirs))
    if not mine or not theirs:
        return False
    common = mine & theirs
    return len(common) * 2 >= len(theirs) and any(len(w) >= 3 for w in common)


def _last(subject: str) -> str:
    """A subject's own name: ``root`` of ``opts.root``, ``models_setup`` of ``self._models_setup``,
    ``x`` of ``len(x)``."""
    inner = re.fullmatch(r"len\((.+)\)", subject.strip())
    subject = inner.group(1) if inner else subject
    subject = re.sub(r"\.length$", "", subject.strip())
    return subject.rpartition(".")[2].lstrip("_$#").lower()


_TYPE_WORDS = {
    "str": "string", "string": "string", "text": "string", "int": "number", "integer": "number",
    "float": "number", "number": "number", "numeric": "number", "bool": "boolean", "boolean": "boolean",
    "function": "function", "callable": "function", "method": "function", "list": "sequence",
    "array": "sequence", "tuple": "sequence", "sequence": "sequence", "dict": "mapping", "mapping": "mapping",
    "object": "object", "set": "set", "bytes": "bytes",
}  # fmt: skip


def compare(claim: Atom, guard: Atom) -> Verdict:
    """A claim's relation against a guard's on the same subject."""
    c, g = claim.relation, guard.relation
    if _length_of(guard.subject) and c in ("truthy", "falsy"):
        claim = Atom(claim.subject, ">" if c == "truthy" else "==", "0")
        c = claim.relation
    nulls = ("none", "not-none")
    truth = ("truthy", "falsy")
    if c in nulls and g in nulls:
        return "agree" if c == g else "contradict"
    if c in nulls and g in truth:
        return "agree" if (c == "none") == (g == "falsy") else "contradict"
    if c in truth and g in nulls:
        return "agree" if (c == "falsy") == (g == "none") else "contradict"
    if c in truth and g in truth:
        return "agree" if c == g else "contradict"
    if c in truth and g in ("==", "!=") and _boolean(guard.operand) is not None:
        wanted = _boolean(guard.operand) == (g == "==")
        return "agree" if (c == "truthy") == wanted else "contradict"
    if c in ("==", "!=") and g in truth and _boolean(claim.operand) is not None:
        said = _boolean(claim.operand) == (c == "==")
        return "agree" if said == (g == "truthy") else "contradict"
    if c in ("is-a", "not-a") and g in ("is-a", "not-a"):
        alike = _same_type(claim.operand, guard.operand)
        if alike is None:
            return "unrelated"
        if alike:
            return "agree" if c == g else "contradict"
        return "contradict" if c == "is-a" and g == "is-a" else "unrelated"
    interval = _interval(claim), _interval(guard)
    if interval[0] is not None and interval[1] is not None:
        return _contained(interval[0], interval[1])
    if c in ("==", "!=") and g in ("==", "!=") and claim.operand and guard.operand:
        same = _literal(claim.operand) == _literal(guard.operand)
        if c == "==" and g == "==":
            return "agree" if same else "contradict"
        if c == "==" and g == "!=":
            return "contradict" if same else "agree"
        if c == "!=" and g == "==":
            return "contradict" if same else "partial"
        return "agree" if same else "partial"
    if c == "==" and g in ("in", "not-in") and claim.operand and guard.operand:
        inside = _literal(claim.operand) in {_literal(x) for x in _items(guard.operand)}
        return "agree" if inside == (g == "in") else "contradict"
    if c in ("in", "not-in", "has", "lacks") and c == g:
        return "agree"
    if (c, g) in (("in", "not-in"), ("not-in", "in"), ("has", "lacks"), ("lacks", "has")):
        return "contradict"
    return "unrelated"


def _length_of(subject: str) -> bool:
    return bool(re.fullmatch(r"len\(.+\)|.+\.length", subject.strip()))


def _boolean(operand: str | None) -> bool | None:
    return {"true": True, "false": False}.get((operand or "").strip().lower())


def _literal(text: str) -> str:
    return text.strip().strip("`").strip("'\"").lower()


def _items(text: str) -> list[str]:
    return [p for p in re.split(r"[\s,()\[\]{}]+", text) if p]


def _same_type(a: str | None, b: str | None) -> bool | None:
    """Whether two type operands name one type (``str`` and "a string"; ``DeepSpeedStrategy`` and
    "DeepSpeed"); None where errdex cannot tell."""
    if not a or not b:
        return None
    kinds_b = {_TYPE_WORDS.get(x.lower(), x) for x in _items(b.strip("'\""))}
    kind_a = _TYPE_WORDS.get(a.strip("'\"").lower(), a.strip("'\""))
    if kind_a in kinds_b:
        return True
    short = {x.rpartition(".")[2] for x in kinds_b}
    if kind_a.rpartition(".")[2] in short:
        return True
    if any(words(kind_a) and words(kind_a) <= words(x) for x in short):
        return True
    basic = set(_TYPE_WORDS.values())
    if kind_a in basic and kinds_b <= basic:
        return False
    return None


#: A set of numbers as (low, low closed, high, high closed), integers where both sides are.
_Interval = tuple[float, bool, float, bool]


def _interval(atom: Atom) -> list[_Interval] | None:
    """The numbers a numeric atom admits, as intervals (``!=`` gives two); None for others."""
    if atom.relation not in ("==", "!=", "<", "<=", ">", ">=") or atom.operand is None:
        return None
    try:
        n = float(atom.operand.strip("`"))
    except ValueError:
        return None
    inf = float("inf")
    return {
        "==": [(n, True, n, True)],
        "!=": [(-inf, False, n, False), (n, False, inf, False)],
        "<": [(-inf, False, n, False)],
        "<=": [(-inf, False, n, True)],
        ">": [(n, False, inf, False)],
        ">=": [(n, True, inf, False)],
    }[atom.relation]


def _contained(claim: list[_Interval], guard: list[_Interval]) -> Verdict:
    """``agree`` where every number the claim admits the guard does, ``contradict`` where none
    is, else ``partial``."""
    return _within(claim, [guard], weaker=False)


def _within(claim: list[_Interval], guards: list[list[_Interval]], *, weaker: bool = True) -> Verdict:
    """The claim's numbers against those every guard admits (integers counted as such):
    ``agree`` where the claim admits only those (or, ``weaker``, admits all of them: it states one
    of the conditions), ``contradict`` where it admits none, else ``partial``."""
    points = sorted(set(_samples(claim)) | {x for g in guards for x in _samples(g)})

    def allowed(x: float) -> bool:
        return all(any(_holds(i, x) for i in g) for g in guards)

    def said(x: float) -> bool:
        return any(_holds(i, x) for i in claim)

    mine = [x for x in points if said(x)]
    theirs = [x for x in points if allowed(x)]
    if mine and all(allowed(x) for x in mine):
        return "agree"
    if not any(allowed(x) for x in mine):
        return "contradict"
    if weaker and theirs and all(said(x) for x in theirs):
        return "agree"
    return "partial"


def _samples(intervals: list[_Interval]) -> Iterator[float]:
    """Whole numbers (and the edges) inside the intervals, near their bounds: enough to tell
    containment of the intervals a condition makes."""
    for low, low_closed, high, high_closed in intervals:
        points = set()
        for edge in (low, high):
            if edge not in (float("inf"), float("-inf")):
                points |= {edge - 2, edge - 1, edge, edge + 1, edge + 2, edge + 0.5, edge - 0.5}
        if not points:
            points = {0.0}
        points |= {low + 1e6 if low != float("-inf") else -1e6, high - 1e6 if high != float("inf") else 1e6}
        for x in points:
            if _holds((low, low_closed, high, high_closed), x) and float(x).is_integer():
                yield x


def _holds(interval: _Interval, x: float) -> bool:
    low, low_closed, high, high_closed = interval
    above = x > low or (low_closed and x == low)
    below = x < high or (high_closed and x == high)
    return above and below
