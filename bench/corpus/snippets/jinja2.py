"""Ordinary code that makes Jinja2 raise.

Jinja rewrites the traceback of errors raised while compiling or rendering a template and
hides its internal frames, so these snippets stay with errors whose raise site survives:
loaders, filters, environment checks and undefined values.
"""

LIBRARY = "jinja2"

SNIPPETS = [
    """
    import jinja2
    env = jinja2.Environment(loader=jinja2.DictLoader({"base.html": "<html></html>"}))
    env.get_template("index.html")
    """,
    """
    import jinja2
    jinja2.Environment().get_template("index.html")
    """,
    """
    import jinja2
    env = jinja2.Environment(loader=jinja2.DictLoader({}))
    env.select_template([])
    """,
    """
    import jinja2
    env = jinja2.Environment(loader=jinja2.DictLoader({}))
    env.select_template(["user/profile.html", "profile.html"])
    """,
    """
    import jinja2
    template = jinja2.Environment().from_string("{{ sizes|dictsort(by='size') }}")
    template.render(sizes={"s": 1, "m": 2})
    """,
    """
    import jinja2
    template = jinja2.Environment().from_string("{{ names|map('shout')|join(', ') }}")
    template.render(names=["ada", "bob"])
    """,
    """
    import jinja2
    loader = jinja2.PrefixLoader({"app": jinja2.DictLoader({"home.html": "hi"})})
    loader.get_source(jinja2.Environment(), "admin/home.html")
    """,
    """
    import jinja2
    loader = jinja2.FileSystemLoader("/nonexistent/templates")
    loader.get_source(jinja2.Environment(), "index.html")
    """,
    """
    from jinja2.sandbox import SandboxedEnvironment
    SandboxedEnvironment().from_string("{{ range(10 ** 6)|list|length }}").render()
    """,
    """
    import jinja2
    jinja2.PackageLoader("jinja2", "site_templates")
    """,
    """
    import jinja2
    template = jinja2.Environment().from_string("{{ title|truncate(8, leeway=-1) }}")
    template.render(title="A very long headline")
    """,
    """
    import jinja2
    template = jinja2.Environment().from_string("{{ title|truncate(2) }}")
    template.render(title="A very long headline")
    """,
    """
    import jinja2
    template = jinja2.Environment().from_string("{{ '%s of %s'|format(1, total=2) }}")
    template.render()
    """,
    """
    import jinja2
    template = jinja2.Environment().from_string("<input {{ attrs|xmlattr }}>")
    template.render(attrs={"data value": "x"})
    """,
    """
    import jinja2
    jinja2.Environment(newline_sequence="\\t")
    """,
    """
    import jinja2
    env = jinja2.Environment(loader=jinja2.DictLoader({"page.html": "{% include 'footer.html' %}"}))
    env.get_template("page.html").render()
    """,
    """
    import jinja2
    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: None))
    env.get_template("emails/welcome.txt")
    """,
    """
    import jinja2
    jinja2.Environment(block_start_string="{{")
    """,
    """
    import jinja2
    str(jinja2.StrictUndefined(name="user"))
    """,
    """
    import jinja2
    jinja2.StrictUndefined(obj={"id": 1}, name="email") + "!"
    """,
    """
    import jinja2
    template = jinja2.Environment().from_string("{{ pairs|items|list }}")
    template.render(pairs=[("a", 1)])
    """,
    """
    import jinja2
    env = jinja2.Environment(loader=jinja2.ChoiceLoader([jinja2.DictLoader({})]))
    env.get_template("layout.html")
    """,
    """
    import jinja2
    jinja2.Environment().from_string("{{ total|reverse }}").render(total=3)
    """,
    """
    import jinja2
    template = jinja2.Environment().from_string("{{ users|selectattr('age', 'over', 18)|list }}")
    template.render(users=[{"age": 20}])
    """,
]
