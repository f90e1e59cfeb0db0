"""Ordinary code that makes cerberus raise."""

LIBRARY = "cerberus"

SNIPPETS = [
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    v.validate(None)
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    v.validate([{"name": "Ada"}, {"name": "Bob"}])
    """,
    """
    import json
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    v.validate(json.dumps({"name": "Ada"}))
    """,
    """
    from cerberus import Validator
    v = Validator()
    v.validate({"name": "Ada"})
    """,
    """
    from cerberus import Validator
    Validator(["name", "age"])
    """,
    """
    from cerberus import Validator
    Validator("user_schema")
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    v.schema = [("name", "string")]
    """,
    """
    from cerberus import Validator
    Validator({"name": {"type": "str"}, "age": {"type": "int"}})
    """,
    """
    from cerberus import Validator
    Validator({"name": {"type": "string"}}, error_handler="json")
    """,
    """
    from cerberus import Validator
    schema = {"name": {"type": "string"}}
    Validator(schema, schema=schema)
    """,
    """
    from cerberus import Validator
    Validator({"name": {"type": "string"}}, False, True, allow_unknown=True)
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    del v.schema["age"]
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    v.schema.update([("age", {"type": "integer"})])
    """,
    """
    from cerberus import schema_registry
    schema_registry.add("address", ("street", "city"))
    """,
    """
    from cerberus import Validator
    Validator({"tags": {"type": "dict", "keyschema": {"type": "string"}, "keysrules": {"type": "string"}}})
    """,
    """
    from cerberus import Validator
    v = Validator({"point": {"items": [{"type": "number"}, {"type": "number"}]}})
    v.validate({"point": 5})
    """,
    """
    from cerberus import Validator
    v = Validator({"flags": {"items": [{"type": "boolean"}]}})
    v.validate({"flags": True})
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    v.validate({"name": 1})
    "type" in v._errors
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    v.types = ("string", "uuid")
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    del v.types
    """,
    """
    from cerberus.schema import DefinitionSchema
    DefinitionSchema({"name": {"type": "string"}}, {"name": "Ada"})
    """,
    """
    from cerberus import rules_set_registry
    rules_set_registry.add("positive", 0)
    """,
    """
    from cerberus import rules_set_registry
    rules_set_registry.extend([("nonempty", True)])
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"type": "string"}})
    v.schema.validate({"age": 3})
    """,
    """
    from cerberus import Validator
    schema = {"users": {"type": "list", "schema": {"name": {"type": "string"}, "age": {"type": "integer"}}}}
    Validator(schema).validate({"users": [{"name": "Ada", "age": 36}]})
    """,
    """
    from cerberus import Validator
    schema = {"address": {"schema": {"city": {"type": "string"}}}}
    Validator(schema).validate({"address": ["Paris"]})
    """,
    """
    from cerberus import Validator
    v = Validator({"color": {"type": "string", "allowed": [{"red", "green"}]}})
    v.validate({"color": "red"})
    """,
    """
    from cerberus import Validator
    v = Validator({"opt": {"forbidden": [{"debug": True}]}})
    v.validate({"opt": [1]})
    """,
    """
    from cerberus import Validator
    v = Validator({"name": {"excludes": [["nickname", "alias"]]}})
    v.validate({"name": "Ada"})
    """,
    """
    from cerberus import Validator
    v = Validator({"tags": {"forbidden": ["admin"]}})
    v.validate({"tags": [["root"]]})
    """,
    """
    from cerberus import Validator
    class MyValidator(Validator):
        types_mapping = {"money": float}
    MyValidator({"price": {"type": "money"}}).validate({"price": 9.99})
    """,
    """
    from cerberus import Validator, errors
    Validator({"name": {"type": "string"}}, error_handler=(errors.BasicErrorHandler, {"indent": 2}))
    """,
    """
    from cerberus import errors
    handler = errors.BasicErrorHandler()
    handler(5)
    """,
    """
    from cerberus import Validator
    v = Validator({"zip": {"dependencies": "address.country"}, "address": {}})
    v.validate({"zip": "75001", "address": 33})
    """,
    """
    from cerberus import Validator
    v = Validator({"zip": {"dependencies": {"address.country": ["FR"]}}, "address": {}})
    v.validate({"zip": "75001", "address": None})
    """,
    """
    from cerberus import Validator, errors
    class Handler(errors.BasicErrorHandler):
        messages = dict(errors.BasicErrorHandler.messages)
        messages[0x24] = "{field} must be of type {expected}"
    v = Validator({"age": {"type": "integer"}}, error_handler=Handler)
    v.validate({"age": "old"})
    print(v.errors)
    """,
    """
    from cerberus import Validator, errors
    class Handler(errors.BasicErrorHandler):
        messages = dict(errors.BasicErrorHandler.messages)
        messages[0x27] = "min length is {0}, got {1} ({2})"
    v = Validator({"name": {"minlength": 3}}, error_handler=Handler)
    v.validate({"name": "Al"})
    print(v.errors)
    """,
    """
    from cerberus import Validator
    Validator({"name": {"type": "string"}}, allow_unknown="yes")
    """,
    """
    from cerberus import Validator
    Validator({"name": {"type": "string"}}).normalized({"name": "Ada"}, schema="person")
    """,
    """
    from cerberus import Validator
    Validator({"score": {"oneof": [{"min": 0}, 100]}}).validate({"score": 5})
    """,
]
