"""Ordinary code that makes mako raise."""

LIBRARY = "mako"

SNIPPETS = [
    """
    from mako.template import Template

    Template("Hello ${user.name").render(user=None)
    """,
    """
    from mako.template import Template

    src = "<ul>\\n% for item in items:\\n  <li>${item}</li>\\n</ul>\\n"
    Template(src)
    """,
    """
    from mako.template import Template

    src = '<%def name="greet(name)">\\nHello ${name}\\n'
    Template(src)
    """,
    """
    from mako.template import Template

    Template("<p>body</p>\\n</%def>\\n")
    """,
    """
    from mako.template import Template

    Template('<%def name="row()">\\n<td/>\\n</%block>\\n')
    """,
    """
    from mako.template import Template

    Template("Total: ${total}\\n% endif\\n")
    """,
    """
    from mako.template import Template

    src = "% if user:\\n  hi ${user}\\n% endfor\\n"
    Template(src)
    """,
    """
    from mako.template import Template

    src = "% for x in xs:\\n${x}\\n% elif x:\\n% endfor\\n"
    Template(src)
    """,
    """
    from mako.template import Template

    Template('<%macro name="button()">click</%macro>')
    """,
    """
    from mako.template import Template

    Template('<%include name="header.html"/>')
    """,
    """
    from mako.template import Template

    Template('<%namespace name="${ns}" file="helpers.html"/>')
    """,
    """
    from mako.template import Template

    Template('<%def name="card()" title="Card">x</%def>')
    """,
    """
    from mako.template import Template

    Template('<%namespace file="helpers.html"/>')
    """,
    """
    from mako.template import Template

    Template('<%namespace name="h" file="helpers.html" module="myapp.helpers"/>')
    """,
    """
    from mako.template import Template

    Template('<%def name="footer">(c) 2024</%def>')
    """,
    """
    from mako.template import Template

    Template('<%block name="content(title)">${title}</%block>')
    """,
    """
    from mako.template import Template

    Template('<%block args="title">${title}</%block>')
    """,
    """
    from mako.template import Template

    Template("Price: ${price * }")
    """,
    """
    from mako.template import Template

    Template("<%! from datetime import * %>${date.today()}")
    """,
    """
    from mako.template import Template

    Template("% print(items):\\nx\\n% endprint\\n")
    """,
    """
    from mako.template import Template

    Template("% def helper():\\nx\\n% enddef\\n")
    """,
    """
    from mako.template import Template

    Template("<% context = {'a': 1} %>${context['a']}")
    """,
    """
    from mako.template import Template

    Template("Hi ${name}").render(name="Ann", context={"lang": "en"})
    """,
    """
    from mako.template import Template

    Template('<%block name="main">a</%block>\\n<%block name="main">b</%block>')
    """,
    """
    from mako.template import Template

    Template('<%def name="page()"><%block name="body">x</%block></%def>')
    """,
    """
    from mako.template import Template

    src = '<%def name="box()">${caller.body()}</%def>'
    src += '<%call expr="box()"><%block name="inner">x</%block></%call>'
    Template(src)
    """,
    """
    from mako.template import Template

    Template('<%namespace name="ui"><%block>x</%block></%namespace>')
    """,
    """
    from mako.template import Template

    Template("Row ${loop.index}", uri="rows.html").render()
    """,
    """
    from mako.template import Template

    src = "% for r in rows:\\n<tr class='${loop.cycle()}'>${r}</tr>\\n% endfor\\n"
    Template(src, uri="table.html").render(rows=[1, 2])
    """,
    """
    from mako.template import Template

    Template("${self.sidebar()}", uri="layout.html").render()
    """,
    """
    from mako.template import Template

    Template('<%namespace name="p" module="os.path"/>${p.no_such_helper("x")}', uri="paths.html").render()
    """,
    """
    from mako.template import Template

    Template("${capture('not callable')}", uri="capture.html").render()
    """,
    """
    from mako.template import Template

    Template('<%include file="header.html"/>', uri="index.html").render()
    """,
    """
    from mako.template import Template

    Template('<%inherit file="base.html"/>body', uri="pages/about.html").render()
    """,
    """
    from mako.lookup import TemplateLookup

    lookup = TemplateLookup(directories=["mako_templates"])
    lookup.get_template("index.html")
    """,
    """
    import os
    from mako.lookup import TemplateLookup

    os.makedirs("mako_site_templates", exist_ok=True)
    with open("mako_site_templates/index.html", "w") as f:
        f.write('<%include file="partials/nav.html"/>')
    lookup = TemplateLookup(directories=["mako_site_templates"])
    lookup.get_template("index.html").render()
    """,
    """
    import os
    from mako.lookup import TemplateLookup

    os.makedirs("mako_legacy_templates", exist_ok=True)
    with open("mako_legacy_templates/old.html", "w") as f:
        f.write("hi")
    lookup = TemplateLookup(directories=["mako_legacy_templates"], filesystem_checks=True)
    lookup.get_template("old.html")
    os.remove("mako_legacy_templates/old.html")
    lookup.get_template("old.html")
    """,
    """
    from mako.template import Template

    Template("x", uri="../../outside.html")
    """,
    """
    from mako.template import Template

    Template(module_directory="cache")
    """,
    """
    from mako.template import Template

    t = Template('<%page cached="True"/>hello', cache_impl="redis", uri="cached.html")
    t.render()
    """,
    """
    from mako.template import Template

    Template("Hello ${name}!", uri="hello.html").render()
    """,
    """
    from mako.template import Template

    Template("Welcome back, ${context['user']}", uri="welcome.html").render()
    """,
    """
    from mako.template import Template

    src = '<%def name="panel()"><div>${caller.body()}</div></%def>${panel()}'
    Template(src, uri="panel.html").render()
    """,
    """
    from mako.template import Template

    t = Template('<%def name="header()">top</%def>', uri="page.html")
    t.get_def("footer").render()
    """,
    """
    from mako.template import Template

    Template(b"caf\\xe9 ${x}", input_encoding="utf-8")
    """,
    """
    from mako.template import Template

    Template(b"\\xef\\xbb\\xbf# -*- coding: latin-1 -*-\\nhi")
    """,
    """
    from mako.template import Template

    Template('<%def name="fmt(value, digits=2">${value}</%def>')
    """,
    """
    from mako.template import Template

    Template(filename="mako_templates/missing.html")
    """,
    """
    from mako.template import Template

    Template("${x}").render_context({"x": 1})
    """,
    """
    from mako.template import Template

    Template("<%text>raw ${stuff}")
    """,
    """
    from mako.template import Template

    Template("Caf\\u00e9 menu: ${dish}", output_encoding="ascii").render(dish="soup")
    """,
    """
    from mako.template import Template

    Template("Hi ${name}").render({"name": "Ann"})
    """,
    """
    from mako.template import Template

    Template('<%page args="title"/><h1>${title}</h1>').render()
    """,
    """
    from mako.template import Template

    Template('<%! color = "red" %>${self.attr.colour}', uri="theme.html").render()
    """,
    """
    from mako.template import Template

    Template("% (user.is_admin)\\n<b>admin</b>\\n% endif\\n")
    """,
    """
    from mako.lookup import TemplateLookup

    lookup = TemplateLookup(directories=["mako_templates"])
    lookup.get_template("../config/settings.html")
    """,
    """
    from mako.template import Template
    from mako.runtime import Context

    Template("Hello ${name}", uri="greeting.html").render_context(Context(None, name="Ann"))
    """,
]
