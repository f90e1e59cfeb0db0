"""Ordinary code that makes pyparsing raise."""

LIBRARY = "pyparsing"

SNIPPETS = [
    """
    from pyparsing import Word, nums

    integer = Word(nums)
    integer.parse_string("abc")
    """,
    """
    from pyparsing import Word, alphas

    name = Word(alphas)
    name.parse_string("hello world!", parse_all=True)
    """,
    """
    from pyparsing import Word, alphas, alphanums, Suppress, Group, OneOrMore, LineEnd
    from pyparsing import ParserElement

    ParserElement.verbose_stacktrace = True
    key = Word(alphas, alphanums + "_")
    value = Word(alphanums + "._")
    entry = Group(key + Suppress("=") + value + Suppress(LineEnd()))
    config = OneOrMore(entry)
    config.parse_string("host = localhost\\nport = 8080\\ndebug true\\n", parse_all=True)
    """,
    """
    from pyparsing import Keyword, Word, alphas

    func = Keyword("def") - Word(alphas) + "(" + ")"
    for tokens, start, end in func.scan_string("x = 1\\ndef 123():\\n    pass"):
        print(tokens)
    """,
    """
    from pyparsing import Literal, Word, nums

    pair = Literal("(") - Word(nums) + "," + Word(nums) + ")"
    list(pair.scan_string("points: (1, 2) (3 4)"))
    """,
    """
    from pyparsing import Keyword, Word, alphas, nums

    assign = Keyword("let") - Word(alphas) + "=" + Word(nums)
    assign.search_string("let x = 5; let = 7")
    """,
    """
    from pyparsing import Literal, Word, hexnums

    color = Literal("#") - Word(hexnums, exact=6)
    color.search_string("background: #ff00zz;")
    """,
    """
    from pyparsing import Keyword, Word, nums

    version = Keyword("version") - Word(nums) + "." + Word(nums)
    version.transform_string("version 3.x")
    """,
    """
    from pyparsing import Literal, Word, alphas

    tag = Literal("<") - Word(alphas) + Literal(">")
    tag.transform_string("text <b> more <i text")
    """,
    """
    from pyparsing import Word, nums, Suppress, DelimitedList

    with open("pp_numbers.txt", "w") as f:
        f.write("1, 2, three, 4\\n")
    numbers = DelimitedList(Word(nums))
    numbers.parse_file("pp_numbers.txt", parse_all=True)
    """,
    """
    from pyparsing import Word, alphas, nums, Group, OneOrMore

    with open("pp_records.txt", "w") as f:
        f.write("alice 30\\nbob 25\\ncarol\\n")
    record = Group(Word(alphas) + Word(nums))
    OneOrMore(record).parse_file("pp_records.txt", parse_all=True)
    """,
    """
    from pyparsing import Word

    Word("")
    """,
    """
    from pyparsing import Word, nums

    Word(nums, min=0)
    """,
    """
    from pyparsing import Word, alphas

    Word(alphas, min=5, max=2)
    """,
    """
    from pyparsing import Keyword

    Keyword("")
    """,
    """
    from pyparsing import Regex

    Regex("")
    """,
    """
    from pyparsing import Regex

    Regex(42)
    """,
    """
    from pyparsing import Regex

    digit = Regex(r"[0-9")
    digit.parse_string("5")
    """,
    """
    from pyparsing import Regex

    date = Regex(r"(\\d+)-(\\d+)", as_group_list=True)
    date.sub(r"\\2/\\1")
    """,
    """
    from pyparsing import Regex

    word = Regex(r"\\w+", as_match=True)
    word.sub(lambda m: m.group(0).upper())
    """,
    """
    from pyparsing import QuotedString

    QuotedString("")
    """,
    """
    from pyparsing import QuotedString

    QuotedString('"', end_quote_char="")
    """,
    """
    from pyparsing import CharsNotIn

    CharsNotIn(",", min=0)
    """,
    """
    from pyparsing import Word, nums

    Word(nums) * -1
    """,
    """
    from pyparsing import Word, nums

    Word(nums) * (3, 1)
    """,
    """
    from pyparsing import Word, nums

    Word(nums)[1, 2, 3]
    """,
    """
    from pyparsing import And, Literal

    And([Literal("start"), ...])
    """,
    """
    from pyparsing import Literal, Word, alphas

    expr = Literal("start") + ...
    expr.parse_string("start middle end")
    """,
    """
    from pyparsing import DelimitedList, Word, nums

    DelimitedList(Word(nums), min=0)
    """,
    """
    from pyparsing import DelimitedList, Word, nums

    DelimitedList(Word(nums), min=3, max=2)
    """,
    """
    from pyparsing import OneOrMore, Word, alphas

    OneOrMore(Word(alphas), max=0)
    """,
    """
    from pyparsing import Word, nums

    Word(nums).set_parse_action("int")
    """,
    """
    from pyparsing import one_of

    one_of(5)
    """,
    """
    from pyparsing import nested_expr

    nested_expr("|", "|")
    """,
    """
    from pyparsing import nested_expr, Literal

    nested_expr(Literal("("), Literal(")"), content=None)
    """,
    """
    from pyparsing import infix_notation, Word, nums, one_of, OpAssoc

    infix_notation(Word(nums), [(one_of("+ -"), 4, OpAssoc.LEFT)])
    """,
    """
    from pyparsing import infix_notation, Word, nums, one_of

    infix_notation(Word(nums), [(one_of("* /"), 2, "left")])
    """,
    """
    from pyparsing import infix_notation, Word, nums, OpAssoc

    infix_notation(Word(nums), [("?", 3, OpAssoc.RIGHT)])
    """,
    """
    from pyparsing import Word, alphas, nums

    person = Word(alphas)("name") + Word(nums)("age")
    result = person.parse_string("alice 30")
    print(result["email"])
    """,
    """
    from pyparsing import Word, alphas

    result = Word(alphas)[1, ...].parse_string("one two")
    print(result[5])
    """,
    """
    from pyparsing import Word, alphas

    result = Word(alphas)[1, ...].parse_string("one two")
    result.pop(index=0)
    """,
    """
    from pyparsing import ParseResults

    ParseResults.List("a, b, c")
    """,
    """
    import pyparsing as pp

    pp.enable_diag("warn_on_everything")
    """,
    """
    from pyparsing import Word, alphas

    Word(alphas).create_diagram("pp_grammar.html")
    """,
    """
    from pyparsing import ParserElement

    ParserElement.enable_packrat()
    ParserElement.enable_left_recursion()
    """,
    """
    from pyparsing import ParserElement

    ParserElement.enable_left_recursion()
    ParserElement.enable_packrat()
    """,
    """
    from pyparsing import ParserElement

    ParserElement.enable_left_recursion(cache_size_limit=0)
    """,
    """
    from pyparsing import pyparsing_common as ppc

    ppc.iso8601_date.set_parse_action(ppc.convert_to_date())
    ppc.iso8601_date.parse_string("2023-02-30")
    """,
    """
    from pyparsing import Word, alphas, pyparsing_common as ppc

    count = Word(alphas).set_parse_action(ppc.convert_to_integer)
    count.parse_string("twelve")
    """,
    """
    from pyparsing import Word, alphas

    Word(alphas).parse_string(b"hello")
    """,
    """
    from pyparsing import Word, alphas, ParserElement

    ParserElement.verbose_stacktrace = True
    Word(alphas).parse_string("123")
    """,
    """
    from pyparsing import Literal, ParserElement

    ParserElement.verbose_stacktrace = True
    Literal("SELECT").parse_string("UPDATE users")
    """,
    """
    from pyparsing import Keyword, Word, alphas, ParserElement

    ParserElement.verbose_stacktrace = True
    stmt = Keyword("print") - Word(alphas)
    stmt.parse_string("print 42")
    """,
    """
    from pyparsing import Forward, ParserElement

    ParserElement.verbose_stacktrace = True
    expr = Forward()
    expr.parse_string("1 + 2")
    """,
    """
    from pyparsing import Regex, ParserElement

    ParserElement.verbose_stacktrace = True
    Regex(r"\\d{4}-\\d{2}-\\d{2}").parse_string("12/31/2024")
    """,
    """
    from pyparsing import QuotedString, ParserElement

    ParserElement.verbose_stacktrace = True
    QuotedString('"').parse_string('"unterminated string')
    """,
    """
    from pyparsing import Keyword, ParserElement

    ParserElement.verbose_stacktrace = True
    Keyword("if").parse_string("iffy")
    """,
    """
    from pyparsing import CaselessKeyword, Word, nums, ParserElement, MatchFirst

    ParserElement.verbose_stacktrace = True
    cmd = MatchFirst([CaselessKeyword("start"), CaselessKeyword("stop")])
    cmd.parse_string("restart")
    """,
    """
    from pyparsing import Word, alphas, ParserElement, StringEnd

    ParserElement.verbose_stacktrace = True
    (Word(alphas) + StringEnd()).parse_string("abc def")
    """,
    """
    from pyparsing import Forward, Word, nums

    expr = Forward()
    expr <<= expr + "+" + Word(nums) | Word(nums)
    expr.validate()
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    required = pp.Word(pp.alphas)("name") & pp.Word(pp.nums)("id")
    required.parse_string("alice")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    stmt = ~pp.Keyword("end") + pp.Word(pp.alphas)
    stmt.parse_string("end")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    pp.CaselessLiteral("select").parse_string("insert into t")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    pp.Char(pp.nums).parse_string("x1")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    field = pp.CharsNotIn(",")
    pp.DelimitedList(field).parse_string(",abc")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    pp.nested_expr().parse_string("(a (b c)")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    label = pp.Word(pp.alphas).set_parse_action(pp.match_only_at_col(1))
    (pp.Word(pp.nums) + label).parse_string("12 ab")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    div, _ = pp.make_html_tags("div")
    div.set_parse_action(pp.with_attribute(cls="main"))
    div.parse_string('<div id="x">')
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    pp.Literal("=").parse_string("+= 1")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    pp.White(" ").parse_string("x")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    pp.Word(pp.nums, exact=3).parse_string("12")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    word = pp.Word(pp.alphas) + pp.WordEnd()
    word.parse_string("abc1")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    pp.pyparsing_common.ipv4_address.parse_string("999.1.1")
    """,
    """
    import pyparsing as pp

    pp.ParserElement.verbose_stacktrace = True
    year = pp.Regex(r"(?P<year>\\d{4})", as_match=True)
    year.parse_string("in 2024")
    """,
]
