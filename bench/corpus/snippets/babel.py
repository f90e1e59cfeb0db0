"""Ordinary code that makes babel raise."""

LIBRARY = "babel"

SNIPPETS = [
    """
    from babel import Locale
    Locale.parse("xx_YY")
    """,
    """
    from babel import Locale
    Locale("klingon")
    """,
    """
    from babel import Locale
    Locale.parse("en-US-")
    """,
    """
    from babel import Locale
    Locale.parse("")
    """,
    """
    from babel import Locale
    Locale.parse(1033)
    """,
    """
    import os
    from babel import Locale
    Locale.parse(os.environ.get("APP_LOCALE"))
    """,
    """
    from babel import Locale
    Locale.parse("en_US_POSIX_extra_more")
    """,
    """
    from babel.numbers import format_currency
    format_currency(1099.98, "USD", locale="en_US", format_type="fancy")
    """,
    """
    from babel.numbers import validate_currency
    validate_currency("XBT")
    """,
    """
    from babel.numbers import format_compact_currency
    format_compact_currency(1234567, "EUR", locale="de_DE", format_type="long")
    """,
    """
    from babel.numbers import parse_number
    parse_number("12,34a", locale="en_US")
    """,
    """
    from babel.numbers import parse_decimal
    parse_decimal("twelve", locale="de_DE")
    """,
    """
    from babel.numbers import parse_decimal
    parse_decimal("1,23,456.7", locale="en_US", strict=True)
    """,
    """
    from babel.numbers import parse_decimal
    parse_decimal("12,34", locale="en_US", strict=True)
    """,
    """
    from babel.numbers import format_decimal
    format_decimal(1234.5, locale="en_US", numbering_system="roman")
    """,
    """
    from babel.numbers import format_decimal
    format_decimal("12.5kg", locale="en_US")
    """,
    """
    from babel.dates import get_timezone
    get_timezone("Mars/Olympus")
    """,
    """
    from babel.dates import get_timezone, get_timezone_name
    get_timezone_name(get_timezone("Europe/Paris"), zone_variant="summer", locale="en")
    """,
    """
    from datetime import timedelta
    from babel.dates import format_timedelta
    format_timedelta(timedelta(hours=3), format="tiny", locale="en")
    """,
    """
    from babel.dates import parse_date
    parse_date("next tuesday", locale="en_US")
    """,
    """
    from babel.dates import parse_date
    parse_date("31/31/2023", locale="en_US")
    """,
    """
    from babel.dates import parse_time
    parse_time("noon", locale="en_US")
    """,
    """
    from babel.dates import parse_time
    parse_time("25:99", locale="en_US")
    """,
    """
    from datetime import date
    from babel.dates import format_date
    format_date(date(2023, 1, 15), "d MMMMMMM yyyy", locale="en")
    """,
    """
    from datetime import date
    from babel.dates import format_date
    format_date(date(2023, 1, 15), "yyyy-MM-dd HH:mm", locale="en")
    """,
    """
    from babel.dates import format_date
    format_date("2023-01-15", locale="en")
    """,
    """
    from datetime import time
    from babel.dates import format_time
    format_time(time(10, 0), tzinfo="Europe/Paris", locale="en")
    """,
    """
    from babel.dates import get_month_names
    get_month_names(width="full", locale="en")
    """,
    """
    from datetime import datetime
    from babel.dates import format_skeleton
    format_skeleton("yyyyMMddHHmm", datetime(2023, 1, 15, 10, 30), locale="en")
    """,
    """
    from babel.units import get_unit_name
    get_unit_name("battery", locale="fi")
    """,
    """
    from babel.units import format_unit
    format_unit(12, "gigawatt-hour-per-minute", locale="en")
    """,
    """
    from babel.lists import format_list
    format_list(["apples", "pears", "plums"], style="fancy", locale="en")
    """,
    """
    import babel.lists
    babel.lists.DEFAULT_LOCAL
    """,
    """
    from babel.plural import PluralRule
    PluralRule({"onee": "n is 1"})
    """,
    """
    from babel.plural import PluralRule
    PluralRule({"one": "n = 1 and"})
    """,
    """
    from babel.plural import PluralRule
    PluralRule({"one": "n ~ 1"})
    """,
    """
    from babel.plural import PluralRule
    PluralRule({"few": "n 2..4"})
    """,
    """
    from babel.plural import to_python
    to_python({"one": "n = 1 1"})
    """,
    """
    from babel.plural import PluralRule
    PluralRule({"one": "n not = 1"})
    """,
    """
    from babel.plural import PluralRule
    PluralRule([("one", "n is 1"), ("one", "n is 2")])
    """,
    """
    import io
    from babel.messages.pofile import read_po
    po = 'msgid "hello"\\nmsgstr "bonjour"\\n\\nmsgid "bye"\\n'
    read_po(io.StringIO(po), abort_invalid=True)
    """,
    """
    import io
    from babel.messages.pofile import read_po
    po = 'msgid "hello"\\nmsgstr "bonjour"\\nmsgcomment "greeting"\\n'
    read_po(io.StringIO(po), abort_invalid=True)
    """,
    """
    with open("messages.mo", "wb") as f:
        f.write(b"this is not a compiled catalog")
    from babel.messages.mofile import read_mo
    with open("messages.mo", "rb") as f:
        read_mo(f)
    """,
    """
    from babel.messages.catalog import Catalog
    Catalog(locale=1036)
    """,
    """
    import io
    from babel.messages.extract import extract
    list(extract("ruby", io.BytesIO(b"puts _('hello')")))
    """,
    """
    from babel.messages.catalog import Catalog, Message
    from babel.messages.checkers import python_format
    msg = Message("%(name)s has %(count)d apples", "%(nom)s a %(count)d pommes", flags=["python-format"])
    python_format(Catalog(locale="fr"), msg)
    """,
    """
    from babel.messages.catalog import Catalog, Message
    from babel.messages.checkers import python_format
    msg = Message("%s has %d apples", "%s a %s pommes", flags=["python-format"])
    python_format(Catalog(locale="fr"), msg)
    """,
    """
    from babel.messages.catalog import Catalog, Message
    from babel.messages.checkers import python_format
    msg = Message("%s has %d apples", "%s a des pommes", flags=["python-format"])
    python_format(Catalog(locale="fr"), msg)
    """,
    """
    from babel.messages.catalog import Catalog, Message
    from babel.messages.checkers import python_format
    msg = Message("%s has %d apples", "%(name)s a %(count)d pommes", flags=["python-format"])
    python_format(Catalog(locale="fr"), msg)
    """,
    """
    import os
    os.environ["TZ"] = "Mars/Olympus"
    from babel.localtime import get_localzone
    get_localzone()
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    with open("babel.toml", "w") as f:
        f.write("[[mappings]\\nmethod = 'python'\\npattern = '**.py'\\n")
    CommandLineInterface().run(["pybabel", "extract", "-F", "babel.toml", "-o", "messages.pot", "."])
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    with open("babel.toml", "w") as f:
        f.write("[[mapping]]\\nmethod = 'python'\\npattern = '**.py'\\n")
    CommandLineInterface().run(["pybabel", "extract", "-F", "babel.toml", "-o", "messages.pot", "."])
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    with open("babel.toml", "w") as f:
        f.write("[[mappings]]\\npattern = '**.py'\\n")
    CommandLineInterface().run(["pybabel", "extract", "-F", "babel.toml", "-o", "messages.pot", "."])
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    with open("babel.toml", "w") as f:
        f.write("[[mappings]]\\nmethod = 'python'\\npattern = 5\\n")
    CommandLineInterface().run(["pybabel", "extract", "-F", "babel.toml", "-o", "messages.pot", "."])
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    with open("babel.toml", "w") as f:
        f.write("[[mappings]]\\nmethod = 'python'\\npattern = '**.py'\\nkeywords = 5\\n")
    CommandLineInterface().run(["pybabel", "extract", "-F", "babel.toml", "-o", "messages.pot", "."])
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    with open("babel.toml", "w") as f:
        f.write("[babel]\\nmappings = []\\n")
    CommandLineInterface().run(["pybabel", "extract", "-F", "babel.toml", "-o", "messages.pot", "."])
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    with open("pyproject.toml", "w") as f:
        f.write("[project]\\nname = 'shop'\\n")
    CommandLineInterface().run(["pybabel", "extract", "-F", "pyproject.toml", "-o", "messages.pot", "."])
    """,
    """
    import os
    from babel.messages.frontend import CommandLineInterface
    os.makedirs("locale", exist_ok=True)
    CommandLineInterface().run(["pybabel", "compile", "-d", "locale"])
    """,
    """
    import os
    from babel.messages.frontend import CommandLineInterface
    os.makedirs("locale", exist_ok=True)
    with open("messages.pot", "w") as f:
        f.write('msgid ""\\nmsgstr ""\\n')
    CommandLineInterface().run(["pybabel", "update", "-i", "messages.pot", "-d", "locale"])
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    CommandLineInterface().run(["pybabel", "init", "-i", "missing.pot", "-d", "locale", "-l", "fr"])
    """,
    """
    from babel.messages.frontend import CommandLineInterface
    with open("app.py", "w") as f:
        f.write("print(_('hello'))\\n")
    CommandLineInterface().run(["pybabel", "extract", "-k", "_:first", "-o", "messages.pot", "."])
    """,
    """
    import os
    from babel.messages.frontend import CommandLineInterface
    with open("messages.pot", "w") as f:
        f.write('msgid ""\\nmsgstr ""\\n\\nmsgid "checkout"\\nmsgstr ""\\n')
    os.makedirs("locale/de/LC_MESSAGES", exist_ok=True)
    with open("locale/de/LC_MESSAGES/messages.po", "w") as f:
        f.write('msgid ""\\nmsgstr ""\\n')
    CommandLineInterface().run(["pybabel", "update", "--check", "-i", "messages.pot", "-d", "locale"])
    """,
    """
    from babel.messages.frontend import CompileCatalog
    cmd = CompileCatalog()
    cmd.initialize_options()
    cmd.finalize_options()
    """,
    """
    from babel.messages.frontend import InitCatalog
    cmd = InitCatalog()
    cmd.initialize_options()
    cmd.finalize_options()
    """,
    """
    from babel.messages.frontend import ExtractMessages
    cmd = ExtractMessages()
    cmd.initialize_options()
    cmd.finalize_options()
    """,
    """
    from babel.numbers import get_currency_symbol
    get_currency_symbol("USD", locale="english")
    """,
    """
    from babel.numbers import parse_decimal
    parse_decimal("1.234,5", locale="en_US", strict=True)
    """,
]
