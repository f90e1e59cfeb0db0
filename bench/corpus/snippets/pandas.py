"""Ordinary code that makes pandas raise."""

LIBRARY = "pandas"

SNIPPETS = [
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0], "qty": [3, 4]})
    df["total"]
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]}, index=["apple", "pear"])
    df.loc["plum"]
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]})
    df.iloc[10]
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0], "qty": [3, 4]})
    df.rename(columns={"cost": "price_eur"}, errors="raise")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0], "qty": [3, 4]})
    df.drop(columns=["discount", "qty"])
    """,
    """
    import pandas as pd
    pd.concat([])
    """,
    """
    import pandas as pd
    pd.DataFrame({"name": ["ada", "bob", "cy"], "age": [36, 41]})
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0], "qty": [3, 4]})
    df.set_index("sku")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0], "qty": [3, 4]})
    df.groupby("region").sum()
    """,
    """
    import io
    import pandas as pd
    pd.read_csv(io.StringIO("a,b\\n1,2\\n3,4\\n"), engine="python", skipfooter=1, nrows=1)
    """,
    """
    import io
    import pandas as pd
    pd.read_csv(io.StringIO("a,b\\n1,2\\n"), usecols=["a", "c"])
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0], "qty": [3, 4]})
    df.sort_values("date")
    """,
    """
    import pandas as pd
    pd.date_range("2024-01-01")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"day": ["mon", "mon"], "shop": ["a", "a"], "sales": [1, 2]})
    df.pivot(index="day", columns="shop", values="sales")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]})
    df.sum(axis=2)
    """,
    """
    import pandas as pd
    pd.cut([1, 5, 9], bins=[10, 5, 0])
    """,
    """
    import pandas as pd
    pd.Categorical(["s", "m"], categories=["s", "m", "s"])
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]})
    df.astype({"qty": "int64"})
    """,
    """
    import pandas as pd
    pd.DataFrame([[1, 2, 3]], columns=["a", "b"])
    """,
    """
    import pandas as pd
    s = pd.Series([1, 2], index=["x", "x"])
    s.reindex(["x", "y"])
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, None]})
    df.fillna(value=[0.0, 0.0])
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"id": [1], "q1": [5], "q2": [7]})
    df.melt(id_vars=["customer"], value_vars=["q1", "q2"])
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]})
    df.to_dict(orient="rows")
    """,
    """
    import pandas as pd
    pd.DataFrame.from_dict({"a": [1]}, orient="sideways")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]})
    df.resample("D").mean()
    """,
    """
    import pandas as pd
    pd.Series([1, 2, 3]).str.upper()
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]})
    df.insert(0, "price", [3.0, 4.0])
    """,
    """
    import pandas as pd
    pd.Series([10, 20, 30]).sample(frac=2)
    """,
    """
    import pandas as pd
    left = pd.DataFrame({"id": [1, 2], "x": [3, 4]})
    right = pd.DataFrame({"id": [1, 2], "y": [5, 6]})
    left.merge(right, how="sideways", on="id")
    """,
    """
    import pandas as pd
    left = pd.DataFrame({"id": [1, 2], "x": [3, 4]})
    right = pd.DataFrame({"key": [1, 2], "y": [5, 6]})
    left.merge(right, on="id")
    """,
    """
    import pandas as pd
    pd.Series([1, 2, 3]).rolling(-2)
    """,
    """
    import pandas as pd
    pd.to_datetime("the first of May")
    """,
    """
    import pandas as pd
    pd.Series([1, 2, 3], index=["a", "b", "c"])["d"]
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"a": [1, 2]})
    df["b"] = [1, 2, 3]
    """,
    """
    import pandas as pd
    pd.read_json("not json at all")
    """,
    """
    import pandas as pd
    pd.Series([3, 1, 2]).describe(percentiles=[0.5, 1.5])
    """,
    """
    import io
    import pandas as pd
    pd.read_csv(io.StringIO("a,b\\n1,2\\n"), engine="fastest")
    """,
    """
    import io
    import pandas as pd
    pd.read_csv(io.StringIO("a;b\\n1;2\\n"), sep=",", delimiter=";")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"tags": [["a", "b"], ["c"]]})
    df.explode([])
    """,
    """
    import pandas as pd
    pd.Series([1, 2]).astype("integer64")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.555, 2.0]})
    df.round("2")
    """,
    """
    import pandas as pd
    pd.Index(["a", "b"]).get_level_values(3)
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, None, 2.5]})
    df.interpolate(method="smooth")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]})
    df.to_csv(compression="rar")
    """,
    """
    import pandas as pd
    pd.Series([1, 2]).map({1: "one"}, na_action="skip")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"x": [1, 2, 3], "y": [2, 4, 7]})
    df.corr(method="cosine")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"size": ["s", "m"], "color": ["red", "blue"]})
    pd.get_dummies(df, prefix=["sz"])
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0]})
    df.head("3")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"shop": ["a", "b"], "sales": [1, 2]})
    df.groupby("shop").agg(total=("revenue", "sum"))
    """,
    """
    import pandas as pd
    pd.Series(["a", "b"]).str.pad(5, side="middle")
    """,
    """
    import pandas as pd
    df = pd.DataFrame({"price": [1.5, 2.0], "qty": [3, 4]})
    df.set_axis(["cost"], axis=1)
    """,
]
