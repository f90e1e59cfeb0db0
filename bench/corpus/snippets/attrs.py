"""Ordinary code that makes attrs raise."""

LIBRARY = "attrs"

SNIPPETS = [
    """
    import attrs

    @attrs.define
    class Config:
        debug: bool = False
        name: str
    """,
    """
    import attrs

    @attrs.frozen
    class Point:
        x: int
        y: int

    Point(1, 2).x = 5
    """,
    """
    import attrs

    @attrs.frozen
    class Point:
        x: int
        y: int

    attrs.evolve(Point(1, 2), z=3)
    """,
    """
    import attrs
    attrs.fields(dict)
    """,
    """
    import attrs

    @attrs.define
    class Order:
        quantity: int = attrs.field(validator=attrs.validators.gt(0))

    Order(-3)
    """,
    """
    import attrs

    @attrs.define
    class Account:
        number: str = attrs.field(validator=attrs.validators.matches_re(r"^\\d{8}$"))

    Account("12-34")
    """,
    """
    import attrs

    @attrs.define
    class Tag:
        label: str = attrs.field(validator=attrs.validators.max_len(8))

    Tag("engineering")
    """,
    """
    import attrs

    @attrs.define
    class Batch:
        ids: list = attrs.field(validator=attrs.validators.deep_iterable(attrs.validators.instance_of(int)))

    Batch([1, 2, "3"])
    """,
    """
    import attrs
    attrs.field(default=1, factory=list)
    """,
    """
    import attrs
    attrs.make_class("Row", 5)
    """,
    """
    import attrs
    attrs.define(order=True, eq=False)(type("Row", (), {}))
    """,
    """
    import attrs

    @attrs.define
    class Level:
        value: int = attrs.field(validator=attrs.validators.lt(5))

    Level(9)
    """,
    """
    import attrs

    @attrs.define
    class Hook:
        callback: object = attrs.field(validator=attrs.validators.is_callable())

    Hook("print")
    """,
    """
    import attrs

    @attrs.define
    class Scores:
        by_name: dict = attrs.field(validator=attrs.validators.deep_mapping(
            attrs.validators.instance_of(str), attrs.validators.instance_of(int)))

    Scores({"ada": "ten"})
    """,
    """
    import attrs

    @attrs.define
    class Password:
        value: str = attrs.field(validator=attrs.validators.min_len(12))

    Password("hunter2")
    """,
    """
    import attrs

    @attrs.define
    class Payload:
        body: object = attrs.field(validator=attrs.validators.or_(
            attrs.validators.instance_of(bytes), attrs.validators.instance_of(dict)))

    Payload("text")
    """,
    """
    import attrs

    @attrs.define
    class Size:
        unit: str = attrs.field(validator=attrs.validators.in_(["px", "em", "rem"]))

    Size("pt")
    """,
    """
    import attrs

    @attrs.define
    class User:
        age: int = attrs.field(validator=attrs.validators.instance_of(int))

    User("forty")
    """,
    """
    import attrs

    @attrs.define
    class Flag:
        name: str = attrs.field(validator=attrs.validators.not_(attrs.validators.in_(["admin"])))

    Flag("admin")
    """,
    """
    import attrs
    attrs.asdict(["ada", 36])
    """,
]
