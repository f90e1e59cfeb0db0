"""Raise helpers that live outside most mined trees but wrap a large share of some libraries'
messages: a call of one is a site, as a call of a helper found in the tree is."""

from __future__ import annotations

from errdex.languages.ir import HelperDef, Sink
from errdex.patterns import Template

KNOWN_HELPERS = {
    name: HelperDef(name.rpartition(".")[2], None, False, ("message",), 1, "message", 0, sink)
    for name, sink in {
        "lightning_utilities.core.rank_zero.rank_zero_warn": Sink(
            "warn", "UserWarning", "UserWarning", Template.dynamic("message"), "warning"
        ),
        "lightning_utilities.core.rank_zero.rank_zero_deprecation": Sink(
            "warn", "DeprecationWarning", "DeprecationWarning", Template.dynamic("message"), "warning"
        ),
    }.items()
}
