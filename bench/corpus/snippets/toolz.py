"""Ordinary code that makes toolz raise.

toolz has few raise statements: many of its errors come out of plain operations (a
subscript, ``next()``), so several of these have truth kind ``other``.
"""

LIBRARY = "toolz"

SNIPPETS = [
    """
    import toolz
    toolz.merge({"host": "a"}, {"port": 80}, overwrite=True)
    """,
    """
    import toolz
    toolz.merge_with(sum, {"a": [1]}, {"a": [2]}, strict=False)
    """,
    """
    import toolz
    toolz.curry("len")
    """,
    """
    import toolz
    toolz.curry()
    """,
    """
    import toolz
    toolz.apply()
    """,
    """
    import toolz
    list(toolz.diff((1, 2, 3)))
    """,
    """
    import toolz

    @toolz.memoize
    def total(values):
        return sum(values)

    total([1, 2, 3])
    """,
    """
    import toolz
    toolz.flatten_dict({"a": {"b": 1}})
    """,
    """
    import toolz
    toolz.first([])
    """,
    """
    import toolz
    toolz.get_in(["database", "host"], {"database": {"port": 5432}}, no_default=True)
    """,
    """
    import toolz
    toolz.get("port", {"host": "localhost"})
    """,
    """
    import toolz
    toolz.nth(5, [10, 20, 30])
    """,
]
