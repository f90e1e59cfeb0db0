"""Ordinary code that makes python-dateutil raise."""

LIBRARY = "python-dateutil"

SNIPPETS = [
    """
    from dateutil import parser
    parser.parse("next thursday afternoon")
    """,
    """
    from dateutil import parser
    parser.parse("2024-02-30")
    """,
    """
    from dateutil import parser
    parser.parse("")
    """,
    """
    from dateutil import parser
    parser.parse("13/13/2024")
    """,
    """
    from dateutil import parser
    parser.parse("12:61")
    """,
    """
    from dateutil import parser
    parser.isoparse("2024-13-01")
    """,
    """
    from dateutil import parser
    parser.isoparse("20240101T1")
    """,
    """
    from dateutil import parser
    parser.parse(20240101)
    """,
    """
    from dateutil.relativedelta import relativedelta
    relativedelta(months=1.5)
    """,
    """
    import datetime
    from dateutil.relativedelta import relativedelta
    relativedelta(datetime.date(2024, 1, 1), "2023-01-01")
    """,
    """
    from dateutil import rrule
    rrule.rrulestr("FREQ=FORTNIGHTLY;COUNT=3")
    """,
    """
    from dateutil import rrule
    rrule.rrulestr("FREQ=WEEKLY;BYDAY=XX")
    """,
    """
    from dateutil import rrule
    rrule.rrulestr("FREQ=DAILY;EVERY=2")
    """,
    """
    import datetime
    from dateutil import rrule
    rrule.rrule(rrule.MONTHLY, dtstart=datetime.datetime(2024, 1, 1), bysetpos=0)
    """,
    """
    from dateutil import rrule
    rrule.rrulestr("RRULE:FREQ=DAILY\\nEXTRA:1", forceset=True)
    """,
    """
    from dateutil import easter
    easter.easter(2024, method=7)
    """,
    """
    from dateutil import parser
    parser.isoparser(sep="at")
    """,
    """
    from dateutil import parser
    parser.isoparser().parse_isodate("2024-01-01T")
    """,
    """
    from dateutil import parser
    parser.isoparser().parse_tzstr("+2500")
    """,
    """
    from dateutil import tz
    tz.tzoffset("EST", "-5h")
    """,
]
