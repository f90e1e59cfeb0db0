"""Ordinary code that makes marshmallow raise."""

LIBRARY = "marshmallow"

SNIPPETS = [
    """
    from marshmallow import Schema, fields

    class UserSchema(Schema):
        name = fields.String(required=True)
        age = fields.Integer()

    UserSchema().load({"age": 36})
    """,
    """
    from marshmallow import Schema, fields

    class UserSchema(Schema):
        name = fields.String(required=True)
        age = fields.Integer()

    UserSchema().load({"name": "ada", "age": "thirty-six"})
    """,
    """
    from marshmallow import Schema, fields

    class UserSchema(Schema):
        name = fields.String()

    UserSchema().load({"name": "ada", "nickname": "countess"})
    """,
    """
    from marshmallow import Schema, fields

    class UserSchema(Schema):
        name = fields.String()

    UserSchema(many=True).load({"name": "ada"})
    """,
    """
    from marshmallow import Schema, fields

    class UserSchema(Schema):
        name = fields.String()

    UserSchema(only=("name", "email"))
    """,
    """
    from marshmallow import Schema, fields

    class OrderSchema(Schema):
        customer = fields.Nested("CustomerSchema")

    OrderSchema().fields["customer"].schema
    """,
    """
    from marshmallow import fields
    fields.String(required=True, load_default="anonymous")
    """,
    """
    from marshmallow import fields
    fields.Integer(strict=True).deserialize(1.5)
    """,
    """
    from marshmallow import fields
    fields.List(str)
    """,
    """
    from marshmallow import validate
    validate.Range(min=18)(16)
    """,
    """
    from marshmallow import validate
    validate.Length(equal=5)("1234")
    """,
    """
    from marshmallow import validate
    validate.Regexp(r"^[A-Z]{3}$")("usd")
    """,
    """
    from marshmallow import validate
    validate.Equal("yes")("no")
    """,
    """
    from marshmallow import validate
    validate.NoneOf(["root", "admin"])("root")
    """,
    """
    from marshmallow import validate
    validate.ContainsOnly(["read", "write"])(["read", "delete"])
    """,
    """
    from marshmallow import validate
    validate.Length(min=1, max=10, equal=5)
    """,
    """
    from marshmallow import fields
    fields.Dict(keys=fields.Integer(), values=fields.String()).deserialize({"one": "a"})
    """,
    """
    from marshmallow import fields
    fields.IP().deserialize("300.1.1.1")
    """,
    """
    from marshmallow import fields
    fields.TimeDelta().deserialize("an hour")
    """,
    """
    from marshmallow import fields
    fields.Time().deserialize("25:00")
    """,
    """
    from marshmallow import fields
    fields.String().deserialize(None)
    """,
    """
    from marshmallow import fields
    fields.String().deserialize(42)
    """,
    """
    from marshmallow import fields
    fields.Raw(validate="not-callable")
    """,
    """
    from marshmallow import validate
    validate.URL(schemes={"https"})("http://example.com")
    """,
    """
    from marshmallow import fields
    fields.AwareDateTime().deserialize("2024-01-01T00:00:00")
    """,
    """
    from marshmallow import fields
    fields.Email().deserialize("ada-at-example.com")
    """,
    """
    from marshmallow import fields
    fields.UUID().deserialize("1234-abcd")
    """,
    """
    from marshmallow import Schema, ValidationError, fields, validates

    class TransferSchema(Schema):
        amount = fields.Integer()

        @validates("amount")
        def check_amount(self, value, **kwargs):
            if value > 1000:
                raise ValidationError("Transfers above 1000 need approval.")

    TransferSchema().load({"amount": 5000})
    """,
]
