"""Ordinary code that makes jsonschema raise.

``jsonschema.validate`` raises every validation error from one line (the error object is
built in the keyword function and raised by the validator), so a few of these share a site
with different messages; the rest reach other raise statements.
"""

LIBRARY = "jsonschema"

SNIPPETS = [
    """
    from jsonschema import validate
    schema = {"type": "object", "properties": {"age": {"type": "integer"}}}
    validate({"name": "ada", "age": "thirty"}, schema)
    """,
    """
    from jsonschema import validate
    validate({"email": "ada@example.com"}, {"type": "object", "required": ["name", "email"]})
    """,
    """
    from jsonschema import validate
    validate({"size": "XL"}, {"properties": {"size": {"enum": ["S", "M", "L"]}}})
    """,
    """
    from jsonschema import validate
    schema = {"type": "object", "properties": {"id": {}}, "additionalProperties": False}
    validate({"id": 1, "debug": True}, schema)
    """,
    """
    from jsonschema import Draft202012Validator
    Draft202012Validator({"type": "string", "maxLength": 5}).validate("too long a string")
    """,
    """
    from jsonschema import Draft7Validator
    Draft7Validator.check_schema({"type": "integer", "minimum": "zero"})
    """,
    """
    from jsonschema import validate
    validate({"tags": ["a"]}, {"properties": {"tags": {"type": "list"}}})
    """,
    """
    from jsonschema import validate
    validate({"id": 1}, {"properties": {"id": {"$ref": "#/definitions/identifier"}}})
    """,
    """
    from jsonschema import FormatChecker
    FormatChecker().check("2024-13-01", "date")
    """,
    """
    from jsonschema import TypeChecker
    TypeChecker().is_type(1.5, "decimal")
    """,
    """
    from jsonschema import Draft202012Validator
    Draft202012Validator({"type": "money"}).validate(12)
    """,
    """
    from jsonschema import Draft202012Validator
    Draft202012Validator({"type": "object"}).evolve(strict=True)
    """,
    """
    from jsonschema import Draft202012Validator, FormatChecker
    validator = Draft202012Validator({"format": "ipv4"}, format_checker=FormatChecker())
    validator.validate("300.1.1.1")
    """,
    """
    from jsonschema import validate
    validate([1, 2, 2], {"type": "array", "uniqueItems": True, "maxItems": 5})
    """,
    """
    from referencing import Registry
    Registry().get_or_retrieve("urn:example:address")
    """,
]
