"""Families of errors across libraries, and the rules that put a record in one.

Each family has a one-line criterion a reader can check against the record, and rules over
the facts errdex mined: the message's own words, the exception class, and the guard
conditions.  A family is assigned only when its rules agree well enough; otherwise the
record's ``backgroundTag`` stays empty, because a wrong family misleads more than none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Family:
    tag: str
    #: The vocabulary tag a record of this family gets (``argument``, ``io``, ``database`` ...).
    kind: str
    criterion: str
    #: Rules; each that matches is one piece of evidence.  Messages are matched lower-cased.
    message: re.Pattern[str] | None = None
    error_class: re.Pattern[str] | None = None
    condition: re.Pattern[str] | None = None


def _re(pattern: str | None) -> re.Pattern[str] | None:
    return re.compile(pattern) if pattern else None


def _family(
    tag: str,
    kind: str,
    criterion: str,
    message: str | None = None,
    cls: str | None = None,
    cond: str | None = None,
) -> Family:
    return Family(tag, kind, criterion, _re(message), _re(cls), _re(cond))


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
        r"\b(ambiguous|multiple|more than one|several)\b.*\b(provide|specify|pass|which|choose)|\bplease provide the\b",
        r"Ambiguous",
        r"> 1\b|len\(.+\) > 1",
    ),
    _family(
        "missing-required-argument",
        "argument",
        "A required argument or option was not given.",
        r"\b(missing|required|must (be )?(provide|pass|specif)|please (provide|pass|specify)|is required|are required|not provided|no \w+ (was |were )?(given|provided|specified))",
        r"Missing|Required",
        r"\bis None\b|\bnot \w+$",
    ),
    _family(
        "unexpected-argument",
        "argument",
        "An argument or keyword was given that the call does not accept.",
        r"unexpected (keyword )?argument|got an unexpected|unknown (keyword|argument|option|parameter)|not a valid (keyword|argument)|unrecognized (argument|option)s?",
        r"UnexpectedArgument|NoSuchOption",
    ),
    _family(
        "conflicting-arguments",
        "argument",
        "Two arguments or options were given that exclude each other.",
        r"mutually exclusive|cannot (both|be used together|be combined|specify both)|only one of|not both|either .+ or .+ but not|conflict",
        r"Conflict|Exclusive",
    ),
    _family(
        "wrong-argument-count",
        "argument",
        "A call passed too many or too few arguments.",
        r"takes \d+ (positional )?arguments?|expected \d+ arguments?|too (many|few) (positional )?arguments|exactly (one|two|\d+) (argument|of)|requires (exactly|at least|at most) \d+",
    ),
    _family(
        "invalid-choice",
        "value",
        "A value is not one of the accepted choices.",
        r"must be one of|is not one of|not one of|invalid choice|should be one of|expected one of|choose from|valid (values|options|choices) (are|is)|not in \(|unsupported (value|option|mode|method|backend|strategy)|unknown (value|mode|method|backend|strategy|type)",
        r"Choice",
        r"\bnot in\b",
    ),
    _family(
        "type-mismatch",
        "type",
        "A value has the wrong type for where it is used.",
        r"must be (an? )?(str|string|int|integer|float|bool|boolean|list|dict|tuple|callable|instance|type|subclass|bytes|sequence|mapping|number)|expected (an? )?(str|string|int|integer|float|bool|list|dict|tuple|callable|instance|type|bytes|sequence|mapping)|not (an? )?(instance|subclass) of|unsupported (operand )?type|wrong type|invalid type|of type .+ (is|was) not|is not callable|object is not",
        r"^TypeError$|Type(Mismatch)?Error$",
        r"isinstance\(|issubclass\(|callable\(",
    ),
    _family(
        "value-out-of-range",
        "value",
        "A number lies outside the range the call accepts.",
        r"out of (range|bounds)|must be (positive|non-negative|negative|greater|less|at least|at most|between|>|<|>=|<=|in the range|in range)|should be (positive|greater|less|between)|cannot be negative|exceeds? (the )?(max|limit)|too (large|small|big|long|short)|overflow|underflow",
        r"Range|Overflow|Bounds",
        r"[<>]=? ?-?\d",
    ),
    _family(
        "empty-input",
        "value",
        "An input that must hold something is empty.",
        r"\bempty\b|no (data|items|elements|values|rows|samples)|zero-length|at least one|cannot be empty|must not be empty|contains no",
        None,
        r"^not \w+|len\(.+\) == 0|== \[\]|== ''",
    ),
    _family(
        "invalid-format",
        "parsing",
        "Text does not follow the format the call parses.",
        r"invalid (format|syntax|literal|string|url|uri|address|date|time|datetime|email|expression|header|value for|version|identifier|escape|character|token|json|number)|malformed|could not (parse|convert|decode)|cannot parse|failed to parse|not a valid|unable to parse|unparsable|bad (format|escape|character|syntax)",
        r"Parse|Format|Syntax|Decode",
    ),
    _family(
        "shape-mismatch",
        "data",
        "Arrays or tensors have shapes or lengths that do not fit together.",
        r"shape|dimension|dims?\b|length mismatch|lengths? (must|do(es)? not) match|size mismatch|sizes? (must|do(es)? not) match|must have the same (length|size|shape|number)|broadcast|ndim",
        r"Shape|Dimension",
        r"\.shape|\.ndim|len\(.+\) != len\(",
    ),
    _family(
        "length-mismatch",
        "data",
        "Two sequences that must have equal length do not.",
        r"length of .+ (does not|doesn't|must) match|lengths? (are )?(not equal|differ)|same (length|number of)|(\d+|\{.+\}) (columns|values|items|elements) passed.+(\d+|\{.+\})",
        None,
        r"len\(.+\) != len\(",
    ),
    _family(
        "duplicate-entry",
        "value",
        "Something that must be unique was given or registered twice.",
        r"duplicate|already (exists|registered|defined|added|set|in use|present)|not unique|must be unique|more than once|twice",
        r"Duplicate|AlreadyExists|Conflict",
        r"\bin self\.|\bin \w+s\b",
    ),
    _family(
        "not-found",
        "lookup",
        "A name, key or item that was asked for does not exist.",
        r"not found|does not exist|doesn't exist|no such|cannot find|could not find|unable to find|unknown (key|name|id|column|field|table|index|node|attribute)|is not (defined|registered|available|present)|no (\w+ )?(named|called|matching|with (name|id))",
        r"NotFound|DoesNotExist|NoSuch|^KeyError$|^LookupError$",
    ),
    _family(
        "key-missing",
        "lookup",
        "A mapping lacks the key that was looked up.",
        r"\bkey\b.*\b(not found|missing|not present|does not exist)|missing key|no key|unknown key|keyerror",
        r"^KeyError$",
        r"\bnot in\b",
    ),
    _family(
        "index-out-of-range",
        "lookup",
        "A position is past the end of a sequence.",
        r"index .*out of (range|bounds)|out of bounds|list index|position .* (out of|beyond)|past the end",
        r"^IndexError$",
    ),
    _family(
        "attribute-missing",
        "lookup",
        "An object lacks the attribute that was read or set.",
        r"has no attribute|no attribute|attribute .* (not found|missing|does not exist)|can't set attribute|cannot set attribute|read-only attribute|object attribute .* is read-only",
        r"^AttributeError$",
        r"hasattr\(",
    ),
    _family(
        "file-not-found",
        "io",
        "A file or directory that was named does not exist.",
        r"(file|directory|path|folder).*(not found|does not exist|doesn't exist|no such)|no such file|cannot find (the )?(file|path|directory)|not a (file|directory)",
        r"FileNotFound|NotADirectory|IsADirectory",
        r"exists\(\)|\.is_file\(\)|\.is_dir\(\)|os\.path\.(exists|isfile|isdir)",
    ),
    _family(
        "file-exists",
        "io",
        "A file that is about to be created is already there.",
        r"(file|directory|path).* already exists|exists and|overwrite",
        r"FileExists",
        r"exists\(\)",
    ),
    _family(
        "permission-denied",
        "permission",
        "The process may not read, write or run what it needs.",
        r"permission|not (allowed|permitted)|access (is )?denied|forbidden|read-only file|unauthori[sz]ed|insufficient privileges",
        r"Permission|Forbidden|Unauthori[sz]ed|AccessDenied",
    ),
    _family(
        "io-failure",
        "io",
        "Reading or writing a file or stream failed.",
        r"(could not|cannot|unable to|failed to) (read|write|open|close|save|load|flush|create)|i/o error|broken pipe|disk (is )?full|no space left",
        r"^IOError$|^OSError$|IOError|StreamError",
    ),
    _family(
        "stream-consumed",
        "io",
        "A stream or iterator was read past what it can give again.",
        r"already (been )?(consumed|read|streamed|closed)|stream (has been |is )?(closed|consumed)|cannot (re-?read|rewind)|exhausted",
        r"StreamConsumed|StreamClosed|Consumed",
    ),
    _family(
        "resource-closed",
        "state",
        "An object was used after it was closed or released.",
        r"(is|was|has been) closed|after (it was |being )?closed|on (a )?closed|already (closed|released|shut ?down|disposed)|operation on closed",
        r"Closed",
    ),
    _family(
        "not-initialized",
        "state",
        "An object is used before the set-up step it needs.",
        r"not (yet )?(been )?(initiali[sz]ed|set up|setup|configured|started|connected|attached|fitted|trained|compiled|loaded|launched|called)|before (calling|you call|using)|must (first )?call|call .+ first|did you forget to call|has not been called|uninitiali[sz]ed|not ready",
        r"NotInitiali[sz]ed|NotFitted|NotConfigured|Uninitiali[sz]ed",
        r"is None$|not self\._\w*(init|setup|started|launched|connected|fitted)|== 0$",
    ),
    _family(
        "already-initialized",
        "state",
        "A set-up step that may run once ran again.",
        r"already (been )?(initiali[sz]ed|set up|setup|configured|started|running|launched|connected|called|compiled|attached)|can only be called once|cannot be called (more than )?(twice|again)",
        None,
        r"self\._\w*(init|setup|started|launched|running)",
    ),
    _family(
        "invalid-state",
        "state",
        "The object is in a state where this operation is not allowed.",
        r"(cannot|can't|not allowed to|unable to) .+ (while|when|during|after|before|in (the )?current state)|invalid state|in (the )?wrong state|not in a valid state|illegal state|not (currently )?(running|active|open|attached|allowed now)",
        r"State|^RuntimeError$",
        r"self\.\w+",
    ),
    _family(
        "not-implemented",
        "not-implemented",
        "The operation exists in the interface but this class or backend does not provide it.",
        r"not (yet )?implemented|not supported (yet)?|unsupported operation|is not available for|no implementation|does not support|doesn't support|only supported (for|with|on|by|in)",
        r"NotImplemented|Unsupported",
    ),
    _family(
        "abstract-method",
        "not-implemented",
        "A method meant to be overridden was called on a base class.",
        r"must (be )?(implement|override)|subclasses? (must|should) (implement|override|define)|abstract",
        r"^NotImplementedError$",
    ),
    _family(
        "deprecated-usage",
        "deprecation",
        "A name or argument that is deprecated or removed was used.",
        r"deprecat|will be removed|has been removed|was removed|no longer (supported|used|available|accepted)|is obsolete|use .+ instead|renamed",
        r"Deprecat|FutureWarning|PendingDeprecation",
    ),
    _family(
        "missing-dependency",
        "dependency",
        "An optional package the feature needs is not installed.",
        r"(is|are) not installed|requires? (the )?[`'\"]?[\w.-]+[`'\"]? (package|library|module|to be installed)|pip install|please install|could not import|failed to import|not available\. install|no module named|optional dependenc",
        r"^ImportError$|ModuleNotFound|MissingDependency|DependencyError",
        r"_AVAILABLE|_available|is_\w+_available|importlib\.util\.find_spec",
    ),
    _family(
        "version-incompatible",
        "dependency",
        "Installed versions of the library, its dependencies or Python do not work together.",
        r"version .*(required|requires|not supported|incompatible|or (newer|higher|later|above))|requires? (python|torch|numpy|pandas) ?[<>=]|(newer|older) (version|release)|upgrade|downgrade|incompatible|not compatible",
        r"Version|Incompatib",
        r"_GREATER_EQUAL|_LESS|version|Version\(",
    ),
    _family(
        "platform-unsupported",
        "configuration",
        "The operating system, hardware or accelerator is not supported.",
        r"(not|isn't|is not) (supported|available) on (this )?(platform|windows|macos|linux|mps|tpu|cpu|gpu|cuda|hpu)|requires? (a )?(gpu|cuda|tpu|linux|windows|macos)|cuda is not available|no (gpu|cuda|tpu)",
        None,
        r"sys\.platform|platform\.system|_IS_WINDOWS|cuda\.is_available|_TPU_AVAILABLE|mps",
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
        r"dtype|data ?type|precision .* (not supported|invalid)|(float|int)\d+ .* (not supported|expected)|cannot cast|casting",
        None,
        r"\.dtype",
    ),
    _family(
        "configuration-invalid",
        "configuration",
        "A setting or configuration value is invalid or inconsistent.",
        r"config(uration)?|setting|environment variable|env var|\.ini|\.toml|\.yaml|\.cfg|misconfigur",
        r"Config|Misconfigur|Settings|Improperly",
    ),
    _family(
        "environment-variable",
        "configuration",
        "An environment variable is missing or holds a bad value.",
        r"environment variable|env(ironment)? var|\$[A-Z_]{3,}|os\.environ",
        None,
        r"os\.environ|getenv",
    ),
    _family(
        "connection-failed",
        "network",
        "A network connection could not be made or was lost.",
        r"connect(ion)? (refused|reset|failed|error|aborted|closed|lost)|could not connect|unable to connect|failed to (establish|connect)|host (unreachable|not found)|name resolution|network (is )?unreachable|max retries",
        r"Connect(ion)?Error|ConnectionRefused|NetworkError|MaxRetry|NewConnection|ProtocolError",
    ),
    _family(
        "timeout",
        "network",
        "An operation did not finish within its time limit.",
        r"tim(ed|e) ?out|deadline (exceeded|passed)|took (too long|longer than)",
        r"Timeout|TimedOut",
    ),
    _family(
        "http-status-error",
        "http",
        "A server answered with an HTTP error status.",
        r"\b[45]\d\d\b.*(error|client|server|not found|forbidden|unauthori[sz]ed)|status code|http error|client error|server error",
        r"HTTPError|HTTPStatus|StatusError|HTTPException|BadRequest|NotFound|Unauthorized|Forbidden|InternalServerError",
    ),
    _family(
        "invalid-url",
        "network",
        "A URL is malformed or uses a scheme the call does not handle.",
        r"\burl\b|\buri\b|scheme|protocol|hostname|host name|missing (an? )?['\"]?https?",
        r"InvalidURL|URLError|InvalidSchema|MissingSchema|UnsupportedProtocol|LocationParse",
    ),
    _family(
        "ssl-error",
        "security",
        "A TLS/SSL handshake or certificate check failed.",
        r"\bssl\b|\btls\b|certificate|handshake|verify failed",
        r"SSL|Certificate",
    ),
    _family(
        "authentication-failed",
        "security",
        "Credentials are missing, wrong or expired.",
        r"authenticat|credential|password|token (is )?(invalid|expired|missing)|api key|login|unauthori[sz]ed|not logged in",
        r"Auth|Credential|Login|Unauthori[sz]ed",
    ),
    _family(
        "rate-limited",
        "network",
        "A service refused the request because too many were made.",
        r"rate limit|too many requests|throttl|quota",
        r"RateLimit|Throttl|TooManyRequests",
    ),
    _family(
        "redirect-loop", "http", "Requests were redirected too often or in a cycle.", r"redirect", r"Redirect"
    ),
    _family(
        "encoding-error",
        "encoding",
        "Bytes and text could not be converted with the encoding in use.",
        r"encod|decod|codec|unicode|utf-?8|ascii|charset|byte sequence|surrogate",
        r"Unicode|Encod|Decod|Charset",
    ),
    _family(
        "serialization-error",
        "parsing",
        "A value could not be serialised or deserialised (JSON, pickle, YAML).",
        r"serializ|serialis|json|pickl|yaml|msgpack|marshal|not (json )?serializable|expecting value|unterminated string",
        r"JSON|Pickl|Serializ|Serialis|YAML|Marshal",
    ),
    _family(
        "schema-validation",
        "validation",
        "Data does not satisfy the schema or validator it is checked against.",
        r"schema|validat|is not valid under|does not match (the )?(schema|pattern)|failed validating|additional properties",
        r"Validation|Schema",
    ),
    _family(
        "regex-invalid",
        "parsing",
        "A regular expression pattern does not compile.",
        r"regular expression|regex|pattern|unterminated (subpattern|character set)|nothing to repeat|bad escape|unbalanced parenthesis|look-?behind",
        r"^error$|PatternError|RegexError",
    ),
    _family(
        "sql-error",
        "database",
        "A database statement or query failed or was built wrongly.",
        r"\bsql\b|statement|query|table|column|constraint|transaction|cursor|database|dialect|bind parameter|foreign key|primary key|integrity",
        r"SQL|Database|Integrity|Operational|Programming|StatementError|NoResultFound|MultipleResultsFound|DBAPI",
    ),
    _family(
        "integrity-constraint",
        "database",
        "A write breaks a uniqueness, foreign-key or not-null constraint.",
        r"unique constraint|foreign key|not null constraint|integrity|violates|duplicate key|constraint failed",
        r"Integrity",
    ),
    _family(
        "no-result",
        "database",
        "A query that must return a row returned none.",
        r"no row was found|no result|returned no rows|no rows|0 rows|not exactly one",
        r"NoResultFound|DoesNotExist|Empty",
    ),
    _family(
        "multiple-results",
        "database",
        "A query that must return one row returned several.",
        r"multiple (rows|results)|more than one (row|result|match)|returned \d+ rows|multiple matches",
        r"MultipleResults|MultipleObjects",
    ),
    _family(
        "orm-mapping-error",
        "database",
        "A class, attribute or relationship is not mapped as the ORM expects.",
        r"mapper|mapped|relationship|orm|declarative|instrumented|backref|polymorphic|unmapped",
        r"Mapper|Unmapped|ORM|Mapping",
    ),
    _family(
        "session-state",
        "database",
        "An ORM or HTTP session is used in a state that does not allow it.",
        r"session|detached|transient|pending|flush|autoflush|rollback|expired|is not bound|not bound to",
        r"Session|Detached|Transaction",
    ),
    _family(
        "concurrency-conflict",
        "concurrency",
        "Threads, processes or tasks interfered with each other.",
        r"thread|lock|deadlock|race|concurren|already (running|locked|acquired)|re-?entr|event loop|another (thread|process)|in use by",
        r"Lock|Deadlock|Concurren|Thread|Race",
        r"threading|lock|_lock",
    ),
    _family(
        "async-misuse",
        "concurrency",
        "Async code was called from the wrong context (no loop, not awaited, wrong thread).",
        r"coroutine|await|event loop|async|asyncio|running loop|not awaited|cannot be called from a running",
        r"Async|Cancel|InvalidStateError",
    ),
    _family(
        "cancelled",
        "concurrency",
        "An operation was cancelled before it finished.",
        r"cancel+ed|aborted|interrupted",
        r"Cancel|Abort|Interrupt",
    ),
    _family(
        "recursion-limit",
        "resource",
        "Nesting or recursion went deeper than allowed.",
        r"recursion|too deep|maximum depth|nesting|circular|cycle detected|cyclic",
        r"Recursion|Circular|Cycle",
    ),
    _family(
        "memory-exhausted",
        "resource",
        "The process or device ran out of memory.",
        r"out of memory|memory|oom|allocat",
        r"Memory|OOM",
    ),
    _family(
        "resource-exhausted",
        "resource",
        "A pool, quota or limit of some resource ran out.",
        r"pool (is )?(exhausted|full|limit)|too many (open|files|connections|handles)|limit (reached|exceeded)|no (more|free) |exhausted",
        r"PoolTimeout|Exhausted|ResourceWarning|LimitExceeded",
    ),
    _family(
        "iteration-stopped",
        "value",
        "An iterator or generator ended earlier or later than the code expected.",
        r"too (few|many) items|generator didn't (yield|stop)|iterator|iterable|stopiteration|exhausted|expected exactly one|more than one item",
        r"StopIteration|StopAsyncIteration",
    ),
    _family(
        "immutable-modification",
        "state",
        "Code tried to change something that is frozen or read-only.",
        r"immutable|frozen|read-?only|can't (set|modify|change)|cannot (set|modify|change|assign)|does not support item assignment|is not writable",
        r"Frozen|Immutable|ReadOnly",
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
        r"ZeroDivision",
    ),
    _family(
        "numeric-invalid",
        "value",
        "A number is NaN, infinite or otherwise not usable here.",
        r"\bnan\b|infinite|infinity|\binf\b|not a number|non-finite|finite",
        r"FloatingPoint|Arithmetic",
        r"isnan|isinf|isfinite",
    ),
    _family(
        "precision-loss",
        "value",
        "A conversion would lose precision or overflow the target type.",
        r"precision|truncat|lossy|rounding|overflow",
        r"Overflow|Precision|Inexact",
    ),
    _family(
        "date-time-invalid",
        "parsing",
        "A date, time or time zone is out of range or malformed.",
        r"\bdatetime\b|timezone|time zone|day is out of range|month must be|hour must be|minute must be|second must be|iso ?8601|invalid (date|time)|\bdate\b.*(invalid|format|range)",
        r"Date|Time(?!out)|Tz|Zone|ParserError",
    ),
    _family(
        "path-invalid",
        "io",
        "A path is malformed, relative where absolute is needed, or outside an allowed root.",
        r"\bpath\b.*(invalid|must be|should be|not allowed|outside|absolute|relative)|not an absolute path|relative path|outside (of )?(the )?(root|directory)|invalid (file ?)?name",
        None,
        r"is_absolute\(\)|os\.path\.isabs",
    ),
    _family(
        "template-error",
        "parsing",
        "A template could not be found, parsed or rendered.",
        r"template|jinja|\bis undefined\b|undefined (variable|name)",
        r"Template|Undefined",
    ),
    _family(
        "cli-usage-error",
        "cli",
        "A command line was called with wrong arguments or options.",
        r"usage|option|command|argument|flag|subcommand|no such option|missing (argument|option|parameter)|got unexpected extra",
        r"Usage|BadParameter|BadOption|BadArgument|MissingParameter|NoSuchOption|ClickException|ArgumentError|ArgumentTypeError",
    ),
    _family(
        "user-abort",
        "cli",
        "The user declined a prompt or interrupted the program.",
        r"abort|aborted|interrupted|declined|cancelled by (the )?user",
        r"^Abort$|KeyboardInterrupt",
    ),
    _family(
        "assertion-failed",
        "assertion",
        "An internal consistency check (``assert``) failed.",
        None,
        r"^AssertionError$",
    ),
    _family(
        "internal-invariant",
        "assertion",
        "The library detected a state it believes cannot happen: a bug or misuse of internals.",
        r"should (never|not) happen|internal error|unreachable|this is a bug|please report|unexpected (state|condition|error)|invariant|sanity check",
        r"Internal|Bug|Unreachable",
    ),
    _family(
        "warning-only",
        "warning",
        "A warning: the program goes on, but the library flags a likely problem.",
        None,
        r"Warning$",
    ),
    _family(
        "data-missing-values",
        "data",
        "Data holds missing values (None, NaN, NA) where values are required.",
        r"missing values|contains (nan|null|none|na)\b|null values?|na values|\bnan\b values|non-null|may not be null|cannot be null|must not be none",
        None,
        r"isna\(|isnull\(|is None",
    ),
    _family(
        "column-missing",
        "data",
        "A table or frame lacks a column that was named.",
        r"column .*(not found|does not exist|missing|not in)|no column|unknown column|not (found )?in (the )?(columns|axis|index)|columns? .* (are|is) missing",
        None,
        r"\bnot in .*columns",
    ),
    _family(
        "index-alignment",
        "data",
        "Frames or series indexes do not line up for the operation.",
        r"index(es)? (must|do(es)? not|are not) (match|align|unique|be unique|monotonic)|cannot reindex|non-unique|not monotonic|unaligned|alignment",
        None,
        r"\.is_unique|\.is_monotonic",
    ),
    _family(
        "grouping-error",
        "data",
        "A group-by or aggregation cannot be done as asked.",
        r"group ?by|aggregat|grouper|groupby",
        r"Group|Aggregat",
    ),
    _family(
        "graph-structure",
        "data",
        "A graph lacks a node, edge or property the algorithm needs.",
        r"\bnode\b|\bedge\b|\bgraph\b|no path|not connected|cycle|dag|acyclic|directed|undirected|multigraph|null graph",
        r"NetworkX|NodeNotFound|NoPath|Graph",
    ),
    _family(
        "model-not-fitted",
        "state",
        "A model or estimator is used before it was fitted or trained.",
        r"not (been )?fitted|fit\b.*first|call .?fit.? before|not trained|before (fitting|training)",
        r"NotFitted",
    ),
    _family(
        "checkpoint-invalid",
        "io",
        "A saved checkpoint or state file is missing, corrupt or from another version.",
        r"checkpoint|state[_ ]dict|ckpt|load_state|saved (model|state)|missing keys|unexpected keys|resume",
        r"Checkpoint",
    ),
    _family(
        "distributed-setup",
        "distributed",
        "A distributed or multi-process run is not set up as the call requires.",
        r"distributed|process group|world[_ ]size|rank\b|ddp|fsdp|deepspeed|nccl|gloo|launcher|strategy|num_nodes|devices|accelerator|multi-?(gpu|node|process)",
        r"Distributed|ProcessGroup|Strategy",
        r"Strategy\)|_strategy|world_size|is_initialized\(\)|global_rank",
    ),
    _family(
        "hook-misuse",
        "configuration",
        "A callback or hook was registered or called in a way it does not allow.",
        r"\bhooks?\b|\bcallbacks?\b",
        r"Hook|Callback",
    ),
    _family(
        "plugin-not-registered",
        "configuration",
        "A plugin, backend or entry point that was named is not registered.",
        r"(plugin|backend|entry[_ ]point|extension|registry|registered|driver|engine|loader|provider) .*(not (found|registered|available|installed|known)|unknown|invalid)|no (such |registered )?(plugin|backend|driver|engine|provider)|unknown (plugin|backend|driver|engine|provider)",
        r"Plugin|Backend|Registry|NoSuchModule|Entrypoint",
    ),
    _family(
        "name-conflict",
        "value",
        "A name clashes with one that is reserved or already taken.",
        r"reserved|shadow|clash|name conflict|conflicts with|already (taken|used|defined)|cannot be named|is a keyword",
        None,
    ),
    _family(
        "identifier-invalid",
        "value",
        "A name, identifier or key is not in the form the call requires.",
        r"(not a valid|invalid) (python )?(identifier|name|key|label|variable name|attribute name|tag)|must be a valid (identifier|name)|isidentifier",
        None,
        r"isidentifier\(\)",
    ),
    _family(
        "size-limit",
        "value",
        "An input is larger than the call allows.",
        r"too (large|long|big)|exceeds|maximum (size|length)|max(imum)? .*(size|length|bytes)|larger than|longer than|content[- ]length|payload",
        r"TooLarge|EntityTooLarge|LimitExceeded",
    ),
    _family(
        "security-violation",
        "security",
        "The input was refused as unsafe (unsafe path, untrusted data, insecure setting).",
        r"unsafe|insecure|untrusted|not allowed for security|security|traversal|injection|csrf|xss|sandbox",
        r"Security|Unsafe|Suspicious|CSRF",
    ),
    _family(
        "signature-mismatch",
        "argument",
        "A callable passed in does not accept the arguments it will be called with.",
        r"signature|must accept|should accept|takes no arguments|positional-only|keyword-only|callable must|function must (take|accept|have)",
        None,
        r"signature\(|inspect\.",
    ),
    _family(
        "return-value-invalid",
        "value",
        "A user-supplied callable or hook returned something the library cannot use.",
        r"(returned|must return|should return|expected .* to return|did not return|return value|returned non-|returned an?)",
        None,
    ),
    _family(
        "inheritance-misuse",
        "type",
        "A class was subclassed or registered in a way the library does not allow.",
        r"subclass|inherit|base class|metaclass|mro|must derive|is not a subclass|cannot subclass|final",
        None,
        r"issubclass\(",
    ),
    _family(
        "mode-mismatch",
        "io",
        "A file or object was opened in one mode and used in another (text/binary, read/write).",
        r"(text|binary|bytes|str) mode|opened (in|for) (read|write|text|binary)|not (readable|writable|seekable)|must be opened|mode (must|should)",
        r"UnsupportedOperation",
        r"\.mode|'b' in|readable\(\)|writable\(\)",
    ),
    _family(
        "locale-or-charset",
        "encoding",
        "A locale or character set is missing or not supported.",
        r"locale|charset",
        r"Locale",
    ),
    _family(
        "exit-requested",
        "exit",
        "The program asked to exit (``sys.exit``), with this message or status.",
        None,
        r"^SystemExit$",
    ),
    _family(
        "keyboard-interrupt",
        "cli",
        "The user interrupted the program (Ctrl-C).",
        r"keyboard interrupt|ctrl-c",
        r"KeyboardInterrupt",
    ),
    _family(
        "subprocess-failed",
        "resource",
        "A command the library ran exited with an error.",
        r"(command|process|subprocess).*(failed|returned non-zero|exit (code|status))|non-zero exit|exited with",
        r"CalledProcess|Subprocess",
    ),
    _family(
        "lazy-import-failed",
        "dependency",
        "A module loaded on first use failed to import.",
        r"lazy|on first use|failed to load module|could not load",
        r"LazyImport",
    ),
    _family(
        "pickle-unsafe",
        "security",
        "Loading pickled data was refused because it could run code.",
        r"weights_only|unpickl|pickle.*(unsafe|untrusted)|allowlist|safe_globals",
    ),
    _family(
        "random-seed",
        "configuration",
        "Random number generation or seeding was misused.",
        r"\bseed\b|random state|rng|generator state",
        None,
        r"seed",
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
        r"is_monotonic|sorted\(",
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
    #: Which facts matched its rules: ``message``, ``class``, ``condition``.
    evidence: tuple[str, ...]


def classify(message: str, error_class: str | None, conditions: list[str]) -> Classified | None:
    """The family whose rules the facts satisfy best, or None when none is convincing.

    A family scores the weights of its matching rules; a tie goes to the family listed first
    (the more specific ones come first).  One ``search`` per rule: ``re`` skips ahead to a
    rule's literal text faster than any combined pattern could.
    """
    text = message.lower()
    cls = (error_class or "").rpartition(".")[2]
    best: Classified | None = None
    for family in FAMILIES:
        evidence = []
        if family.message is not None and family.message.search(text):
            evidence.append("message")
        if family.error_class is not None and cls and family.error_class.search(cls):
            evidence.append("class")
        if family.condition is not None and any(family.condition.search(c) for c in conditions):
            evidence.append("condition")
        if not evidence:
            continue
        score = min(1.0, sum(_WEIGHTS[e] for e in evidence))
        if score >= THRESHOLD and (best is None or score > best.confidence):
            best = Classified(family.tag, family.kind, round(score, 2), tuple(evidence))
    return best
