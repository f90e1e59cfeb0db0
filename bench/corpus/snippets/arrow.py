"""Ordinary code that makes arrow raise."""

LIBRARY = "arrow"

SNIPPETS = [
    """
    import arrow
    arrow.get("tomorrow")
    """,
    """
    import arrow
    arrow.get("2023-01-15T9:30")
    """,
    """
    import arrow
    arrow.get("15/01/2023", "YYYY-MM-DD")
    """,
    """
    import arrow
    arrow.get("13:45 AM", "hh:mm A")
    """,
    """
    import arrow
    arrow.get("045", "DDDD")
    """,
    """
    import arrow
    arrow.get("2023-02-045", "YYYY-MM-DDDD")
    """,
    """
    import arrow
    arrow.get("2023-400", "YYYY-DDDD")
    """,
    """
    import arrow
    arrow.get("2023-01-15T24:30")
    """,
    """
    import arrow
    arrow.get("2023-01-15T24:00:15")
    """,
    """
    import arrow
    arrow.get("2023-01-15T24:00:00.250")
    """,
    """
    import arrow
    arrow.get("2023-01-15 10:00 Mars/Olympus", "YYYY-MM-DD HH:mm ZZZ")
    """,
    """
    import arrow
    arrow.get(None)
    """,
    """
    import arrow
    arrow.get([2023, 1, 15])
    """,
    """
    import arrow
    from datetime import datetime
    arrow.get(datetime(2023, 1, 15), 5)
    """,
    """
    import arrow
    from datetime import date
    arrow.get(date(2023, 1, 15), 3.5)
    """,
    """
    import arrow
    arrow.get(1673780000.0, 1673790000.0)
    """,
    """
    import arrow
    arrow.get("2023-01-15T10:00:00+00:00").to("Mars/Phobos")
    """,
    """
    import arrow
    arrow.get("2023-01-15").shift(fortnights=1)
    """,
    """
    import arrow
    arrow.get("2023-01-15").replace(weeks=1)
    """,
    """
    import arrow
    arrow.get("2023-01-15").replace(hours=2)
    """,
    """
    import arrow
    arrow.get("2023-01-15").span("fortnight")
    """,
    """
    import arrow
    arrow.get("2023-01-15").floor("weekday")
    """,
    """
    import arrow
    arrow.get("2023-01-15").span("week", week_start=9)
    """,
    """
    import arrow
    start = arrow.get("2023-01-15")
    list(arrow.Arrow.range("day", start))
    """,
    """
    import arrow
    start = arrow.get("2023-01-15T08:00")
    end = arrow.get("2023-01-15T12:00")
    list(arrow.Arrow.interval("hour", start, end, interval=0))
    """,
    """
    import arrow
    list(arrow.Arrow.span_range("day", "2023-01-01", "2023-01-05"))
    """,
    """
    import arrow
    arrow.get("2023-01-15").humanize(other="yesterday")
    """,
    """
    import arrow
    a = arrow.get("2023-01-15")
    b = arrow.get("2020-06-01")
    a.humanize(b, granularity="decade")
    """,
    """
    import arrow
    a = arrow.get("2023-01-15")
    b = arrow.get("2020-06-01")
    a.humanize(b, granularity=["year", "fortnight"])
    """,
    """
    import arrow
    a = arrow.get("2023-01-15")
    b = arrow.get("2020-06-01")
    a.humanize(b, granularity=[])
    """,
    """
    import arrow
    a = arrow.get("2023-01-15")
    b = arrow.get("2020-06-01")
    a.humanize(b, locale="xx-yy")
    """,
    """
    import arrow
    arrow.get("2023-01-15").dehumanize("in 2 fortnights")
    """,
    """
    import arrow
    a = arrow.get("2023-01-15")
    a.humanize(a, locale="is", granularity=["minute"])
    """,
    """
    import arrow
    a = arrow.get("2023-01-15")
    b = arrow.get("2023-03-15")
    a.is_between(a, b, bounds="{}")
    """,
    """
    import arrow
    arrow.get((2023, 60, 1))
    """,
    """
    import arrow
    arrow.get((2023, 10, 9))
    """,
    """
    import arrow
    arrow.Arrow.fromtimestamp("yesterday")
    """,
    """
    import arrow
    arrow.Arrow.utcfromtimestamp("1673780000s")
    """,
    """
    import arrow
    arrow.Arrow.fromtimestamp(1e20)
    """,
    """
    import arrow
    arrow.Arrow.fromordinal(738535.5)
    """,
    """
    import arrow
    arrow.Arrow.fromordinal(0)
    """,
    """
    import arrow
    arrow.get("2023-01-15").format("dddd D MMMM YYYY", locale="klingon")
    """,
    """
    import arrow.locales
    arrow.locales.get_locale_by_class_name("KlingonLocale")
    """,
    """
    import arrow.locales

    class MyEnglishLocale(arrow.locales.EnglishLocale):
        names = ["en-us"]
    """,
    """
    import arrow
    a = arrow.get("2023-01-15")
    b = arrow.get("2023-01-01")
    a.humanize(b, locale="bg", granularity="week")
    """,
    """
    import arrow
    arrow.get("1/2/2023", ["MM/DD", "YYYY-MM-DD"])
    """,
    """
    import arrow
    arrow.get("Mox, 15 Jan 2023", "ddd, D MMM YYYY")
    """,
    """
    import arrow
    arrow.get("2023-13-45")
    """,
    """
    import arrow
    arrow.get("")
    """,
    """
    import arrow
    arrow.get("2023-01-15", "YYYY-MM-DD", locale="xx")
    """,
    """
    import arrow
    arrow.get("2023-01-15 10:00:00", "YYYY-[MM-DD HH:mm:ss")
    """,
    """
    import arrow
    arrow.get("2023-01-15").dehumanize("2 days")
    """,
    """
    import arrow
    a = arrow.get("2023-01-15")
    b = arrow.get("2023-01-01")
    a.humanize(b, locale="af", granularity=["day", "week"])
    """,
    """
    import arrow
    arrow.get(2023, 1, 15, 10, 70)
    """,
    """
    import arrow
    arrow.Arrow(2023, 1, 15, tzinfo="Nowhere/City")
    """,
    """
    import arrow
    arrow.get("2023-01-15 10:00:00 10:00")
    """,
    """
    import arrow
    list(arrow.Arrow.range("quarterly", arrow.get("2023-01-01"), arrow.get("2023-12-01")))
    """,
    """
    import arrow
    list(arrow.Arrow.span_range("day", arrow.get("2023-01-01"), 20230105))
    """,
    """
    import arrow
    arrow.get("2023-01-15T10:00:00").to(5)
    """,
    """
    import arrow
    arrow.get("2023-01-15 10:00:00 +25:00", "YYYY-MM-DD HH:mm:ss ZZ")
    """,
    """
    import arrow
    arrow.get("2023-01-15").dehumanize("in 3 weeks", locale="is")
    """,
    """
    import arrow
    start = arrow.get("2023-01-01")
    list(arrow.Arrow.range("day", start, "2023-02-01"))
    """,
    """
    import arrow
    arrow.get("2023-01-15").format(5)
    """,
    """
    import arrow
    arrow.Arrow.fromdate("2023-01-15")
    """,
    """
    import arrow
    list(arrow.Arrow.range("day", arrow.get("2023-01-01"), limit="3"))
    """,
    """
    import arrow
    arrow.get("2023-01-15", tzinfo=5)
    """,
]
