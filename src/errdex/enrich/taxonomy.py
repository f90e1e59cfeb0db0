"""Families of errors across libraries, and the rules that put a record in one.

Each family has a one-line criterion a reader can check against the record, and rules over
the facts errdex mined: the message's own words, the exception class, and the guard
conditions.  A family is assigned only when its rules agree well enough; otherwise the
record's ``backgroundTag`` stays empty, because a wrong family misleads more than none.  A
family about one kind of library (an ORM's mapping errors, a template engine's, a command
line parser's) is assigned only to records in such a library, or whose class comes from one.

Every rule is matched one way, a ``Rule`` over ``words``: on whole words, never inside one.
``words`` writes a text as its words: identifiers split where their case changes
(``ConnectionRefusedError`` is ``connection refused error``, ``NetworkXError`` is ``networkx
error``: a known compound name stays one word), everything lower-cased.  A word is letters
and digits: ``_`` and punctuation separate words as a space does, and a rule may still spell
them (``state[_ ]dict``).  So ``orm`` is not in "normalized", ``io`` not in "ratio", ``lock`` not
in "block", ``network`` not in NetworkX.  A rule that means a stem says so (``deprecat\\w*``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from errdex import languages
from errdex.record import Guard, Record

# -- words ----------------------------------------------------------------------------------------

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*")
#: The words of a mixed-case identifier: ``HTTPError`` is HTTP, Error; digits join the word before.
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
#: Names written in mixed case that are one word, not the words their case suggests.
COMPOUNDS = frozenset(
    {
        "networkx", "graphql", "deepspeed", "pytorch", "numpy", "scipy", "sqlalchemy", "sqlite",
        "sqlite3", "mysql", "postgresql", "nosql", "mongodb", "dynamodb", "openapi", "openssl",
        "oauth", "oauth2", "websocket", "websockets", "ipv4", "ipv6", "ipvany", "macos", "ios",
        "nan", "nat", "dataframe", "javascript", "typescript", "github", "gitlab", "fastapi",
        "tensorflow", "huggingface", "pypi", "ipython", "openai", "xgboost", "lightgbm", "pyarrow",
        "mlflow", "jsonschema",
    }
)  # fmt: skip
_LONGEST_COMPOUND = 3  # parts


def _split(match: re.Match[str]) -> str:
    name = match.group()
    if name.islower() or name.isupper():
        return name.lower()
    parts: list[str] = []
    for part in _PART.findall(name):
        if part.isdigit() and parts:
            parts[-1] += part
        else:
            parts.append(part.lower())
    out, i = [], 0
    while i < len(parts):
        for n in range(min(_LONGEST_COMPOUND, len(parts) - i), 1, -1):
            if "".join(parts[i : i + n]) in COMPOUNDS:
                out.append("".join(parts[i : i + n]))
                i += n
                break
        else:
            out.append(parts[i])
            i += 1
    return " ".join(out)


def words(text: str) -> str:
    """``text`` as the rules read it: each identifier as its words, lower-cased; the rest kept."""
    return _IDENTIFIER.sub(_split, text).lower() if text else ""


#: A word is letters and digits.  A match's edge may not fall inside a word: not both the
#: character before it and the one after it are word characters.
_W = r"[^\W_]"
_EDGE = f"(?!(?<={_W}){_W})"
_BOUNDARY = f"(?:(?<!{_W})(?={_W})|(?<={_W})(?!{_W}))"


class Rule:
    """A rule over ``words``: a pattern matched only where each end of its match is on a
    word's edge; ``\\b`` inside the pattern is a word's edge too (``_`` separates words), and
    ``^`` and ``$`` are a line's ends (conditions are read as one line each)."""

    __slots__ = ("_anywhere", "_on_words")

    def __init__(self, pattern: str) -> None:
        inner = pattern.replace(r"\b", _BOUNDARY)
        #: The same pattern anywhere: a cheaper test, false for most texts, true wherever the
        #: rule is (the edges only add conditions), so the full test runs only after it.
        self._anywhere = re.compile(inner, re.MULTILINE)
        self._on_words = re.compile(f"{_EDGE}(?:{inner}){_EDGE}", re.MULTILINE)

    def search(self, text: str) -> bool:
        return self._anywhere.search(text) is not None and self._on_words.search(text) is not None


def _rule(pattern: str | None) -> Rule | None:
    return Rule(pattern) if pattern else None


# -- libraries ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Library:
    """A kind of library: the modules that are one (a module and everything below it), and the
    distributions (canonical names) that are one as a whole."""

    name: str
    modules: frozenset[str]
    distributions: frozenset[str] = frozenset()

    def __or__(self, other: Library) -> Library:
        return Library(
            f"{self.name} or {other.name}",
            self.modules | other.modules,
            self.distributions | other.distributions,
        )


@dataclass(frozen=True, slots=True)
class Place:
    """Where a record is: the modules of its file and of its class, its distribution and its
    repository's name."""

    modules: tuple[str, ...] = ()
    distributions: tuple[str, ...] = ()
    #: Each module and the packages above it: ``a.b.c``, ``a.b``, ``a``.
    _within: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        parts = [m.split(".") for m in self.modules]
        names = {".".join(p[:n]) for p in parts for n in range(1, len(p) + 1)}
        object.__setattr__(self, "_within", frozenset(names))

    def within(self, library: Library) -> bool:
        return not (
            library.distributions.isdisjoint(self.distributions) and library.modules.isdisjoint(self._within)
        )


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def place_of(record: Record) -> Place:
    """The record's place, from its file path (as its language reads it), its qualified class,
    its package and its repository."""
    modules = []
    language = languages.find(record.language)
    if language is not None:
        module = language.module_of(record.file_path)
        if module:
            modules.append(module)
    qualified = record.qualified_class or ""
    if "." in qualified:
        modules.append(qualified.rpartition(".")[0])
    distributions = [_canonical(record.package)] if record.package else []
    distributions.append(_canonical(record.repo.partition("/")[2]))
    return Place(tuple(modules), tuple(distributions))


def _library(name: str, modules: str, distributions: str = "") -> Library:
    return Library(name, frozenset(modules.split()), frozenset(distributions.split()))


ORM = _library(
    "ORM",
    "sqlalchemy sqlmodel flask_sqlalchemy sqlalchemy_utils peewee playhouse tortoise pony.orm"
    " django.db ormar piccolo mongoengine odmantic beanie",
    "sqlalchemy sqlmodel flask-sqlalchemy sqlalchemy-utils peewee tortoise-orm pony ormar piccolo"
    " mongoengine odmantic beanie",
)
DATABASE = ORM | _library(
    "database driver",
    "sqlite3 psycopg psycopg2 pymysql MySQLdb mysql.connector asyncpg aiosqlite aiomysql aiopg"
    " oracledb cx_Oracle pyodbc pymssql duckdb alembic databases pandas.io.sql snowflake.connector",
    "psycopg psycopg2 psycopg2-binary pymysql mysqlclient mysql-connector-python asyncpg aiosqlite"
    " aiomysql aiopg oracledb cx-oracle pyodbc pymssql duckdb alembic databases",
)
HTTP = _library(
    "HTTP",
    "requests urllib3 httpx httpcore aiohttp http urllib werkzeug flask django.http starlette"
    " fastapi tornado falcon bottle pyramid sanic httplib2 requests_toolbelt h11 h2 wsgiref",
    "requests urllib3 httpx httpcore aiohttp werkzeug flask starlette fastapi tornado falcon"
    " bottle pyramid sanic httplib2 requests-toolbelt h11 h2",
)
#: Libraries whose connection and network errors are failures of a network, worth a retry.
NETWORK = HTTP | _library(
    "network",
    "socket ssl asyncio multiprocessing.connection smtplib ftplib imaplib poplib xmlrpc"
    " socketserver anyio trio websockets websocket grpc botocore boto3 aiobotocore paramiko redis pika kombu"
    " pymongo elasticsearch dns twisted zmq kafka aiokafka google.api_core",
    "anyio trio websockets websocket-client grpcio botocore boto3 aiobotocore paramiko redis pika kombu"
    " pymongo elasticsearch dnspython twisted pyzmq kafka-python aiokafka google-api-core",
)
GRAPH = _library(
    "graph",
    "networkx igraph rustworkx graph_tool pygraphviz scipy.sparse.csgraph",
    "networkx igraph python-igraph rustworkx pygraphviz",
)
TEMPLATE = _library(
    "template engine",
    "jinja2 mako django.template string chevron pystache genshi chameleon tornado.template",
    "jinja2 mako chevron pystache genshi chameleon",
)
CLI = _library(
    "command line",
    "click typer argparse optparse getopt docopt fire cleo cliff cement plac jsonargparse"
    " rich_click cloup lightning.pytorch.cli pytorch_lightning.cli",
    "click typer docopt fire cleo cliff cement plac jsonargparse rich-click cloup",
)
DISTRIBUTED = _library(
    "distributed training",
    "torch.distributed torch.nn.parallel lightning pytorch_lightning lightning_fabric deepspeed"
    " accelerate horovod ray dask.distributed distributed mpi4py",
    "lightning pytorch-lightning lightning-fabric deepspeed accelerate horovod ray distributed mpi4py",
)

# -- families -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Evidence:
    """One record's facts as the rules read them: the message, the class's own name and the
    conditions as ``words`` (one condition a line), and the parameters its guards test as not
    given."""

    message: str
    cls: str
    tests: str
    #: Parameters the guards on the path test as not given (``x is None``, ``not x``): the
    #: only fact that says an argument is missing, rather than a module or a file.
    absent: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Requirement:
    """A fact a family cannot do without, whatever else matches: a missing argument needs a
    guard that tests a parameter was not given, an I/O failure an ``OSError`` or a file."""

    #: The evidence it is, weighed as a condition; None where it only gates the family.
    name: str | None
    test: Callable[[Evidence], bool]


@dataclass(frozen=True, slots=True)
class Family:
    tag: str
    #: The vocabulary tag a record of this family gets (``argument``, ``io``, ``database`` ...).
    kind: str
    criterion: str
    #: Rules; each that matches is one piece of evidence.  Each reads ``words`` of its fact.
    #: A message rule says what went wrong, not only what it is about: "table" alone is the
    #: topic of most errors of a SQL library, not a failed statement.
    message: Rule | None = None
    error_class: Rule | None = None
    condition: Rule | None = None
    #: The kind of library the family is about: only records there (or whose class comes from
    #: there) may have it.  None: any library.
    about: Library | None = None
    #: What a matching class weighs: enough alone (0.6) where the class by itself says the
    #: family (``StopIteration``, ``FileNotFoundError``, a DB-API ``OperationalError``).
    class_weight: float = 0.3
    requires: Requirement | None = None


def _family(
    tag: str,
    kind: str,
    criterion: str,
    message: str | None = None,
    cls: str | None = None,
    cond: str | None = None,
    about: Library | None = None,
    *,
    strong_class: bool = False,
    requires: Requirement | None = None,
) -> Family:
    weight = _WEIGHTS["message"] if strong_class else _WEIGHTS["class"]
    return Family(tag, kind, criterion, _rule(message), _rule(cls), _rule(cond), about, weight, requires)


#: Evidence from the message counts most: it is what the library says the problem is.
_WEIGHTS = {"message": 0.6, "class": 0.3, "condition": 0.3}  # class or condition alone: not enough
#: Below this, no family is assigned.
THRESHOLD = 0.6

#: ``OSError`` and the classes the language derives from it: a failure of the system.
_OS_ERROR = Rule(
    r"^((os|io|environment|blocking io|broken pipe|child process|file exists|file not found|interrupted"
    r"|is a directory|not a directory|permission|process lookup|connection( aborted| refused| reset)?)"
    r" error|unsupported operation)$"
)
#: What a message names when it speaks of a file or a stream.
_FILE_WORDS = Rule(
    r"files?|filenames?|streams?|director(y|ies)|folders?|paths?|sockets?|pipes?|disks?|buffers?"
    r"|file descriptors?|archives?|stdin|stdout|stderr|console|tty"
)
_FILE_OR_STREAM = Requirement(None, lambda e: _OS_ERROR.search(e.cls) or _FILE_WORDS.search(e.message))
_STOP_ITERATION = Rule(r"^stop (async )?iteration$")
#: contextlib's generator-based context managers: the generator ended too early or too late.
_GENERATOR_END = Rule(r"generator didn't (yield|stop)")
_ITERATION_END = Requirement(
    None, lambda e: _STOP_ITERATION.search(e.cls) or _GENERATOR_END.search(e.message)
)
_PARAMETER_ABSENT = Requirement("parameter", lambda e: bool(e.absent))
FAMILIES: tuple[Family, ...] = (
    # -- arguments --------------------------------------------------------------------------------
    _family(
        "ambiguous-target",
        "argument",
        "Several candidates fit and the call must say which one to use.",
        r"ambiguous|(multiple|more than one|several) \w+\b.*\b(please|must|need to|have to|should) (provid|specif|pass|choos|select)\w*"
        r"|which (one )?(of them|to use)",
        r"ambiguous\w*",
        r"> 1|len\(.+\) > 1",
    ),
    _family(
        "missing-required-argument",
        "argument",
        "A required argument or option was not given: the message says so and a guard tests "
        "that the parameter was not passed (None or absent).",
        r"missing\b(?! values?\b)|required|must (be )?(provid|pass|specif|given|supplied)\w*"
        r"|(please|must|need to|have to) (provide|pass|specify|give|supply)"
        r"|not (provided|specified|given|passed|supplied)|no \w+ (was |were |is )?(given|provided|specified|passed|supplied)"
        r"|(were|was) (both )?none|(cannot|can't|must not|may not|should not) be none",
        r"missing (required )?(argument|parameter|option|keyword)",
        requires=_PARAMETER_ABSENT,
    ),
    _family(
        "unexpected-argument",
        "argument",
        "An argument or keyword was given that the call does not accept.",
        r"unexpected (keyword )?arguments?|invalid keyword arguments?|got an unexpected|unknown (keyword|argument|option|parameter)s?|not a valid (keyword|argument)|unrecognized (argument|option)s?",
        r"unexpected argument|no such option",
    ),
    _family(
        "conflicting-arguments",
        "argument",
        "Two arguments or options were given that exclude each other.",
        r"mutually exclusive|cannot (both|be used together|be combined|specify both|pass both|be passed together)"
        r"|can't (specify|pass|use) both|(specify|pass|use|give) only one of|can only (specify|pass|use|give) one of|not both|either .+ or .+ but not|but not both"
        r"|(and|or) .+ at the same time|conflicts with (the )?['`\"]?\w+['`\"]? (argument|option|parameter|keyword)",
        r"conflicting arguments?|mutually exclusive\w*",
    ),
    _family(
        "wrong-argument-count",
        "argument",
        "A call passed too many or too few arguments.",
        r"takes (at (most|least) |exactly )?(\d+|zero|one|two) (positional )?arguments?|expected \d+ arguments?|too (many|few) (positional )?arguments|exactly (one|two|\d+) (arguments?|of)|requires (exactly|at least|at most) \d+",
    ),
    _family(
        "invalid-choice",
        "value",
        "A value is not one of the accepted choices.",
        r"must be one of|is not one of|not one of|invalid choice|should be one of|expected one of|choose from|must be either ['`\"]"
        r"|valid (values|options|choices) (are|is)|not in \(|unsupported (value|option|mode|method|backend|strategy)"
        r"|unknown (value|mode|method|backend|strategy)",
        r"choices?",
        r"not in",
    ),
    _family(
        "type-mismatch",
        "type",
        "A value has the wrong type for where it is used.",
        r"must be (an? )?(str|string|int|integer|float|bool|boolean|list|dict|tuple|callable|instance|type|subclass|bytes|sequence|mapping|number|list-like|iterable)s?"
        r"|expected (an? )?(str|string|int|integer|float|bool|list|dict|tuple|callable|instance|type|bytes|sequence|mapping)s?(?!\s+(to|have|with)\b)"
        r"|not (an? )?(instance|subclass) of|unsupported (operand )?types?|wrong type|invalid type|of type .+ (is|was) not"
        r"|is not callable|object is not (callable|iterable|subscriptable)",
        r"^type error$|type (mismatch )?error$",
        r"isinstance\(|issubclass\(|callable\(",
    ),
    _family(
        "value-out-of-range",
        "value",
        "A number lies outside the range the call accepts.",
        r"out of (range|bounds)|must be (positive|non-negative|negative|greater|less|at least|at most|between|>|<|>=|<=|in the range|in range)|should be (positive|greater|less|between)|cannot be negative|exceeds? (the )?(max\w*|limit)|too (large|small|big|long|short)|overflow|underflow",
        r"range|overflow|bounds",
        r"[<>]=? ?-?\d+",
    ),
    _family(
        "empty-input",
        "value",
        "An input that must hold something is empty.",
        r"(is|are|was|be|got( an)?|an?) empty\b(?! (and|or)\b)|empty (input|string|list|sequence|array|data|file|graph|iterable|tuple|dict|set|frame|dataframe|series|value|name|path|parenthesized list)s?"
        r"|no (data|items|elements|values|rows|samples)\b|zero-length|(needs?|requires?) at least one|must (contain|have|be given) at least one"
        r"|at least one .+ (is |must be )?(required|needed|expected)|contains no|must be non-?empty|nonempty",
        None,
        r"^not \w+$|len\(.+\) == 0|== \[\]|== ''",
    ),
    _family(
        "invalid-format",
        "parsing",
        "Text does not follow the format the call parses.",
        r"invalid (format|syntax|literal|string|url|uri|address|date|time|datetime|email|expression|header|version|identifier|escape|character|token|json)s?"
        r"|malformed|could not (parse|decode)|cannot parse|failed to parse|unable to parse|unparsable|bad (format|escape|character|syntax)",
        r"pars(e|er|ing)|format|syntax|decod\w*",
    ),
    _family(
        "shape-mismatch",
        "data",
        "Arrays or tensors have shapes or lengths that do not fit together.",
        r"shapes? (mismatch|must|do(es)? not|don't|are not|is not|not aligned)|(incompatible|wrong|invalid|bad|different|unexpected|correct|same) (shape|dimension|ndim)s?"
        r"|not (the )?(correct|right|same) shape|dimensions? (must|do(es)? not|don't|mismatch|of .+ must)|must be (\d|one|two|three)-?(d|dimensional)\b"
        r"|length mismatch|lengths? (must|do(es)? not|don't) match|size mismatch|sizes? (must|do(es)? not) match"
        r"|must have the same (length|size|shape|number|dimension)\w*|broadcast\w*|ndim (must|should)|zero dimension\w*|must be square|non-?square",
        r"shape|dimension\w*",
        r"\.shape|\.ndim|len\(.+\) != len\(",
    ),
    _family(
        "length-mismatch",
        "data",
        "Two sequences that must have equal length do not.",
        r"length of .+ (does not|doesn't|must) match|lengths? (are )?(not equal|differ\w*)|same (length|number of)|(\d+|\{.*\}) (columns|values|items|elements) passed.+(\d+|\{.*\})",
        None,
        r"len\(.+\) != len\(",
    ),
    _family(
        "file-not-found",
        "io",
        "A file or directory that was named does not exist.",
        r"(files?|director(y|ies)|paths?|folders?)\b.*\b(not found|does not exist|doesn't exist|no such)|no such file|cannot find (the )?(file|path|directory)|not a (file|directory)",
        r"^file not found( error)?$|^not a directory( error)?$",
        r"exists\(\)|\.is_file\(\)|\.is_dir\(\)|os\.path\.(exists|isfile|isdir)",
        strong_class=True,
    ),
    _family(
        "file-exists",
        "io",
        "A file that is about to be created is already there.",
        r"(files?|director(y|ies)|paths?|folders?)\b.*\balready exists|exists and is not empty|(cannot|refus\w* to|will not|won't) overwrite",
        r"^file exists( error)?$",
        r"exists\(\)",
        strong_class=True,
    ),
    _family(
        "duplicate-entry",
        "value",
        "Something that must be unique was given or registered twice.",
        r"duplicat(e|es|ed)\b|already (exists|registered|defined|added|in use|present)|not unique|must be unique"
        r"|(given|passed|specified|defined|registered|used|appears?|occurs?|added) (more than once|twice)",
        r"duplicat\w*|already exists|conflict\w*",
        r"in self\.\w+",
    ),
    _family(
        "not-found",
        "lookup",
        "A name, key or item that was asked for does not exist.",
        r"not found|does not exist|doesn't exist|no such|cannot find|could not find|unable to find|unknown (key|name|id|column|field|table|index|node|attribute)s?|is not (defined|registered|present)|no (\w+ )?(named|called|matching|with (name|id))",
        r"not found|does not exist|no such|^key error$|^lookup error$",
    ),
    _family(
        "key-missing",
        "lookup",
        "A mapping lacks the key that was looked up.",
        r"key\b.*\b(not found|missing|not present|does not exist)|missing keys?|no key|unknown keys?|key ?error",
        r"^key error$",
        r"not in",
    ),
    _family(
        "index-out-of-range",
        "lookup",
        "A position is past the end of a sequence.",
        r"index .*out of (range|bounds)|out of bounds|list index|position .* (out of|beyond)|past the end",
        r"^index error$",
    ),
    _family(
        "attribute-missing",
        "lookup",
        "An object lacks the attribute that was read or set.",
        r"has no attribute|no attribute|attribute .* (not found|missing|does not exist)|can't set attribute|cannot set attribute|read-only attribute|object attribute .* is read-only",
        r"^attribute error$",
        r"hasattr\(",
    ),
    _family(
        "permission-denied",
        "permission",
        "The process may not read, write or run what it needs.",
        r"permission (denied|error)|(insufficient|no|lack\w*|without) permissions?|access (is )?denied|operation not permitted"
        r"|read-only file ?system|insufficient privileges|not (allowed|permitted) to (read|write|access|open|execute|create|delete)",
        r"^permission( denied)? error$|^access denied( error)?$",
        strong_class=True,
    ),
    _family(
        "io-failure",
        "io",
        "Reading or writing a file or stream failed.",
        r"(could not|cannot|can't|unable to|failed to) (read|write|open|close|save|load|flush|create|seek)\b"
        r"|error (while |when )?(reading|writing|opening|closing|saving|loading|flushing|seeking)\b"
        r"|i/o error|broken pipe|disk (is )?full|no space left|(read|write) (error|failed|failure)|short (read|write)"
        r"|unexpected end of (file|stream|data)|truncated (file|stream)",
        r"^(io|os) error$|stream error|^broken pipe error$",
        requires=_FILE_OR_STREAM,
    ),
    _family(
        "stream-consumed",
        "io",
        "A stream or iterator was read past what it can give again.",
        r"already (been )?(consumed|read|streamed)|stream (has been |is )?(consumed)|cannot (re-?read|rewind)",
        r"stream consumed|consumed",
    ),
    _family(
        "resource-closed",
        "state",
        "An object was used after it was closed or released.",
        r"(is|was|has been) closed|after (it was |being )?closed|on (a )?closed|already (closed|released|shut ?down|disposed)|operation on closed",
        r"closed",
    ),
    _family(
        "not-initialized",
        "state",
        "An object is used before the set-up step it needs.",
        r"not (yet )?(been )?(initiali[sz]ed|set up|setup|started|attached|fitted|trained|compiled|launched)\b"
        r"|must (first )?call|(call|run) \S+ (first|before)|must be called (first|before)|did you forget to call|has not been called"
        r"|uninitiali[sz]ed|not ready",
        r"not initiali[sz]ed|not fitted|uninitiali[sz]ed",
        r"self\.\w+ is none$|not self\._\w*(init|setup|started|launched|connected|fitted)\w*",
    ),
    _family(
        "already-initialized",
        "state",
        "A set-up step that may run once ran again.",
        r"already (been )?(initiali[sz]ed|set up|setup|configured|started|running|launched|connected|called|compiled|attached)|can only be called once|cannot be called (more than )?(twice|again)",
        None,
        r"self\._\w*(init|setup|started|launched|running)\w*",
    ),
    _family(
        "invalid-state",
        "state",
        "The object is in a state where this operation is not allowed.",
        r"(cannot|can't|unable to) .+ (while|during) \w+ing\b|(cannot|can't) .+ when not \w+ing\b|invalid state|in (the )?wrong state"
        r"|not in a valid state|illegal state|(is|are|was) not (currently )?(running|active|open|attached)\b|is (already )?(finished|done|shut ?down|stopped|closing)\b"
        r"|after (interpreter )?shutdown|in (the )?current state",
        r"^(invalid|illegal|bad) state( error)?$",
        strong_class=True,
    ),
    _family(
        "not-implemented",
        "not-implemented",
        "The library does not implement or support this operation, option or combination.",
        r"not (yet )?implemented|not supported( yet)?|unsupported operation|is not available for|no implementation|does not support|doesn't support|only supported (for|with|on|by|in)",
        r"not implemented|unsupported",
    ),
    _family(
        "abstract-method",
        "not-implemented",
        "A method meant to be overridden was called on a base class.",
        r"must (be )?(implement|overrid)\w*|(needs|has) to be (implemented|overridden)|subclass(es)? (must|should) (implement|override|define)|abstract\w*",
        r"^not implemented error$",
    ),
    _family(
        "deprecated-usage",
        "deprecation",
        "A name or argument that is deprecated or removed was used.",
        r"deprecat\w*|will be removed|has been removed|was removed|no longer (supported|used|available|accepted)|is obsolete|renamed",
        r"deprecat\w*|future warning|pending deprecation",
    ),
    _family(
        "missing-dependency",
        "dependency",
        "An optional package the feature needs is not installed.",
        r"(is|are) not installed|requires? (the )?[`'\"]?[\w.-]+[`'\"]? (package|library|module|to be installed)|pip install|please install|could not import|failed to import|not available\. install|no module named|optional dependenc\w*",
        r"^import error$|module not found|missing dependency|dependency error",
        r"_available|importlib\.util\.find_spec",
    ),
    _family(
        "version-incompatible",
        "dependency",
        "Installed versions of the library, its dependencies or Python do not work together.",
        r"versions?\b.*\b(required|requires|not supported|incompatible|or (newer|higher|later|above)|is too old)"
        r"|requires? (python|torch|numpy|pandas|\w+) ?(>=|<=|==|>|<)|(newer|older) (version|release)|upgrade|downgrade"
        r"|compiled (using|against|with) .+ versions?|please (upgrade|update)|python \d(\.\d+)* or (later|newer|higher|above)",
        r"version (conflict|mismatch|error)|incompatible version",
        r"_greater_equal|_less|version",
    ),
    _family(
        "platform-unsupported",
        "configuration",
        "The operating system, hardware or accelerator is not supported.",
        r"(not|isn't|is not) (supported|available) on (this )?(platform|windows|macos|linux|mps|tpu|cpu|gpu|cuda|hpu)|requires? (a )?(gpu|cuda|tpu|linux|windows|macos)|cuda is not available|no (gpu|cuda|tpu)s?",
        None,
        r"sys\.platform|platform\.system|_is_windows|cuda\.is_available|_tpu_available|mps",
    ),
    _family(
        "device-mismatch",
        "data",
        "Tensors or objects live on different devices.",
        r"(different|same) devices?|device mismatch|expected .* on device|on (the )?(cpu|gpu|cuda|meta) device",
    ),
    _family(
        "dtype-mismatch",
        "type",
        "Array or tensor element types do not fit the operation.",
        r"(invalid|unsupported|wrong|incompatible|unexpected|different|mismatched|unknown|bad|non-numeric) (d|data ?)types?"
        r"|(d|data ?)types? (mismatch|(is|are) not supported|not supported|must|should|do(es)? not match|not understood|not inexact)"
        r"|with (\w+ )?dtype \S+|of dtype \S+ (is|are) not|must have (d|data ?)type|cannot (safely )?cast|casting|losslessly cast"
        r"|datatype is not supported",
        None,
        r"\.dtype",
    ),
    _family(
        "configuration-invalid",
        "configuration",
        "A setting or configuration value is invalid or inconsistent.",
        r"(invalid|bad|wrong|inconsistent|unknown|unsupported|conflicting) (config(uration)?|settings?)s?\b"
        r"|config(uration)? (is )?(invalid|error|problem|not valid|could not be loaded)|(is )?not a valid config(uration)?"
        r"|misconfigur\w*|improperly configured|config(uration)? files?\b.*\b(could not|cannot|invalid|error|not found)"
        r"|(\.ini|\.toml|\.cfg|\.ya?ml)\b.*\b(invalid|error|missing)",
        r"config(uration)?|misconfigur\w*|settings|improperly",
    ),
    _family(
        "environment-variable",
        "configuration",
        "An environment variable is missing or holds a bad value.",
        r"environment variables?|env(ironment)? vars?|os\.environ",
        None,
        r"os\.environ|getenv",
    ),
    _family(
        "connection-failed",
        "network",
        "A network connection could not be made or was lost.",
        r"connect(ion)? (refused|reset|failed|error|aborted|closed|lost)|could not connect|unable to connect|failed to (establish|connect)|host (unreachable|not found)|name resolution|network (is )?unreachable|max retries",
        r"connect(ion)? error|connection (refused|reset|aborted)|network error|max retry|new connection|protocol error",
    ),
    _family(
        "timeout",
        "network",
        "An operation did not finish within its time limit.",
        r"timed out|time ?out (occurred|expired|exceeded|reached|error|connecting|waiting)|(read|write|connect|connection|pool|request|operation) time ?out|deadline (exceeded|passed)|took (too long|longer than)",
        r"time ?out|timed out",
        strong_class=True,
    ),
    _family(
        "http-status-error",
        "http",
        "A server answered with an HTTP error status.",
        r"[45]\d\d\b.*\b(error|client|server|not found|forbidden|unauthori[sz]ed)|status codes?|http error|client error|server error",
        r"http error|http status|status error|http exception|bad request|not found|unauthori[sz]ed|forbidden|internal server error",
        None,
        HTTP,
    ),
    _family(
        "invalid-url",
        "network",
        "A URL is malformed or uses a scheme the call does not handle.",
        r"(invalid|malformed|bad|unsupported|unknown) (urls?|uris?|(url )?schemes?|hostnames?|host names?)"
        r"|(urls?|uris?)\b.*\b(invalid|malformed|not (valid|supported)|unsupported|must (start with|be absolute|include|have a))"
        r"|missing (an? )?(url )?schema|no (url )?schema supplied|schemes? (is )?(not supported|missing|invalid|unknown)|no host (supplied|given|specified)",
        r"invalid url|url error|invalid schema|missing schema|unsupported protocol|location parse",
    ),
    _family(
        "ssl-error",
        "security",
        "A TLS/SSL handshake or certificate check failed.",
        r"(ssl|tls)\b.*\b(error|failed|failure|alert)|certificate (verify |verification )?(failed|error|invalid|expired|is not valid|has expired)"
        r"|handshake (failed|error|timed out)|certificate verify failed|verify failed|(wrong|unknown|bad) (ssl|tls) version|hostname .+ doesn't match",
        r"ssl|certificate",
    ),
    _family(
        "authentication-failed",
        "security",
        "Credentials are missing, wrong or expired.",
        r"authentication (failed|failure|error|required)|(invalid|bad|wrong|incorrect|expired) (credentials?|passwords?|tokens?|api keys?|username or password)"
        r"|(credentials?|passwords?|tokens?|api keys?) (is |are )?(invalid|expired|incorrect|wrong|rejected)|login (failed|incorrect|required)"
        r"|not (logged in|authenticated)|unauthori[sz]ed",
        r"auth|authenticat\w*|credentials?|login|unauthori[sz]ed|oauth2?",
    ),
    _family(
        "rate-limited",
        "network",
        "A service refused the request because too many were made.",
        r"rate[- ]limit\w*|too many requests|throttl\w*|quotas? (exceeded|reached)",
        r"rate limit\w*|throttl\w*|too many requests",
    ),
    _family(
        "redirect-loop",
        "http",
        "Requests were redirected too often or in a cycle.",
        r"too many redirects|redirect(ion)? (loop|cycle)|exceeded \d+ redirects|redirects? (exceeded|limit)",
        r"redirect\w*",
        None,
        HTTP,
    ),
    _family(
        "encoding-error",
        "encoding",
        "Bytes and text could not be converted with the encoding in use.",
        r"(can't|cannot|could not|unable to|failed to) (en|de)code|codec can't|(invalid|illegal|bad) (start |continuation )?(bytes?|characters?)\b"
        r"|non-ascii|not (valid )?(utf-?\d+|ascii)\b|(en|de)coding (error|failed)|surrogates? not allowed|ordinal not in range",
        r"^unicode( \w+)? error$|(en|de)cod\w* error|charset",
    ),
    _family(
        "serialization-error",
        "parsing",
        "A value could not be serialised or deserialised (JSON, pickle, YAML).",
        r"(cannot|can't|could not|unable to|failed to) (be )?(seriali[sz]e|deseriali[sz]e|pickle|unpickle|marshal|unmarshal)\w*"
        r"|(is not|not) (json|pickle|yaml)[- ]?(seriali[sz]able|compatible)|(seriali[sz]ation|pickling|unpickling|marshal\w*) (error|failed|failure)"
        r"|(invalid|malformed|bad) (json|yaml|pickle)|as a pickle|expecting value|unterminated string|pickle\b.*\b(negative|truncated|invalid|corrupt\w*)",
        r"json|pickl\w*|seriali[sz]\w*|yaml|marshal\w*",
    ),
    _family(
        "schema-validation",
        "validation",
        "Data does not satisfy the schema or validator it is checked against.",
        r"(is )?not valid under (any of )?the (given )?schema|does not match (the )?(schema|pattern)|failed validating|additional properties (are )?not allowed"
        r"|validation (error|failed)|\d+ validation errors?|(fails?|failed) (to )?validat\w*",
        r"validation (error|exception)|schema (value )?(error|exception)",
        strong_class=True,
    ),
    _family(
        "regex-invalid",
        "parsing",
        "A regular expression pattern does not compile.",
        r"regular expressions?|regex\w*|(invalid|bad) pattern|pattern (is )?invalid|unterminated (subpattern|character set)|nothing to repeat|bad escape|unbalanced parenthesis|look-?behind",
        r"pattern error|regex error",
    ),
    _family(
        "sql-error",
        "database",
        "A SQL statement failed when the database ran it, or could not be compiled into SQL.",
        r"\bsql\b.*\b(error|failed|invalid|syntax)|(insert|update|delete|select|merge|upsert) statements? (on|for|to|against|with|of|in|that|did|failed|returned|expected)\b"
        r"|statements? (failed|error|execution|could not)|(could not|cannot|can't|unable to|failed to) (execute|render)\b"
        r"|execut\w+ .*\b(statement|query|sql)|syntax error (at or near|in)|no such (table|column)|(table|relation) .+ (does not exist|not found)"
        r"|expected to (update|delete)|were matched|database is locked|cursor (is|was|has been) closed"
        r"|(cannot|can't) (operate|fetch) on a closed (cursor|database|connection)",
        r"^(dbapi|database|operational|programming|interface|statement|compile|unsupported compilation|sql|sqlite|integrity"
        r"|internal|not supported|stale data|no such table|no such column)( error)?$",
        None,
        DATABASE,
        strong_class=True,
    ),
    _family(
        "integrity-constraint",
        "database",
        "A write breaks a uniqueness, foreign-key or not-null constraint.",
        r"(unique|foreign key|not[- ]null|check) constraint (failed|violat\w*)|violates (unique|foreign key|not-null|check)|integrity (error|constraint)"
        r"|duplicate key value|constraint failed|foreign key (mismatch|violation|constraint fails)",
        r"^integrity( error)?$",
        None,
        DATABASE,
        strong_class=True,
    ),
    _family(
        "no-result",
        "database",
        "A query that must return a row returned none.",
        r"no row was found|no results? (was |were )?found|returned no rows|no rows (returned|found)|0 rows|not exactly one",
        r"^no result found$",
        None,
        DATABASE,
        strong_class=True,
    ),
    _family(
        "multiple-results",
        "database",
        "A query that must return one row returned several.",
        r"multiple (rows|results)|more than one (row|result|match)|returned \d+ rows|multiple matches",
        r"^multiple results found$|^multiple objects returned$",
        None,
        DATABASE,
        strong_class=True,
    ),
    _family(
        "orm-mapping-error",
        "database",
        "A class, attribute or relationship is not mapped as the ORM expects.",
        # in an ORM library: the message speaks of mapping and says what is wrong with it
        r"(mappers?|mapped|mapping|unmapped|relationships?|backrefs?|back_populates|polymorphic\w*|declarative|__tablename__|__table__)\b.*"
        r"\b(not|no|can't|cannot|expected|expects|must|only|already|failed|invalid|unknown|requires?|does not|doesn't|got|conflict\w*|could not|unable)\b"
        r"|\b(not|no|can't|cannot|expected|expects?|must|only|already|failed|invalid|unknown|could not|unable to)\b.*"
        r"\b(mappers?|mapped|unmapped|relationships?|backrefs?|polymorphic\w*|declarative)",
        r"mapper|unmapped|^orm|mapping",
        None,
        ORM,
    ),
    _family(
        "session-state",
        "database",
        "An ORM session is used in a state that does not allow it.",
        r"(session|transaction)\b.*\b(is (closed|inactive|not active|already|in progress|being|not bound)|has been (closed|rolled back)|not (active|bound|begun|persistent)|rolled back|autobegin is disabled)"
        r"|(is|was) (detached|not persistent|not bound|transient|pending)\b|detached instance|not bound to (a|any) session|(during|in) (a )?flush|flush (is )?(already )?in progress"
        r"|(instance|object) .+ (is not present|is not persisted|is already attached)|invalid transaction is rolled back|this transaction is (inactive|closed)",
        r"session|detached|transaction",
        None,
        ORM,
    ),
    _family(
        "http-session-state",
        "http",
        "An HTTP client or web session is used in a state that does not allow it.",
        r"session (is |has been |was )?(closed|not open|already|expired)",
        r"session",
        None,
        HTTP,
    ),
    _family(
        "concurrency-conflict",
        "concurrency",
        "Threads, processes or tasks interfered with each other.",
        r"deadlock\w*|race condition|(lock|mutex)\b.*\b(unavailable|not (held|acquired|owned)|already (held|acquired|locked)|released too many times)"
        r"|un-?acquired lock|(another|different|other) (thread|process)|(from|in) (a |the )?(different|other|wrong|another|non-main|main) thread"
        r"|not (thread-?safe|the main thread|in the main thread)|concurrent (modification|access|update|use)|changed size during iteration"
        r"|already (locked|acquired)|in use by another|cannot join (the )?current thread|threads? can only be started once",
        r"lock|deadlock|concurren\w*|thread|race",
        r"threading|lock(ed|s)?",
    ),
    _family(
        "async-misuse",
        "concurrency",
        "Async code was called from the wrong context (no loop, not awaited, wrong thread).",
        r"(no|no running|no current) event loop|event loop is (closed|running|already running)|(cannot|can't) be called (from|when|while) (a |the )?running (event )?loop"
        r"|never awaited|not awaited|(is|was) not a coroutine|expected (a )?coroutine|must be (a )?coroutine|coroutine\w*\b.*\b(not|expected|required|must|cannot|never)"
        r"|(await|async)\w*\b.*\b(outside|not allowed|cannot|can't|required|must|only|not supported)|(in|from) (a )?(different|another|other) (event )?loop"
        r"|attached to a different loop|running (event )?loop",
        r"async\w*|await\w*",
    ),
    _family(
        "cancelled",
        "concurrency",
        "An operation was cancelled before it finished.",
        r"(was|been|is|got|operation|task|future|request|job) (cancel+ed|aborted)|cancel+ed (by|before|while)",
        r"cancel\w*",
        strong_class=True,
    ),
    _family(
        "recursion-limit",
        "resource",
        "Nesting or recursion went deeper than allowed.",
        r"recursion (limit|depth|error|detected)|maximum recursion|(too|nested too) deep(ly)?|maximum (nesting )?depth|nesting (depth|level|limit)"
        r"|circular (reference|import|dependency|dependencies|references)|recursive (reference|definition|structure|loop)",
        r"recursion|circular",
        strong_class=True,
    ),
    _family(
        "memory-exhausted",
        "resource",
        "The process or device ran out of memory.",
        r"out of memory|(not enough|insufficient|ran out of|cannot allocate|could not allocate|failed to allocate|unable to allocate) (\w+ )?(memory|space|bytes)"
        r"|memory (error|exhausted|limit|allocation failed)|\boom\b",
        r"memory|oom",
        strong_class=True,
    ),
    _family(
        "resource-exhausted",
        "resource",
        "A pool, quota or limit of some resource ran out.",
        r"pool (is )?(exhausted|full|limit)|too many (open|files|connections|handles)|limit (reached|exceeded)|no (free|more) (slots|connections|handles|workers|file descriptors)|exhausted",
        r"pool timeout|exhausted|resource warning|limit exceeded",
    ),
    _family(
        "iteration-stopped",
        "value",
        "An iterator or generator ended earlier or later than the code expected.",
        r"generator didn't (yield|stop)|stop ?iteration",
        r"^stop (async )?iteration$",
        strong_class=True,
        requires=_ITERATION_END,
    ),
    _family(
        "immutable-modification",
        "state",
        "Code tried to change something that is frozen or read-only.",
        r"(is|are) (immutable|frozen|read-?only)\b|immutable (object|instance|mapping|sequence|type)s?|frozen (instance|dataclass|object)s?"
        r"|read-?only (attribute|property|array|view|mapping|buffer)s?|can't (set|modify|delete) attribute|cannot (set|delete|modify) (the )?'?\S+'? attribute"
        r"|does not support item (assignment|deletion)|is not writable|not (mutable|modifiable)",
        r"frozen|immutable|read ?only",
    ),
    _family(
        "unhashable-value",
        "type",
        "A value that cannot be hashed was used as a key or set member.",
        r"unhashable|not hashable|hashable",
    ),
    _family(
        "division-by-zero",
        "value",
        "A division or modulo by zero.",
        r"division by zero|divide by zero|divided by zero|zero division",
        r"zero division",
        strong_class=True,
    ),
    _family(
        "numeric-invalid",
        "value",
        "A number is NaN, infinite or otherwise not usable here.",
        r"(nan|inf|infinit(e|y)) (values?|weights?|numbers?|floats?|found|encountered|slice|axis|is not|are not|cannot|not allowed|to integer)\b"
        r"|(contains?|containing|has|have|include|includes|got|with|convert|converting|float) (an? )?(nan|inf|infinite|infinity)\b"
        r"|not a number|non-finite|must be finite|not finite|all-nan|non-nan",
        r"floating point|arithmetic",
        r"isnan|isinf|isfinite",
    ),
    _family(
        "precision-loss",
        "value",
        "A conversion would lose precision or overflow the target type.",
        r"(lose|loses|losing|lost|loss of) precision|precision (loss|would be lost)|would be truncated|truncat(ed|ion) (of|to|when|would)|lossy"
        r"|rounding (error|would)|overflow(s|ed)? (in|when|during|occurred|encountered)|(integer|int|float|value|result|number) overflow"
        r"|too large to (convert|be represented|fit)|cannot be represented|not (exactly )?representable",
        r"overflow|precision|inexact",
    ),
    _family(
        "date-time-invalid",
        "parsing",
        "A date, time or time zone is out of range or malformed.",
        r"(day|month|year|hour|minute|second|microsecond|week|weekday)s? (is |must be |are )?(out of range|in \d|must be|between|invalid)"
        r"|(invalid|bad|unknown|ambiguous|nonexistent|non-existent) (date|time|datetime|timestamp|time ?zone|tz|timedelta|utc offset|offset)s?\b"
        r"|(date|time|datetime|timestamp|time ?zone|timedelta)s? (string )?(is |are )?(out of (range|bounds)|invalid|malformed|not valid|could not be parsed|cannot be parsed)"
        r"|no time ?zone found|tz-?(naive|aware)|time ?zone (aware|naive|information)|iso ?8601|does not match format|unconverted data remains"
        r"|out of bounds (nanosecond )?timestamp",
        r"date|datetime|timedelta|timestamp|tzinfo|zone|timezone",
    ),
    _family(
        "path-invalid",
        "io",
        "A path is malformed, relative where absolute is needed, or outside an allowed root.",
        r"invalid (file ?names?|path ?names?|paths?)|path\b.*\b(invalid|must be (absolute|relative|normali[sz]ed)|should be (absolute|relative)|not allowed|outside|is absolute|is relative)"
        r"|not an absolute path|(must|should) be (an )?(absolute|relative|normali[sz]ed relative) paths?|relative paths? (are )?not|outside (of )?(the )?(root|directory|base)|path traversal",
        None,
        r"is_absolute\(\)|os\.path\.isabs",
    ),
    _family(
        "template-error",
        "parsing",
        "A template could not be found, parsed or rendered.",
        r"template\w*\b.*\b(not found|error|syntax|invalid|could not|cannot|failed|missing|unexpected|expected)|(is|was) undefined"
        r"|undefined (variable|name|filter|test)s?|no (filter|test|template) named|unexpected end of template|expected token|encountered unknown tag|unknown tag"
        r"|(invalid|bad|unexpected|unterminated) (placeholder|template|tag|block|filter)",
        r"template|undefined",
        None,
        TEMPLATE,
        strong_class=True,
    ),
    _family(
        "cli-usage-error",
        "cli",
        "A command line was called with wrong arguments or options.",
        r"no such (option|command)|missing (argument|option|parameter)|got unexpected extra (argument|arguments)|requires (an )?argument"
        r"|(option|argument) .+ (requires|not recognized|not a unique prefix|is required|expected|invalid choice)|unrecognized arguments"
        r"|the following arguments are required|invalid (value|choice) for|usage:|does not take a value|ambiguous option",
        r"usage|bad parameter|bad option|bad argument|missing parameter|no such option|no such command|^argument( type)? error$"
        r"|getopt error|option value error|bad option usage",
        None,
        CLI,
        strong_class=True,
    ),
    _family(
        "user-abort",
        "cli",
        "The user declined a prompt or interrupted the program.",
        r"aborted!?|^abort\b|user (aborted|declined|cancelled)|declined|cancelled by (the )?user",
        r"^abort$|keyboard interrupt",
        None,
        CLI,
        strong_class=True,
    ),
    _family(
        "assertion-failed",
        "assertion",
        "An internal consistency check (``assert``) failed.",
        None,
        r"^assertion error$",
    ),
    _family(
        "internal-invariant",
        "assertion",
        "The library detected a state it believes cannot happen: a bug or misuse of internals.",
        r"should (never|not) happen|internal error|unreachable|this is a bug|please report|unexpected (state|condition)|invariant|sanity check",
        r"internal|bug|unreachable",
    ),
    _family(
        "warning-only",
        "warning",
        "A warning: the program goes on, but the library flags a likely problem.",
        None,
        r"warning$",
    ),
    _family(
        "data-missing-values",
        "data",
        "Data holds missing values (None, NaN, NA) where values are required.",
        r"missing values|contains (nan|null|none|na)|null values?|na values|nan values|non-null|may not be null|cannot be null",
        None,
        r"isna\(|isnull\(",
    ),
    _family(
        "column-missing",
        "data",
        "A table or frame lacks a column that was named.",
        r"column .*(not found|does not exist|missing|not in)|no column|unknown column|not (found )?in (the )?(columns|axis|index)|columns? .* (are|is) missing",
        None,
        r"not in .*columns",
    ),
    _family(
        "index-alignment",
        "data",
        "Frames or series indexes do not line up for the operation.",
        r"index(es)? (must|do(es)? not|are not) (match|align|unique|be unique|monotonic)|cannot reindex|non-unique|not monotonic|unaligned|alignment",
        None,
        r"\.is_unique|\.is_monotonic\w*",
    ),
    _family(
        "grouping-error",
        "data",
        "A group-by or aggregation cannot be done as asked.",
        r"(cannot|can't|unable to|could not|failed to) .*\b(group ?by|aggregat\w*)|(group ?by|aggregat\w*|groupers?)\b.*\b(not (supported|allowed|possible|implemented)|failed|must|invalid|cannot|ambiguous|requires?)"
        r"|(invalid|unknown|unsupported) (aggregation|agg|grouper|grouping|group key)s?|no numeric types to aggregate|must produce aggregated value",
        r"group\w*|aggregat\w*",
    ),
    _family(
        "graph-structure",
        "data",
        "A graph lacks a node, edge or property the algorithm needs.",
        r"(node|edge)s?\b.*\b(not in|not found|does not exist|doesn't exist|missing|not present|not contained)|no (such )?(node|edge|path)s?\b"
        r"|(graph|digraph|multigraph|g)\b.*\b(is not|isn't|not|must be|should be|has no|has|contains|must have|must contain|cannot be|is empty)\b.*\b(connected|directed|undirected|acyclic|trees?|forest|bipartite|dag|planar|eulerian|complete|weighted|cycles?|self[- ]?loops?|nodes|edges|multigraph|triad|regular|chordal)\b"
        r"|not (strongly |weakly |bi)?connected|(has|contains) (a )?(cycle|self[- ]?loops?|negative (weight )?cycle)|(is|are) not (a )?(dag|tree|forest|bipartite|planar)"
        r"|not defined for (directed|undirected|multi|empty|null)\w*|(empty|null) graph|not implemented for (directed|undirected|multi)\w*",
        r"node not found|no path|no cycle|has a cycle",
        None,
        GRAPH,
        strong_class=True,
    ),
    _family(
        "model-not-fitted",
        "state",
        "A model or estimator is used before it was fitted or trained.",
        r"not (been )?fitted|fit\b.*\bfirst|call .?fit.? before|not trained|before (fitting|training)",
        r"not fitted",
    ),
    _family(
        "checkpoint-invalid",
        "io",
        "A saved checkpoint or state file is missing, corrupt or from another version.",
        r"checkpoint\w*\b.*\b(not found|does not exist|doesn't exist|missing|corrupt\w*|invalid|incompatible|not (a valid|compatible)|could not be (loaded|found|read)|failed to load|mismatch\w*|from (an? )?(older|newer|different) version)"
        r"|(missing|unexpected) keys?\b.*\b(state[_ ]dict|checkpoint)|state[_ ]dict\b.*\b(missing|unexpected|mismatch\w*|invalid|does not (match|contain))"
        r"|error\w* in loading state[_ ]dict|(invalid|corrupt\w*|bad|malformed) (checkpoint|ckpt|state[_ ]dict)|no checkpoint (found|file)",
        r"checkpoint",
    ),
    _family(
        "distributed-setup",
        "distributed",
        "A distributed or multi-process run is not set up as the call requires.",
        r"(distributed|process group)\b.*\b(not (initiali[sz]ed|available|set up|supported)|is not|must|required|requires?|already|failed|cannot)"
        r"|world[_ ]size\b.*\b(must|should|mismatch|not|does not|doesn't)|(global|local|node)[_ ]rank\b.*\b(must|should|!=|not|mismatch)"
        r"|(ddp|fsdp|deepspeed|xla|model parallel|data parallel|tensor parallel|strategy|strategies)\b.*\b(not supported|does not support|doesn't support|can only be used|requires?|is not available|not available|cannot be used|only supports?|is only supported|are not supported)"
        r"|(not supported|cannot be used|only works?|can only be used) (with|on|in|when using) (ddp|fsdp|deepspeed|xla|tpu|multi-?(gpu|node|process)|distributed|the \w+ strategy|strategy)"
        r"|num_nodes\b.*\b(must|should|not)|(nccl|gloo|mpi)\b.*\b(not available|is not|not supported|failed)|multi-?(gpu|node|process)\w*\b.*\b(not supported|requires?|cannot)"
        r"|(devices|accelerators?)\b.*\b(do(es)? not match|don't match|mismatch)|(before|after) (the )?processes have (spawned|initiali[sz]ed)",
        r"distributed|process group",
        r"strategy|world_size|is_initialized\(\)|global_rank",
        DISTRIBUTED,
    ),
    _family(
        "hook-misuse",
        "configuration",
        "A callback or hook was registered or called in a way it does not allow.",
        r"(hooks?|callbacks?)\b.*\b(must (be|return|accept|take|have)|should (be|return|accept)|cannot be|can't be|is not (callable|registered|a valid|supported)|not (allowed|supported|callable|registered|overridden)|already (registered|exists|attached|defined)|twice|more than once)"
        r"|(invalid|unknown|unsupported) (hooks?|callbacks?)|overrid\w* (the )?`?\w+`? hook",
        r"hook|callback",
    ),
    _family(
        "plugin-not-registered",
        "configuration",
        "A plugin, backend or entry point that was named is not registered.",
        r"(plugins?|backends?|entry[_ ]points?|extensions?|registry|registered|drivers?|engines?|loaders?|providers?)\b.*\b(not (found|registered|available|installed|known)|unknown|invalid)|no (such |registered )?(plugin|backend|driver|engine|provider)s?|unknown (plugin|backend|driver|engine|provider)s?",
        r"plugin|backend|registry|no such module|entry ?point",
    ),
    _family(
        "name-conflict",
        "value",
        "A name clashes with one that is reserved or already taken.",
        r"reserved|shadow\w*|clash\w*|name conflict|conflicts? with (a |the )?(protected|reserved|existing|built-?in)|already (taken|used|defined)|cannot be named|is a keyword",
        None,
    ),
    _family(
        "identifier-invalid",
        "value",
        "A name, identifier or key is not in the form the call requires.",
        r"(not a valid|invalid) (python )?(identifier|name|key|label|variable name|attribute name|tag)s?|must be a valid (identifier|name)|isidentifier",
        None,
        r"isidentifier\(\)",
    ),
    _family(
        "size-limit",
        "value",
        "An input is larger than the call allows.",
        r"too (large|long|big)|exceeds (the )?(max\w*|limit|size|length)|max(imum)? (size|length) (exceeded|is|of)|(is |are )?(larger|longer|bigger) than (the )?(max\w*|limit|allowed)|content[- ]length|(size|length) limit",
        r"too large|limit exceeded",
    ),
    _family(
        "security-violation",
        "security",
        "The input was refused as unsafe (unsafe path, untrusted data, insecure setting).",
        r"(unsafe|insecure|untrusted) (paths?|urls?|inputs?|data|files?|content|operations?|settings?|archives?|members?|links?|filenames?|pickles?|code|deseriali[sz]\w*)"
        r"|refus\w* .+ (unsafe|insecure|untrusted)|security (risks?|issues?|violations?|reasons?|errors?)|path traversal|injection|csrf|xss"
        r"|sandbox\w* (violation|escape|error)|(is not|not) allowed for security",
        r"security|suspicious|csrf",
    ),
    _family(
        "signature-mismatch",
        "argument",
        "A callable passed in does not accept the arguments it will be called with.",
        r"(different|incompatible|wrong|invalid|unrecognized|unexpected|bad|unsupported) (function )?signatures?\b(?! for)|signatures? (do(es)? not match|mismatch|differ)"
        r"|does not implement the correct signature|must accept|should accept|takes no arguments|callable must|function must (take|accept|have)"
        r"|positional-only arguments? passed as keyword",
        None,
        r"signature\(|inspect\.",
    ),
    _family(
        "return-value-invalid",
        "value",
        "A user-supplied callable or hook returned something the library cannot use.",
        r"must return|should return|expected .* to return|did not return|(returned|returns) (an? )?(invalid|unexpected|non-|none\b|wrong|bad|incorrect|unsupported|numpy scalar|nothing)"
        r"|return (value|type) (of|from|must|should|is|was)|invalid return (value|type)|(must|should) have returned",
        None,
    ),
    _family(
        "inheritance-misuse",
        "type",
        "A class was subclassed or registered in a way the library does not allow.",
        r"(cannot|can't) (subclass|inherit)|(must|should) (subclass|inherit|derive)|inherit\w* from (both|final|plain)|(is|are) not (an? )?(acceptable )?base (class|type)"
        r"|final class|metaclass conflict|consistent (mro|method resolution)|subclass\w* (must|should) (not )?(define|override|implement|set|have)"
        r"|not allowed to (subclass|inherit)|cannot be subclassed|must be (a )?subclass",
        None,
        r"issubclass\(",
    ),
    _family(
        "mode-mismatch",
        "io",
        "A file or object was opened in one mode and used in another (text/binary, read/write).",
        r"(text|binary|bytes|str) mode|opened (in|for) (read|write|text|binary)|not (open )?(readable|writable|seekable)|must be opened|not open for (reading|writing)",
        r"unsupported operation",
        r"\.mode|'b' in|readable\(\)|writable\(\)",
    ),
    _family(
        "locale-or-charset",
        "encoding",
        "A locale or character set is missing or not supported.",
        r"(unsupported|unknown|invalid|bad) (locale|charset)s?|locale\b.*\b(not (supported|available|found|installed)|unsupported|invalid|error)|charset\b.*\b(not (supported|available|found|known)|unknown|invalid)",
        r"locale",
    ),
    _family(
        "exit-requested",
        "exit",
        "The program asked to exit (``sys.exit``), with this message or status.",
        None,
        r"^system exit$",
        strong_class=True,
    ),
    _family(
        "keyboard-interrupt",
        "cli",
        "The user interrupted the program (Ctrl-C).",
        r"keyboard interrupt|ctrl-c",
        r"keyboard interrupt",
        strong_class=True,
    ),
    _family(
        "subprocess-failed",
        "resource",
        "A command the library ran exited with an error.",
        r"(commands?|process|subprocess)\b.*\b(failed|returned non-zero|exit (code|status))|non-zero exit|exited with",
        r"called process|subprocess",
    ),
    _family(
        "lazy-import-failed",
        "dependency",
        "A module loaded on first use failed to import.",
        r"lazy(ily)? (import|load)\w*|lazy module|on first use|failed to load module|could not load module",
        r"lazy import",
    ),
    _family(
        "pickle-unsafe",
        "security",
        "Loading pickled data was refused because it could run code.",
        r"weights_only|unpickl\w*\b.*\b(unsafe|untrusted|not allowed|forbidden)|pickle\b.*\b(unsafe|untrusted)|allowlist|safe_globals",
    ),
    _family(
        "random-seed",
        "configuration",
        "Random number generation or seeding was misused.",
        r"(invalid|bad) (seed|random state|rng)|seeds?\b.*\b(must|should|invalid|expected|cannot)|random[_ ]state\b.*\b(must|should|invalid|cannot)|(cannot be used|not a valid) (as a )?(seed|random state)",
        None,
        r"seed\w*",
    ),
    _family(
        "unit-mismatch",
        "data",
        "Values are in units or scales that do not fit together.",
        r"incompatible units|unit mismatch|different units|units? (must|do not) match",
        None,
    ),
    _family(
        "sort-order",
        "data",
        "Data must be sorted or monotonic and is not.",
        r"must be sorted|not sorted|monotonic|(ascending|descending) order",
        None,
        r"is_monotonic\w*|sorted\(",
    ),
)

#: Tags a record may carry besides its package: a small controlled vocabulary.
VOCABULARY = frozenset(
    {
        "argument", "type", "value", "state", "configuration", "dependency", "io", "network",
        "http", "database", "parsing", "encoding", "concurrency", "permission", "deprecation",
        "not-implemented", "lookup", "validation", "assertion", "warning", "resource", "cli",
        "data", "distributed", "security", "exit",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Classified:
    tag: str
    kind: str
    confidence: float
    #: Which facts matched its rules: ``message``, ``class``, ``condition``, ``parameter`` (a
    #: guard tests that a parameter was not given); and ``library`` for a family about one kind
    #: of library, which the record is in.
    evidence: tuple[str, ...]


#: A placeholder of the message (``{missing_labels}``): code, not the library's words.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def classify(
    message: str,
    error_class: str | None,
    conditions: list[str],
    place: Place | None = None,
    absent: Collection[str] = (),
) -> Classified | None:
    """The family whose rules the facts satisfy best, or None when none is convincing.

    A family scores the weights of its matching rules; a tie goes to the family listed first
    (the more specific ones come first).  A family about one kind of library is considered
    only where ``place`` is in one; without a place, never.  A family with a requirement
    (a missing argument: a parameter in ``absent``, the parameters the guards test as not
    given) is considered only where it is met.
    """
    facts = Evidence(
        words(_PLACEHOLDER.sub("{}", message)),
        words((error_class or "").rpartition(".")[2]),
        "\n".join(words(c) for c in conditions),
        frozenset(absent),
    )
    best: Classified | None = None
    for family in FAMILIES:
        if family.about is not None and (place is None or not place.within(family.about)):
            continue
        if family.requires is not None and not family.requires.test(facts):
            continue
        evidence = _evidence(family, facts)
        if not evidence:
            continue
        weights = {**_WEIGHTS, "class": family.class_weight}
        score = min(1.0, sum(weights.get(e, _WEIGHTS["condition"]) for e in evidence))
        if score >= THRESHOLD and (best is None or score > best.confidence):
            library = ("library",) if family.about is not None else ()
            best = Classified(family.tag, family.kind, round(score, 2), (*evidence, *library))
    return best


def _evidence(family: Family, facts: Evidence) -> list[str]:
    evidence = []
    if family.message is not None and family.message.search(facts.message):
        evidence.append("message")
    if family.error_class is not None and facts.cls and family.error_class.search(facts.cls):
        evidence.append("class")
    if family.condition is not None and facts.tests and family.condition.search(facts.tests):
        evidence.append("condition")
    if evidence and family.requires is not None and family.requires.name is not None:
        evidence.append(family.requires.name)
    return evidence


def classify_record(record: Record) -> Classified | None:
    """``classify`` on the record's message, class, conditions, place and absent parameters."""
    return classify(
        record.error_message,
        record.error_class,
        record.conditions,
        place_of(record),
        absent_parameters(record),
    )


#: The guards whose ``code`` says when the site is reached.
_TESTS = frozenset({"if", "elif", "else", "assert", "early-exit"})
#: Defaults that stand for "not passed" besides ``None`` (``lib.no_default``, ``_MISSING``).
_SENTINEL = re.compile(r"_*(no_?default|missing|not_?set|unset|sentinel|marker|empty)_*", re.IGNORECASE)


def absent_parameters(record: Record) -> frozenset[str]:
    """The function's parameters that the guards on the path to the record test as not given.

    A guard counts where its test, as the reader split it (``subject operator operand``, its
    ``not`` folded in), says the parameter was not passed: ``x is None``, ``x == None``,
    ``x is lib.no_default``; ``not x`` only where ``x`` defaults to None or an empty literal, or
    is ``*args`` (``not allow_copy`` with ``allow_copy=False`` tests a flag, ``not cert`` of a
    required ``cert`` an empty value, not a missing argument); a ``**kwargs`` parameter where a
    key is tested ``not in`` it.  Only the test nearest the raise counts, or one on a parameter
    the message names: an early ``if filter is not None: raise`` says nothing of what a later
    raise is about.  Never a parameter the body rebound before the raise (a guard on it tests
    the function's own value), nor ``self``.  Read from the guards' structured reading; a
    Python test the reader did not split (an ``and``/``or``) is split by scanning its code
    (``_none_given``), never parsed: prose is written while a store is read, where nothing is.
    """
    facts = record.facts
    if not facts.parameters:
        return frozenset()
    rebound = set(facts.rebound)
    kinds = {
        p.name: p.kind if p.default in _EMPTY_DEFAULTS or p.kind.startswith("var-") else "flag"
        for p in facts.parameters
        if p.name not in rebound and p.name not in ("self", "cls")
    }
    python = record.language == "python"
    tests = [g for g in facts.guards if g.kind in _TESTS and (g.operator or (python and g.code))]
    found: set[str] = set()
    for i, guard in enumerate(tests):
        names = _not_given(guard, kinds) if guard.operator else _none_given(guard.code or "", kinds)
        if i < len(tests) - 1:  # not the nearest test: only the parameters the message names
            names = {n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", record.error_message)}
        found |= names
    return frozenset(found)


#: Defaults after which ``not x`` says the argument was not passed.
_EMPTY_DEFAULTS = frozenset({"None", "()", "[]", "{}", "''", '""'})
#: An operator read with the guard's ``not`` folded in.
_NEGATION = {"is": "is not", "is not": "is", "==": "!=", "!=": "==", "in": "not in", "not in": "in"}


def _not_given(guard: Guard, kinds: dict[str, str]) -> set[str]:
    """The parameters ``guard`` holding implies were not passed."""
    operator = guard.operator or ""
    if guard.negated:
        operator = "not" if operator == "truth" else _NEGATION.get(operator, "")
    return _unset_by(guard.subject or "", operator, guard.operand or "", kinds)


def _unset_by(subject: str, operator: str, operand: str, kinds: dict[str, str]) -> set[str]:
    """The parameters ``subject operator operand`` holding implies were not passed."""
    if operator == "not":
        return {subject} if kinds.get(subject, "flag") != "flag" else set()
    if operator in ("is", "==") and subject in kinds and _is_unset(operand):
        return {subject}
    if operator == "not in" and kinds.get(operand) == "var-keyword":
        return {operand}
    return set()


def _none_given(code: str, kinds: dict[str, str]) -> set[str]:
    """For a test the reader did not split (``not filename and not source``): the parameters
    every part of its top-level ``and`` (or of each branch of an ``or``) says were not passed."""
    branches = _top_level(code, " or ")
    found: list[set[str]] = []
    for branch in branches:
        names: set[str] = set()
        for part in _top_level(branch, " and "):
            part = part.strip()
            # Outer brackets that are no pair (``(a)(b)``) leave brackets no pattern below matches.
            while part.startswith("(") and part.endswith(")"):
                part = part[1:-1].strip()
            if m := _NOT_NAME.fullmatch(part):
                names |= _unset_by(m[1], "not", "", kinds)
            elif m := _IS_UNSET.fullmatch(part):
                names |= _unset_by(m[1], m[2], m[3], kinds)
        found.append(names)
    if len(branches) > 1:  # ``s is None or t is None``: one of them was not passed
        return set().union(*found) if all(found) else set()
    return found[0]


_NOT_NAME = re.compile(r"not (\w+)")
_IS_UNSET = re.compile(r"(\w+) (is|==) ([\w.]+)")


def _top_level(code: str, word: str) -> list[str]:
    """``code`` split at ``word`` where it stands outside brackets and quotes."""
    parts, depth, quote, start, i = [], 0, "", 0, 0
    while i < len(code):
        ch = code[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and code.startswith(word, i):
            parts.append(code[start:i])
            start = i = i + len(word)
            continue
        i += 1
    parts.append(code[start:])
    return parts


def _is_unset(text: str) -> bool:
    if text in ("None", "..."):
        return True
    name = text.rpartition(".")[2]
    return name.isidentifier() and _SENTINEL.fullmatch(name) is not None


# -- transient failures ---------------------------------------------------------------------------

#: Classes that name a failure worth trying again: a timeout, a refused, reset or aborted
#: connection, a rate limit, a service unavailable for now.
_TRANSIENT_CLASS = Rule(
    r"(time ?out|timed out)( error| exception)?$|time ?out expired$|connection (refused|reset|aborted)( error)?$"
    r"|rate limit\w*|too many requests|throttl\w*|(service|server|temporarily) unavailable|temporary (failure|error)"
)
#: Classes that are a failed connection only in a library that talks over a network (or when
#: the class comes from one): in a graph or validation library they are something else.
_CONNECTION_CLASS = Rule(
    r"^((client|new|network|unix client) )?connect(ion|or)? (dns )?error$|^network error$|^(read|write) error$"
    r"|^remote disconnected$|^connection (failed|closed|lost|not available)( error)?$"
)
_TRANSIENT_MESSAGE = Rule(
    r"timed out|time ?out (occurred|exceeded|reached|connecting|waiting)|connection (was |has been )?(refused|reset|aborted)"
    r"|reset by peer|rate[- ]limit(ed| exceeded| reached)|too many requests|(service|temporarily|temporary) unavailable"
    r"|try again later|temporary failure|(http|status|code|error)\b\W*(429|503)"
)
#: A message that says the object is spent after a timeout ("cannot read from timed out
#: object"): trying the same call again fails the same way.
_SPENT_MESSAGE = Rule(
    r"(cannot|can't|could not|unable to) .+ (from|on|to|with) (a |an |the )?timed out|timed out (object|socket)s?"
)
#: Guards that test for a transient failure: HTTP 429 or 503, a connection errno.
_TRANSIENT_CONDITION = Rule(
    r"429|503|errno\.e(connrefused|connreset|connaborted|timedout|again|wouldblock)|too_many_requests"
    r"|service_unavailable"
)
_TRANSIENT_STATUS = frozenset({429, 503})
_NETWORK_KINDS = frozenset({"network", "http", "security", "resource"})


def transient(record: Record) -> list[str]:
    """The facts that say the record is a transient failure, worth a retry (``class``,
    ``module``, ``message``, ``conditions``, ``site``); empty when none does.  Warnings and
    log lines are no failure the caller handles, nor is a site without a class or an HTTP
    status (a helper that logs "Request timed out"); a message that says the object is spent
    after a timeout is no failure a retry mends."""
    if record.sites and record.sites[0].kind in ("warn", "log"):
        return []
    if not record.error_class and record.http_status is None:
        return []
    message = words(record.error_message)
    if _SPENT_MESSAGE.search(message):
        return []
    facts = []
    cls = words((record.error_class or "").rpartition(".")[2])
    if cls and _TRANSIENT_CLASS.search(cls):
        facts.append("class")
    elif cls and _CONNECTION_CLASS.search(cls) and place_of(record).within(NETWORK):
        # unless its message says it is something else ("Must call `putrequest` first.")
        said = classify_record(record)
        if said is None or "message" not in said.evidence or said.kind in _NETWORK_KINDS:
            facts += ["class", "module"]
    if _TRANSIENT_MESSAGE.search(message):
        facts.append("message")
    if _TRANSIENT_CONDITION.search("\n".join(words(c) for c in record.conditions)):
        facts.append("conditions")
    if record.http_status in _TRANSIENT_STATUS:
        facts.append("site")
    return facts
