"""Ordinary code that makes voluptuous raise."""

LIBRARY = "voluptuous"

SNIPPETS = [
    """
    from voluptuous import Schema, Required
    schema = Schema({Required("name"): str, "age": int})
    schema({"name": "Ada", "age": "36"})
    """,
    """
    from voluptuous import Schema, Required
    schema = Schema({Required("host"): str, "port": int})
    schema({"port": 8080})
    """,
    """
    from voluptuous import Schema
    schema = Schema({"name": str})
    schema({"name": "Ada", "email": "ada@example.com"})
    """,
    """
    from voluptuous import Schema
    schema = Schema({"name": str, "age": int})
    schema([("name", "Ada"), ("age", 36)])
    """,
    """
    from voluptuous import Schema
    Schema(int)("42")
    """,
    """
    from voluptuous import Schema
    schema = Schema([int])
    schema([1, 2, "three"])
    """,
    """
    from voluptuous import Schema
    schema = Schema([])
    schema([1])
    """,
    """
    from voluptuous import Schema
    schema = Schema({str})
    schema({"a", 1})
    """,
    """
    from voluptuous import Schema, Exclusive
    schema = Schema({Exclusive("token", "auth"): str, Exclusive("password", "auth"): str})
    schema({"token": "abc", "password": "secret"})
    """,
    """
    from voluptuous import Schema, Inclusive
    schema = Schema({Inclusive("width", "size"): int, Inclusive("height", "size"): int})
    schema({"width": 100})
    """,
    """
    import re
    from voluptuous import Schema
    Schema({"zip": re.compile(r"^[0-9]{5}$")})
    """,
    """
    from voluptuous import Schema, Msg
    Schema(Msg(int, "must be an integer", cls=ValueError))
    """,
    """
    from voluptuous import message
    @message("not an integer", cls=TypeError)
    def isint(v):
        return int(v)
    """,
    """
    from voluptuous import Schema
    Schema({"a": int}).extend([str])
    """,
    """
    from voluptuous import Coerce
    Coerce(float)("1,5")
    """,
    """
    from voluptuous import Coerce
    Coerce(int, msg="port must be a number")(None)
    """,
    """
    from voluptuous import Email
    Email()("john.doe(at)example.com")
    """,
    """
    from voluptuous import Url
    Url()("www.example.com")
    """,
    """
    from voluptuous import IsFile
    IsFile()("does-not-exist.cfg")
    """,
    """
    from voluptuous import Any
    allowed_formats = []
    Any(*allowed_formats)("json")
    """,
    """
    from voluptuous import Any
    Any("debug", "info", "warning", msg="invalid log level")("verbose")
    """,
    """
    from voluptuous import Match
    Match(r"^\\d{5}$")("7500")
    """,
    """
    from voluptuous import Match
    Match(r"^\\d{5}$")(75001)
    """,
    """
    from voluptuous import Range
    Range(min=1, max=65535)(0)
    """,
    """
    from voluptuous import Range
    Range(min=0, min_included=False)(0)
    """,
    """
    from voluptuous import Range
    Range(min=0, max=100)(250)
    """,
    """
    from voluptuous import Range
    Range(max=1.0, max_included=False)(1.0)
    """,
    """
    from voluptuous import Range
    Range(min=1, max=10)("5")
    """,
    """
    from voluptuous import Clamp
    Clamp(min=0, max=10)(None)
    """,
    """
    from voluptuous import Length
    Length(min=3)("ab")
    """,
    """
    from voluptuous import Length
    Length(max=2)([1, 2, 3])
    """,
    """
    from voluptuous import Length
    Length(min=1)(42)
    """,
    """
    from voluptuous import Datetime
    Datetime()("2024-01-15 10:30:00")
    """,
    """
    from voluptuous import Date
    Date()("15/01/2024")
    """,
    """
    from voluptuous import In
    In(["red", "green", "blue"])("purple")
    """,
    """
    from voluptuous import NotIn
    NotIn(["admin", "root"])("root")
    """,
    """
    from voluptuous import Contains
    Contains("admin")(["user", "guest"])
    """,
    """
    from voluptuous import ExactSequence
    ExactSequence([str, int])(["x"])
    """,
    """
    from voluptuous import Unique
    Unique()([1, 2, 2, 3])
    """,
    """
    from voluptuous import Unique
    Unique()([[1], [2]])
    """,
    """
    from voluptuous import Equal
    Equal("v2")("v1")
    """,
    """
    from voluptuous import Unordered
    Unordered([int, str])(5)
    """,
    """
    from voluptuous import Unordered
    Unordered([int, str, bool])([1, "a"])
    """,
    """
    from voluptuous import Unordered
    Unordered([int, str])([1, 2.5])
    """,
    """
    from voluptuous import Number
    Number(precision=6, scale=2)("12345.678")
    """,
    """
    from voluptuous import Number
    Number(scale=2)("19.999")
    """,
    """
    from voluptuous import Number
    Number(precision=4)("twelve")
    """,
    """
    from voluptuous import Number
    Number(precision=4)("Infinity")
    """,
    """
    from voluptuous import SomeOf, Match
    SomeOf(min_valid=2, validators=[Match(r".*[A-Z]"), Match(r".*[0-9]"), Match(r".*[!@#]")])("password")
    """,
    """
    from voluptuous import SomeOf, Range
    SomeOf(max_valid=1, validators=[Range(min=0), Range(max=10)])(5)
    """,
    """
    from voluptuous.util import Set
    Set()([[1, 2], [3, 4]])
    """,
    """
    from voluptuous.util import Literal
    Literal("production")("prod")
    """,
    """
    from voluptuous import Schema
    from voluptuous.humanize import validate_with_humanized_errors
    validate_with_humanized_errors({"port": "80a"}, Schema({"port": int}))
    """,
    """
    from voluptuous import Schema, Object
    class Point:
        def __init__(self, x, y):
            self.x, self.y = x, y
    class Vector(Point):
        pass
    Schema(Object({"x": int, "y": int}, cls=Vector))(Point(1, 2))
    """,
    """
    from voluptuous import Schema, Self
    Self()
    """,
]
