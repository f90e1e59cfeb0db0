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
from dataclasses import dataclass, field

from errdex import languages
from errdex.record import Record

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


def split_identifier(name: str) -> list[str]:
    """The lower-case words of an identifier: ``NetworkXError`` is ``["networkx", "error"]``,
    ``IPv4Address`` ``["ipv4", "address"]``, ``TIMEOUT_ERROR`` ``["timeout", "error"]``."""
    return [w for w in re.split(r"[\W_]+", words(name)) if w]


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
class Family:
    tag: str
    #: The vocabulary tag a record of this family gets (``argument``, ``io``, ``database`` ...).
    kind: str
    criterion: str
    #: Rules; each that matches is one piece of evidence.  Each reads ``words`` of its fact.
    message: Rule | None = None
    error_class: Rule | None = None
    condition: Rule | None = None
    #: The kind of library the family is about: only records there (or whose class comes from
    #: there) may have it.  None: any library.
    about: Library | None = None


def _family(
    tag: str,
    kind: str,
    criterion: str,
    message: str | None = None,
    cls: str | None = None,
    cond: str | None = None,
    about: Library | None = None,
) -> Family:
    return Family(tag, kind, criterion, _rule(message), _rule(cls), _rule(cond), about)


#: Evidence from the message counts most: it is what the library says the problem is.
_WEIGHTS = {"message": 0.6, "class": 0.3, "condition": 0.3}  # class or condition alone: not enough
#: Below this, no family is assigned.
THRESHOLD = 0.6

FAMILIES: tuple[Family, ...] = (
    # -- arguments --------------------------------------------------------------------------------
    _family(
        "ambiguous-target",
        "argument",
        "Several candidates fit and the call must say which one to use.",
        r"(ambiguous|multiple|more than one|several)\b.*\b(provid|specif|pass|which|choos)\w*|please provide the",
        r"ambiguous\w*",
        r"> 1|len\(.+\) > 1",
    ),
    _family(
        "missing-required-argument",
        "argument",
        "A required argument or option was not given.",
        r"missing|required|must (be )?(provid|pass|specif)\w*|please (provide|pass|specify)|not provided|no \w+ (was |were )?(given|provided|specified)",
        r"missing|required",
        r"is none|not \w+$",
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
        r"mutually exclusive|cannot (both|be used together|be combined|specify both)|only one of|not both|either .+ or .+ but not|conflict\w*",
        r"conflict\w*|exclusive",
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
        r"must be one of|is not one of|not one of|invalid choice|should be one of|expected one of|choose from|valid (values|options|choices) (are|is)|not in \(|unsupported (value|option|mode|method|backend|strategy)|unknown (value|mode|method|backend|strategy|type)",
        r"choices?",
        r"not in",
    ),
    _family(
        "type-mismatch",
        "type",
        "A value has the wrong type for where it is used.",
        r"must be (an? )?(str|string|int|integer|float|bool|boolean|list|dict|tuple|callable|instance|type|subclass|bytes|sequence|mapping|number)s?|expected (an? )?(str|string|int|integer|float|bool|list|dict|tuple|callable|instance|type|bytes|sequence|mapping)s?|not (an? )?(instance|subclass) of|unsupported (operand )?types?|wrong type|invalid type|of type .+ (is|was) not|is not callable|object is not",
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
        r"empty|no (data|items|elements|values|rows|samples)|zero-length|at least one|contains no",
        None,
        r"^not \w+|len\(.+\) == 0|== \[\]|== ''",
    ),
    _family(
        "invalid-format",
        "parsing",
        "Text does not follow the format the call parses.",
        r"invalid (format|syntax|literal|string|url|uri|address|date|time|datetime|email|expression|header|value for|version|identifier|escape|character|token|json|number)s?|malformed|could not (parse|convert|decode)|cannot parse|failed to parse|not a valid|unable to parse|unparsable|bad (format|escape|character|syntax)",
        r"pars(e|er|ing)|format|syntax|decod\w*",
    ),
    _family(
        "shape-mismatch",
        "data",
        "Arrays or tensors have shapes or lengths that do not fit together.",
        r"shapes?|dimension\w*|dims?|length mismatch|lengths? (must|do(es)? not) match|size mismatch|sizes? (must|do(es)? not) match|must have the same (length|size|shape|number)|broadcast\w*|ndims?",
        r"shape|dimension\w*",
        r"\.shape|\.ndim|len\(.+\) != len\(",
    ),
    _family(
        "length-mismatch",
        "data",
        "Two sequences that must have equal length do not.",
        r"length of .+ (does not|doesn't|must) match|lengths? (are )?(not equal|differ\w*)|same (length|number of)|(\d+|\{.+\}) (columns|values|items|elements) passed.+(\d+|\{.+\})",
        None,
        r"len\(.+\) != len\(",
    ),
    _family(
        "duplicate-entry",
        "value",
        "Something that must be unique was given or registered twice.",
        r"duplicat\w*|already (exists|registered|defined|added|set|in use|present)|not unique|must be unique|more than once|twice",
        r"duplicat\w*|already exists|conflict\w*",
        r"in self\.|in \w+s",
    ),
    _family(
        "not-found",
        "lookup",
        "A name, key or item that was asked for does not exist.",
        r"not found|does not exist|doesn't exist|no such|cannot find|could not find|unable to find|unknown (key|name|id|column|field|table|index|node|attribute)s?|is not (defined|registered|available|present)|no (\w+ )?(named|called|matching|with (name|id))",
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
        "file-not-found",
        "io",
        "A file or directory that was named does not exist.",
        r"(files?|director(y|ies)|paths?|folders?)\b.*\b(not found|does not exist|doesn't exist|no such)|no such file|cannot find (the )?(file|path|directory)|not a (file|directory)",
        r"file not found|not a directory|is a directory",
        r"exists\(\)|\.is_file\(\)|\.is_dir\(\)|os\.path\.(exists|isfile|isdir)",
    ),
    _family(
        "file-exists",
        "io",
        "A file that is about to be created is already there.",
        r"(files?|director(y|ies)|paths?)\b.* already exists|exists and|overwrit\w*",
        r"file exists",
        r"exists\(\)",
    ),
    _family(
        "permission-denied",
        "permission",
        "The process may not read, write or run what it needs.",
        r"permissions?|not (allowed|permitted)|access (is )?denied|forbidden|read-only file|unauthori[sz]ed|insufficient privileges",
        r"permission|forbidden|unauthori[sz]ed|access denied",
    ),
    _family(
        "io-failure",
        "io",
        "Reading or writing a file or stream failed.",
        r"(could not|cannot|unable to|failed to) (read|write|open|close|save|load|flush|create)|i/o error|broken pipe|disk (is )?full|no space left",
        r"io error|^os error$|stream error",
    ),
    _family(
        "stream-consumed",
        "io",
        "A stream or iterator was read past what it can give again.",
        r"already (been )?(consumed|read|streamed|closed)|stream (has been |is )?(closed|consumed)|cannot (re-?read|rewind)|exhausted",
        r"stream consumed|stream closed|consumed",
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
        r"not (yet )?(been )?(initiali[sz]ed|set up|setup|configured|started|connected|attached|fitted|trained|compiled|loaded|launched|called)|before (calling|you call|using)|must (first )?call|call .+ first|did you forget to call|has not been called|uninitiali[sz]ed|not ready",
        r"not initiali[sz]ed|not fitted|not configured|uninitiali[sz]ed",
        r"is none$|not self\._\w*(init|setup|started|launched|connected|fitted)\w*|== 0$",
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
        r"(cannot|can't|not allowed to|unable to) .+ (while|when|during|after|before|in (the )?current state)|invalid state|in (the )?wrong state|not in a valid state|illegal state|not (currently )?(running|active|open|attached|allowed now)",
        r"state|^runtime error$",
        r"self\.\w+",
    ),
    _family(
        "not-implemented",
        "not-implemented",
        "The operation exists in the interface but this class or backend does not provide it.",
        r"not (yet )?implemented|not supported( yet)?|unsupported operation|is not available for|no implementation|does not support|doesn't support|only supported (for|with|on|by|in)",
        r"not implemented|unsupported",
    ),
    _family(
        "abstract-method",
        "not-implemented",
        "A method meant to be overridden was called on a base class.",
        r"must (be )?(implement|overrid)\w*|(needs|has) to be (implemented|overridden)|subclasses? (must|should) (implement|override|define)|abstract\w*",
        r"^not implemented error$",
    ),
    _family(
        "deprecated-usage",
        "deprecation",
        "A name or argument that is deprecated or removed was used.",
        r"deprecat\w*|will be removed|has been removed|was removed|no longer (supported|used|available|accepted)|is obsolete|use .+ instead|renamed",
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
        r"versions?\b.*\b(required|requires|not supported|incompatible|or (newer|higher|later|above))|requires? (python|torch|numpy|pandas) ?[<>=]|(newer|older) (version|release)|upgrad\w*|downgrad\w*|incompatib\w*|not compatible",
        r"version|incompatib\w*",
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
        r"dtypes?|data ?types?|precision .* (not supported|invalid)|b?(float|int)\d+ .* (not supported|expected)|cannot cast|casting",
        None,
        r"\.dtype",
    ),
    _family(
        "configuration-invalid",
        "configuration",
        "A setting or configuration value is invalid or inconsistent.",
        r"config(uration)?s?|(un)?configured|settings?|environment variables?|env vars?|\.ini|\.toml|\.ya?ml|\.cfg|misconfigur\w*",
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
        r"urls?|uris?|(url|uri|unsupported|invalid|unknown|missing) schemes?|schemes? (is )?(not supported|missing|invalid|unknown)|hostnames?|host names?|missing (an? )?['\"]?https?",
        r"invalid url|url error|invalid schema|missing schema|unsupported protocol|location parse",
    ),
    _family(
        "ssl-error",
        "security",
        "A TLS/SSL handshake or certificate check failed.",
        r"ssl|tls|certificates?|handshake|verify failed",
        r"ssl|certificate",
    ),
    _family(
        "authentication-failed",
        "security",
        "Credentials are missing, wrong or expired.",
        r"authenticat\w*|credentials?|passwords?|token (is )?(invalid|expired|missing)|api key|login|unauthori[sz]ed|not logged in",
        r"auth|authenticat\w*|credentials?|login|unauthori[sz]ed|oauth2?",
    ),
    _family(
        "rate-limited",
        "network",
        "A service refused the request because too many were made.",
        r"rate[- ]limit\w*|too many requests|throttl\w*|quotas?",
        r"rate limit\w*|throttl\w*|too many requests",
    ),
    _family(
        "redirect-loop",
        "http",
        "Requests were redirected too often or in a cycle.",
        r"redirect\w*",
        r"redirect\w*",
        None,
        HTTP,
    ),
    _family(
        "encoding-error",
        "encoding",
        "Bytes and text could not be converted with the encoding in use.",
        r"(en|de)cod\w*|codecs?|unicode|utf-?(8|16|32)|ascii|charsets?|byte sequences?|surrogates?",
        r"unicode|(en|de)cod\w*|charset",
    ),
    _family(
        "serialization-error",
        "parsing",
        "A value could not be serialised or deserialised (JSON, pickle, YAML).",
        r"seriali[sz]\w*|json|pickl\w*|yaml|msgpack|marshal\w*|expecting value|unterminated string",
        r"json|pickl\w*|seriali[sz]\w*|yaml|marshal\w*",
    ),
    _family(
        "schema-validation",
        "validation",
        "Data does not satisfy the schema or validator it is checked against.",
        r"schemas?|validat\w*|is not valid under|does not match (the )?(schema|pattern)|failed validating|additional properties",
        r"validat\w*|schemas?",
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
        "A database statement or query failed or was built wrongly.",
        r"sql|statements?|query|queries|tables?|columns?|constraints?|transactions?|cursors?|databases?|dialects?|bind parameters?|foreign keys?|primary keys?|integrity",
        r"sql|sqlalchemy|database|integrity|operational|programming|statement error|no result found|multiple results found|dbapi",
        None,
        DATABASE,
    ),
    _family(
        "integrity-constraint",
        "database",
        "A write breaks a uniqueness, foreign-key or not-null constraint.",
        r"unique constraint|foreign key|not null constraint|integrity|violat\w*|duplicate key|constraint failed",
        r"integrity",
        None,
        DATABASE,
    ),
    _family(
        "no-result",
        "database",
        "A query that must return a row returned none.",
        r"no row was found|no results?|returned no rows|no rows|0 rows|not exactly one",
        r"no result found|does not exist|empty",
        None,
        DATABASE,
    ),
    _family(
        "multiple-results",
        "database",
        "A query that must return one row returned several.",
        r"multiple (rows|results)|more than one (row|result|match)|returned \d+ rows|multiple matches",
        r"multiple results|multiple objects",
        None,
        DATABASE,
    ),
    _family(
        "orm-mapping-error",
        "database",
        "A class, attribute or relationship is not mapped as the ORM expects.",
        r"mappers?|mapped|relationships?|orm|declarative|instrumented|backrefs?|polymorphic|unmapped",
        r"mapper|unmapped|orm|mapping",
        None,
        ORM,
    ),
    _family(
        "session-state",
        "database",
        "An ORM session is used in a state that does not allow it.",
        r"sessions?|detached|transient|pending|flush\w*|autoflush|rollback|expired|is not bound|not bound to",
        r"session|detached|transaction",
        None,
        ORM,
    ),
    _family(
        "http-session-state",
        "http",
        "An HTTP client or web session is used in a state that does not allow it.",
        r"sessions?",
        r"session",
        None,
        HTTP,
    ),
    _family(
        "concurrency-conflict",
        "concurrency",
        "Threads, processes or tasks interfered with each other.",
        r"threads?|locks?|deadlock|race|concurren\w*|already (running|locked|acquired)|re-?entr\w*|event loop|another (thread|process)|in use by",
        r"lock|deadlock|concurren\w*|thread|race",
        r"threading|lock(ed|s)?",
    ),
    _family(
        "async-misuse",
        "concurrency",
        "Async code was called from the wrong context (no loop, not awaited, wrong thread).",
        r"coroutines?|await\w*|event loop|async\w*|running loop|not awaited|cannot be called from a running",
        r"async\w*|cancel\w*|invalid state error",
    ),
    _family(
        "cancelled",
        "concurrency",
        "An operation was cancelled before it finished.",
        r"cancel+ed|aborted|interrupted",
        r"cancel\w*|abort\w*|interrupt\w*",
    ),
    _family(
        "recursion-limit",
        "resource",
        "Nesting or recursion went deeper than allowed.",
        r"recursion|too deep|maximum depth|nesting|circular|cycle detected|cyclic",
        r"recursion|circular|cycle",
    ),
    _family(
        "memory-exhausted",
        "resource",
        "The process or device ran out of memory.",
        r"out of memory|memory|oom|allocat\w*",
        r"memory|oom",
    ),
    _family(
        "resource-exhausted",
        "resource",
        "A pool, quota or limit of some resource ran out.",
        r"pool (is )?(exhausted|full|limit)|too many (open|files|connections|handles)|limit (reached|exceeded)|no (more|free)\b|exhausted",
        r"pool timeout|exhausted|resource warning|limit exceeded",
    ),
    _family(
        "iteration-stopped",
        "value",
        "An iterator or generator ended earlier or later than the code expected.",
        r"too (few|many) items|generator didn't (yield|stop)|iterators?|iterables?|stop ?iteration|exhausted|expected exactly one|more than one item",
        r"stop iteration|stop async iteration",
    ),
    _family(
        "immutable-modification",
        "state",
        "Code tried to change something that is frozen or read-only.",
        r"immutable|frozen|read-?only|can't (set|modify|change)|cannot (set|modify|change|assign)|does not support item assignment|is not writable",
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
    ),
    _family(
        "numeric-invalid",
        "value",
        "A number is NaN, infinite or otherwise not usable here.",
        r"nan|infinite|infinity|inf|not a number|non-finite|finite",
        r"floating point|arithmetic",
        r"isnan|isinf|isfinite",
    ),
    _family(
        "precision-loss",
        "value",
        "A conversion would lose precision or overflow the target type.",
        r"precision|truncat\w*|lossy|rounding|overflow",
        r"overflow|precision|inexact",
    ),
    _family(
        "date-time-invalid",
        "parsing",
        "A date, time or time zone is out of range or malformed.",
        r"datetimes?|timezones?|time zones?|day is out of range|month must be|hour must be|minute must be|second must be|iso ?8601|invalid (date|time)|date\b.*\b(invalid|format|range)",
        r"date|datetime|time|timedelta|timestamp|tz|tzinfo|zone|timezone|parser error",
    ),
    _family(
        "path-invalid",
        "io",
        "A path is malformed, relative where absolute is needed, or outside an allowed root.",
        r"path\b.*\b(invalid|must be|should be|not allowed|outside|absolute|relative)|not an absolute path|relative paths?|outside (of )?(the )?(root|directory)|invalid (file ?)?names?",
        None,
        r"is_absolute\(\)|os\.path\.isabs",
    ),
    _family(
        "template-error",
        "parsing",
        "A template could not be found, parsed or rendered.",
        r"templates?|jinja\w*|is undefined|undefined (variable|name)s?",
        r"template|undefined",
        None,
        TEMPLATE,
    ),
    _family(
        "cli-usage-error",
        "cli",
        "A command line was called with wrong arguments or options.",
        r"usage|options?|commands?|arguments?|flags?|subcommands?|no such option|missing (argument|option|parameter)|got unexpected extra",
        r"usage|bad parameter|bad option|bad argument|missing parameter|no such option|click exception|argument error|argument type error",
        None,
        CLI,
    ),
    _family(
        "user-abort",
        "cli",
        "The user declined a prompt or interrupted the program.",
        r"abort\w*|interrupted|declined|cancelled by (the )?user",
        r"^abort$|keyboard interrupt",
        None,
        CLI,
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
        r"should (never|not) happen|internal error|unreachable|this is a bug|please report|unexpected (state|condition|error)|invariant|sanity check",
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
        r"missing values|contains (nan|null|none|na)|null values?|na values|nan values|non-null|may not be null|cannot be null|must not be none",
        None,
        r"isna\(|isnull\(|is none",
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
        r"group ?by|aggregat\w*|groupers?",
        r"group\w*|aggregat\w*",
    ),
    _family(
        "graph-structure",
        "data",
        "A graph lacks a node, edge or property the algorithm needs.",
        r"nodes?|edges?|graphs?|no path|not (strongly |weakly )?connected|cycles?|dags?|acyclic|directed|undirected|multigraphs?|null graph",
        r"node not found|no path|no cycle|graph",
        None,
        GRAPH,
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
        r"checkpoint(s|ing|ed)?|state[_ ]dict|ckpt|load_state\w*|saved (model|state)|missing keys|unexpected keys|resum(e|ing) from",
        r"checkpoint",
    ),
    _family(
        "distributed-setup",
        "distributed",
        "A distributed or multi-process run is not set up as the call requires.",
        r"distributed|process groups?|world[_ ]size|rank|ddp|fsdp|deepspeed|nccl|gloo|launchers?|strateg(y|ies)|num_nodes|devices|accelerators?|multi-?(gpu|node|process)\w*",
        r"distributed|process group|strategy",
        r"strategy|world_size|is_initialized\(\)|global_rank",
        DISTRIBUTED,
    ),
    _family(
        "hook-misuse",
        "configuration",
        "A callback or hook was registered or called in a way it does not allow.",
        r"hooks?|callbacks?",
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
        r"reserved|shadow\w*|clash\w*|name conflict|conflicts with|already (taken|used|defined)|cannot be named|is a keyword",
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
        r"too (large|long|big)|exceeds|max(imum)? (size|length)|larger than|longer than|content[- ]length",
        r"too large|limit exceeded",
    ),
    _family(
        "security-violation",
        "security",
        "The input was refused as unsafe (unsafe path, untrusted data, insecure setting).",
        r"unsafe|insecure|untrusted|security|traversal|injection|csrf|xss|sandbox\w*",
        r"security|unsafe|suspicious|csrf",
    ),
    _family(
        "signature-mismatch",
        "argument",
        "A callable passed in does not accept the arguments it will be called with.",
        r"signatures?|must accept|should accept|takes no arguments|positional-only|keyword-only|callable must|function must (take|accept|have)",
        None,
        r"signature\(|inspect\.",
    ),
    _family(
        "return-value-invalid",
        "value",
        "A user-supplied callable or hook returned something the library cannot use.",
        r"returned|must return|should return|expected .* to return|did not return|return values?",
        None,
    ),
    _family(
        "inheritance-misuse",
        "type",
        "A class was subclassed or registered in a way the library does not allow.",
        r"subclass\w*|inherit\w*|base class\w*|metaclass\w*|mro|must derive|cannot subclass|final",
        None,
        r"issubclass\(",
    ),
    _family(
        "mode-mismatch",
        "io",
        "A file or object was opened in one mode and used in another (text/binary, read/write).",
        r"(text|binary|bytes|str) mode|opened (in|for) (read|write|text|binary)|not (readable|writable|seekable)|must be opened|mode (must|should)",
        r"unsupported operation",
        r"\.mode|'b' in|readable\(\)|writable\(\)",
    ),
    _family(
        "locale-or-charset",
        "encoding",
        "A locale or character set is missing or not supported.",
        r"locales?|charsets?",
        r"locale",
    ),
    _family(
        "exit-requested",
        "exit",
        "The program asked to exit (``sys.exit``), with this message or status.",
        None,
        r"^system exit$",
    ),
    _family(
        "keyboard-interrupt",
        "cli",
        "The user interrupted the program (Ctrl-C).",
        r"keyboard interrupt|ctrl-c",
        r"keyboard interrupt",
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
        r"lazy(ily)? (import|load)\w*|lazy module|on first use|failed to load module|could not load",
        r"lazy import",
    ),
    _family(
        "pickle-unsafe",
        "security",
        "Loading pickled data was refused because it could run code.",
        r"weights_only|unpickl\w*|pickle\b.*\b(unsafe|untrusted)|allowlist|safe_globals",
    ),
    _family(
        "random-seed",
        "configuration",
        "Random number generation or seeding was misused.",
        r"seeds?|random state|rng|generator state",
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
    #: Which facts matched its rules: ``message``, ``class``, ``condition``; and ``library``
    #: for a family about one kind of library, which the record is in.
    evidence: tuple[str, ...]


def classify(
    message: str, error_class: str | None, conditions: list[str], place: Place | None = None
) -> Classified | None:
    """The family whose rules the facts satisfy best, or None when none is convincing.

    A family scores the weights of its matching rules; a tie goes to the family listed first
    (the more specific ones come first).  A family about one kind of library is considered
    only where ``place`` is in one; without a place, never.
    """
    text = words(message)
    cls = words((error_class or "").rpartition(".")[2])
    tests = "\n".join(words(c) for c in conditions)
    best: Classified | None = None
    for family in FAMILIES:
        if family.about is not None and (place is None or not place.within(family.about)):
            continue
        evidence = []
        if family.message is not None and family.message.search(text):
            evidence.append("message")
        if family.error_class is not None and cls and family.error_class.search(cls):
            evidence.append("class")
        if family.condition is not None and tests and family.condition.search(tests):
            evidence.append("condition")
        if not evidence:
            continue
        score = min(1.0, sum(_WEIGHTS[e] for e in evidence))
        if score >= THRESHOLD and (best is None or score > best.confidence):
            library = ("library",) if family.about is not None else ()
            best = Classified(family.tag, family.kind, round(score, 2), (*evidence, *library))
    return best


def classify_record(record: Record) -> Classified | None:
    """``classify`` on the record's message, class, conditions and place."""
    return classify(record.error_message, record.error_class, record.conditions, place_of(record))


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
    log lines are no failure the caller handles."""
    if record.sites and record.sites[0].kind in ("warn", "log"):
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
    if _TRANSIENT_MESSAGE.search(words(record.error_message)):
        facts.append("message")
    if _TRANSIENT_CONDITION.search("\n".join(words(c) for c in record.conditions)):
        facts.append("conditions")
    if record.http_status in _TRANSIENT_STATUS:
        facts.append("site")
    return facts
