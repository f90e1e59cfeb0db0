"""Raise helpers that live outside most mined npm packages but make many of some libraries'
errors: a call of one is a site, as a call of a helper found in the package is.  Each is keyed
by what the calling file's import names it (``const Assert = require('@hapi/hoek/lib/assert')``
is ``@hapi/hoek/lib/assert.default``); where the package that defines it is installed beside
the mined one, its raise is the site's ``via`` (``errdex.mine.installed``)."""

from __future__ import annotations

from errdex.languages.ir import HelperDef, Sink
from errdex.patterns import Placeholder, Template

#: @hapi/hoek's ``assert(condition, ...args)``: throws an ``Error`` (an unnamed subclass)
#: whose message is the arguments after the condition joined by spaces.
_HOEK_ASSERT = HelperDef(
    "assert",
    "@hapi/hoek/lib/assert",
    False,
    ("condition", "args"),
    2,
    "args",
    1,
    Sink("raise", "Error", "Error", Template((Placeholder("args", "${args}"),))),
    joined=" ",
    defined_in="@hapi/hoek/lib/assert",
)

KNOWN_HELPERS = {
    "@hapi/hoek/lib/assert.default": _HOEK_ASSERT,
    "@hapi/hoek.assert": _HOEK_ASSERT,
    "@hapi/hoek.default.assert": _HOEK_ASSERT,
}
