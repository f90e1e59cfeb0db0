"""Ordinary code that makes more-itertools raise."""

LIBRARY = "more-itertools"

SNIPPETS = [
    """
    import more_itertools as mit
    mit.one([])
    """,
    """
    import more_itertools as mit
    mit.one(["alpha", "beta", "gamma"])
    """,
    """
    import more_itertools as mit
    mit.only(["alpha", "beta"])
    """,
    """
    import more_itertools as mit
    mit.first([])
    """,
    """
    import more_itertools as mit
    mit.last([])
    """,
    """
    import more_itertools as mit
    list(mit.chunked([1, 2, 3, 4, 5], 2, strict=True))
    """,
    """
    import more_itertools as mit
    list(mit.sliced("abcdefg", 3, strict=True))
    """,
    """
    import more_itertools as mit
    mit.numeric_range(0, 100, 5).index(42)
    """,
    """
    import more_itertools as mit
    list(mit.grouper([1, 2, 3], 2, incomplete="pad"))
    """,
    """
    import more_itertools as mit
    mit.distribute(0, [1, 2, 3])
    """,
    """
    import more_itertools as mit
    mit.divide(0, [1, 2, 3])
    """,
    """
    import more_itertools as mit
    list(mit.strictly_n(["a", "b"], 3))
    """,
    """
    import more_itertools as mit
    mit.nth_permutation("abcd", 2, 100)
    """,
    """
    import more_itertools as mit
    mit.nth_combination(range(5), 3, 50)
    """,
    """
    import more_itertools as mit
    mit.permutation_index([1, 9], range(5))
    """,
    """
    import more_itertools as mit
    mit.combination_index("az", "abc")
    """,
    """
    import more_itertools as mit
    mit.numeric_range(1, 10, 0)
    """,
    """
    import more_itertools as mit
    mit.peekable([]).peek()
    """,
    """
    import more_itertools as mit
    list(mit.sample(range(3), 5, strict=True))
    """,
    """
    import more_itertools as mit
    list(mit.batched("abcde", 2, strict=True))
    """,
    """
    import more_itertools as mit
    list(mit.constrained_batches([b"abc", b"defgh"], 4, strict=True))
    """,
    """
    import more_itertools as mit
    mit.time_limited(-1, range(10))
    """,
    """
    import more_itertools as mit
    list(mit.unique_in_window([1, 2, 2], 0))
    """,
    """
    import more_itertools as mit
    list(mit.interleave_evenly([[1, 2], [3]], lengths=[2]))
    """,
    """
    import more_itertools as mit
    list(mit.set_partitions([1, 2, 3], 0))
    """,
    """
    import more_itertools as mit
    list(mit.windowed([1, 2, 3], -1))
    """,
    """
    import more_itertools as mit
    list(mit.sliding_window("abcdef", 0))
    """,
]
