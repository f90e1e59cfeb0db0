"""Ordinary code that makes pint raise."""

LIBRARY = "pint"

SNIPPETS = [
    """
    import pint
    u = pint.UnitRegistry()
    (3 * u.meter) + (2 * u.second)
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(5, "kilometer").to("kilogram")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u("3 furlongs per fortnite")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(2.5, "meters_per_sec")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity({"value": 3}, "meter")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(10, "degC") * u.Quantity(2, "degC")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(20, "degC") + u.Quantity(5, "degC")
    """,
    """
    import pint
    a = pint.UnitRegistry()
    b = pint.UnitRegistry()
    a.Quantity(1, "meter") + b.Quantity(2, "meter")
    """,
    """
    import pint
    u = pint.UnitRegistry(on_redefinition="raise")
    u.define("meter = 100 * centimeter")
    """,
    """
    import pint
    u = pint.UnitRegistry(on_redefinition="raise")
    u.define("smoot = 1.7018 meter = sm")
    u.define("smoot = 67 inch")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    length = u.Quantity(3, "meter")
    float(length)
    """,
    """
    import pint
    u = pint.UnitRegistry()
    count = u.Quantity(3, "meter")
    range(int(count))
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(3, "meter") < 5
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(3, "kilogram") > u.Quantity(1, "meter")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(2, "meter") ** u.Quantity(2, "meter")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    2 ** u.Quantity(3, "second")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(3, "meter")[0]
    """,
    """
    import pint
    u = pint.UnitRegistry()
    len(u.Quantity(3, "meter"))
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.parse_units("2 meter / second")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    q = u.Quantity(1.5, "meter / second")
    f"{q:Z}"
    """,
    """
    import pint
    u = pint.UnitRegistry()

    @u.wraps("meter", "meter")
    def double(x):
        return 2 * x

    double(3 * u.second)
    """,
    """
    import pint
    u = pint.UnitRegistry()

    @u.check("[length]", "[time]")
    def speed(distance, duration):
        return distance / duration

    speed(3 * u.meter, 4 * u.kilogram)
    """,
    """
    import pint
    u = pint.UnitRegistry()

    @u.check("[length]")
    def area(width, height):
        return width * height
    """,
    """
    import pint
    u = pint.UnitRegistry()

    @u.wraps("meter", ("meter", "meter", "meter"))
    def total(a, b):
        return a + b
    """,
    """
    import pint
    u = pint.UnitRegistry()

    @u.wraps("meter", 5)
    def grow(x):
        return x
    """,
    """
    import pint
    u = pint.UnitRegistry()

    @u.wraps("meter", "meter", strict=True)
    def grow(x):
        return x * 2

    grow(3.0)
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(10, "degC") ** 2
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(500, "nanometer").to("hertz")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(1, "meter").to("meter", "optics")
    """,
    """
    import pint
    pint.set_application_registry("default")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity("")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(3, 42)
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Unit(12)
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.get_dimensionality("[lenght]")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.default_system = "imperial_units"
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.get_group("tools", create_if_needed=False)
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.get_compatible_units("parsec", group_or_system="astronomy")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Measurement(3.0, 0.1, "meter")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.define("2meter = 100 centimeter")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.define("[speed] = [length] / [time] / meter")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.define("3hyper- = 1e30")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.define("wibble")
    """,
    """
    import pint
    with open("units.txt", "w") as f:
        f.write("@defaults\\n    currency = EUR\\n@end\\n")
    u = pint.UnitRegistry("units.txt")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.define("[my dim] = [length] / [time]")
    """,
    """
    import numpy as np
    import pint
    u = pint.UnitRegistry()
    np.sum(u.Quantity(np.array([50.0, 68.0]), "degF"))
    """,
    """
    import numpy as np
    import pint
    u = pint.UnitRegistry()
    lengths = u.Quantity(np.array([1.0, 2.0, 3.0]), "meter")
    lengths[0] = 5
    """,
    """
    import numpy as np
    import pint
    u = pint.UnitRegistry()
    lengths = u.Quantity(np.array([1.0, 2.0, 3.0]), "meter")
    lengths.clip(0, 2)
    """,
    """
    import numpy as np
    import pint
    u = pint.UnitRegistry()
    lengths = u.Quantity(np.array([1.0, 2.0, 3.0]), "meter")
    lengths.searchsorted(2.5)
    """,
    """
    import numpy as np
    import pint
    u = pint.UnitRegistry()
    u.enable_contexts("spectroscop")
    """,
    """
    import numpy as np
    import pint
    u = pint.UnitRegistry()
    temps = u.Quantity(np.array([10.0, 20.0]), "degC")
    np.where(temps, 1, 0)
    """,
    """
    import numpy as np
    import pint
    u = pint.UnitRegistry()
    u.sys.metric
    """,
    """
    import pint
    u = pint.UnitRegistry()
    q = u.Quantity(3, "meter")
    q.lower()
    """,
    """
    import pint
    u = pint.UnitRegistry()
    bool(u.Quantity(0, "degC"))
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(3, "meter").tolist()
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(20, "degC").to("degF / second")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    q = u.Quantity(3, "meter")
    u.formatter.format_quantity_babel(q)
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(3, "meter") ** "2"
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(3, "meter") < u.Unit("second")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    q = u.Quantity(7, "meter")
    q += 3
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(5, "second") - 2
    """,
    """
    import pint
    u = pint.UnitRegistry()
    import math
    math.floor(u.Quantity(3.7, "kilogram"))
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity.from_sequence([])
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.parse_expression("3 meter ** ")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    with open("units.txt", "w") as f:
        f.write("@group Custom\\n    smoot\\n")
    u.load_definitions("units.txt")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    u.Quantity(2, "kilodegC")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    c = pint.Context()
    u.add_context(c)
    """,
    """
    import pint
    u = pint.UnitRegistry()
    c = pint.Context("fun")
    c.redefine("meter = 2 * foot")
    u.add_context(c)
    u.enable_contexts("fun")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    c = pint.Context("fun")
    c.redefine("kilometer = 2000 meter")
    u.add_context(c)
    u.enable_contexts("fun")
    """,
    """
    import pint
    u = pint.UnitRegistry()
    c = pint.Context("fun")
    c.redefine("inch = 1 second")
    u.add_context(c)
    u.enable_contexts("fun")
    """,
    """
    import pint

    @pint.register_unit_format("P")
    def format_unit_simple(unit, registry, **options):
        return " * ".join(f"{u} ** {p}" for u, p in unit.items())
    """,
]
