"""The advice read out of a message's own words, on messages real packages raise.

Mines modules of this interpreter's standard library and of networkx 3.4.2 (the tests' PyPI
cache) and reads every message's advice.  Each rule that turns a complaint into an instruction
("invalid mode: %r" -> "Use a valid mode", "fmean requires at least one data point" -> "Pass at
least one data point to fmean") must fire on real messages; every piece of advice is checked
against the message it comes from, read here on its own: no placeholder, no word the message
does not give, no claim the message's own words contradict, a sentence that is grammatical.
Messages that say nothing a caller can do get no advice.
"""

from __future__ import annotations

import re
import shutil
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.enrich.advice import Advice, advice
from errdex.mine import mine

pytestmark = pytest.mark.pypi

SHA = "0" * 40
#: Standard-library modules whose messages name invalid values, requirements, lists and kinds.
STDLIB = (
    "_pyio.py", "argparse.py", "ipaddress.py", "statistics.py", "wave.py", "zipfile.py", "shutil.py",
    "socket.py", "_pydecimal.py", "pathlib.py", "fractions.py", "os.py",
)  # fmt: skip
#: networkx modules with "Node {u} not in G." and friends.
NETWORKX = ("classes/graph.py", "classes/digraph.py", "classes/function.py", "algorithms/bridges.py")


@pytest.fixture(scope="module")
def messages(
    pypi_package: Callable[..., Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str | None]:
    """Every mined message, with its pattern, from the source it was mined from."""
    root = tmp_path_factory.mktemp("advice-stdlib")
    lib = Path(sysconfig.get_paths()["stdlib"])
    for module in STDLIB:
        if (lib / module).exists():
            shutil.copy(lib / module, root / module)
    nx = pypi_package("networkx", "3.4.2") / "networkx"
    for module in NETWORKX:
        (root / "nx" / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(nx / module, root / "nx" / module)
    found: dict[str, str | None] = {}
    for record in mine(root, repo="python/cpython", sha=SHA, jobs=1).records:
        source = (root / record.file_path).read_text(encoding="utf-8")
        # ``{__name__!r}`` is printed as the module's own name, which the source does not spell.
        module = record.file_path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        head = re.split(rf"\{{|%|'{re.escape(module)}'", record.error_message, maxsplit=1)[0]
        assert head[:12] in source, f"{record.error_message!r} is not in {record.file_path}"
        found.setdefault(record.error_message, record.message_pattern)
    return found


def advised(messages: dict[str, str | None]) -> list[tuple[str, Advice]]:
    return [(m, a) for m, p in messages.items() for a in advice(m, p)]


#: Each new rule, the way its advice opens, and how many real messages it must fire on at least.
RULES = (
    ("valid", re.compile(r"Use (?:a )?valid \S"), 8),
    ("choices", re.compile(r"Use one of the choices the message lists$"), 1),
    ("expected", re.compile(r"Pass (?:an? )?[\w-]+(?: [\w-]+)*$"), 2),
    ("requirement", re.compile(r"Pass at least (?:one|two) data points? to \w+$"), 4),
    ("requirement", re.compile(r"(?:Set|Specify) [\w# ]+$"), 2),
    ("requirement", re.compile(r"Use an? (?:node|edge) that is in (?:the )?(?:G|graph|digraph)$"), 1),
)


@pytest.mark.parametrize(("kind", "shape", "least"), RULES, ids=[r[1].pattern[:30] for r in RULES])
def test_each_rule_fires_on_real_messages(
    messages: dict[str, str | None], kind: str, shape: re.Pattern[str], least: int
) -> None:
    fired = [(m, a.text) for m, a in advised(messages) if a.kind == kind and shape.match(a.text)]
    assert len(fired) >= least, fired


#: The words advice may add to the message's own.
_OWN = frozenset((
    "use", "a", "an", "the", "valid", "pass", "one", "of", "values", "choices", "message", "lists",
    "names", "that", "is", "in", "to", "at", "least", "make", "sure", "do", "not", "avoid", "for", "set",
    "specify", "with", "when", "it",
))  # fmt: skip


def _said(word: str, message: str) -> bool:
    """A word of the message, or a form of one ("specify" of "specified", "set" of "set")."""
    words = set(re.findall(r"[a-z0-9_]+", message.lower()))
    return word in words or any(
        len(w) >= 4 and (w.startswith(word[:-1]) or word.startswith(w)) for w in words
    )


def test_advice_shows_no_placeholder_and_adds_no_word(messages: dict[str, str | None]) -> None:
    bad = []
    for message, item in advised(messages):
        if re.search(r"[{}]|%[-#0 +]*\d*[sdrif]|%\(|[\ue000-\uf8ff]", item.text):
            bad.append(f"placeholder: {item.text!r} for {message!r}")
        if not any(kind == item.kind and shape.match(item.text) for kind, shape, _ in RULES):
            continue  # the older rules' own words: tests/test_solutions.py
        for word in re.findall(r"[a-z0-9_]+", item.text.lower()):
            if word not in _OWN and not _said(word, message):
                bad.append(f"adds {word!r}: {item.text!r} for {message!r}")
    assert bad == []


#: The verbs an instruction opens with.
_OPENING = re.compile(
    r"(?:Use|Pass|Set|Specify|Supply|Give|Provide|Make sure|Do not|Avoid|Install|Run|Call|Add)\b"
)
_DANGLING = frozenset(
    ("a", "an", "the", "of", "for", "to", "with", "in", "on", "at", "by", "and", "or", "as", "from")
)


def test_advice_is_a_grammatical_instruction(messages: dict[str, str | None]) -> None:
    bad = []
    for message, item in advised(messages):
        text = item.text.rstrip(".")
        words = text.split()
        problems = [
            not _OPENING.match(text) and item.kind in ("valid", "expected", "choices"),
            words[-1].lower() in _DANGLING,
            text.count("`") % 2 == 1,
            # the article agrees: "an" before a vowel sound, none before a plural
            re.search(r"\ba (?=[aeiou])", text) is not None,
            re.search(r"\ban (?=[bcdfghjklmnpqrstvwxz])", text) is not None,
            re.search(r"\ba (?:valid )?bytes\b", text) is not None,
        ]
        if any(problems):
            bad.append(f"{item.text!r} for {message!r}")
    assert bad == []


def test_advice_does_not_contradict_its_message(messages: dict[str, str | None]) -> None:
    """ "Use a valid X" only where the message calls what it shows an invalid (bad, illegal, not a
    valid) X; "that is in G" only where it says the value is not in G; "Pass at least N ..." only
    where the message says the function requires at least N."""
    bad = []
    for message, item in advised(messages):
        lowered = message.lower()
        valid = re.match(r"Use (?:a )?valid (.+)$", item.text)
        if valid is not None:
            kind = valid.group(1).lower()
            said = re.search(
                rf"\b(?:invalid|bad|illegal|not an? valid|an invalid) (?:[\w ]*?){re.escape(kind)}", lowered
            )
            if said is None and f"{kind} " not in lowered:
                bad.append(f"{item.text!r} for {message!r}")
        inside = re.match(r"Use an? (\w+) that is in (.+)$", item.text)
        if inside is not None and not re.search(rf"not in {re.escape(inside.group(2).lower())}\b", lowered):
            bad.append(f"{item.text!r} for {message!r}")
        least = re.match(r"Pass (at least \w+ .+) to (\w+)$", item.text)
        if least is not None and f"{least.group(2)} requires {least.group(1)}" not in message:
            bad.append(f"{item.text!r} for {message!r}")
    assert bad == []


#: Real messages (each mined) that say what is wrong and nothing a caller can do about it:
#: advice would only restate them.
SILENT = (
    "unknown archive format '%s'",  # shutil: which formats are known, the message does not say
    "Bad magic number for file header",  # zipfile: a corrupt archive, nothing passed is invalid
)


def test_a_message_with_nothing_to_do_gives_no_advice(messages: dict[str, str | None]) -> None:
    real = [m for m in SILENT if m in messages]
    assert real == list(SILENT), f"not mined: {set(SILENT) - set(real)}"
    for message in real:
        assert advice(message, messages[message]) == [], message
