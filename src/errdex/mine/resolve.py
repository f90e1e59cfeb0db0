"""Facts that need the whole tree: re-exported classes, class-built messages, raise helpers.

Each file is extracted on its own (in parallel); this pass joins them.  It turns
``raise NotFound(name)`` into the template ``NotFound.__init__`` builds, turns calls of raise
helpers (``self.fail("...")``) into sites, and resolves ``from .errors import X`` chains to
the module that defines ``X``, which is what a traceback prints.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from errdex import languages
from errdex.languages import Language
from errdex.languages.ir import DEFAULT, NULL, ClassDef, FileResult, HelperDef, MessageFunc, RawSite
from errdex.patterns import Template, percent_template

_MAX_HOPS = 12
_MAX_ROUNDS = 6


@dataclass(slots=True)
class _Tree:
    modules: dict[str, FileResult]
    classes: dict[str, ClassDef]
    message_funcs: dict[str, MessageFunc]
    #: Classes the language has built in: nothing to follow.
    builtins: frozenset[str]
    #: Helpers outside the tree that the language's entry knows.
    known_helpers: Mapping[str, HelperDef]

    def ancestry(self, qualified: str | None) -> Iterator[ClassDef]:
        """A class defined in the tree, then its bases in the tree, nearest first."""
        pending = [qualified] if qualified else []
        seen: set[str] = set()
        while pending and len(seen) < _MAX_HOPS:
            name = self.canonical(pending.pop(0))
            if name is None or name in seen:
                continue
            seen.add(name)
            decl = self.classes.get(name)
            if decl is not None:
                yield decl
                pending.extend(decl.bases)

    def keyed_message(self, owner: str, key: str) -> Template | None:
        """A message a class (or one of its bases in the tree) keeps under ``key``."""
        return next((d.messages[key] for d in self.ancestry(owner) if key in d.messages), None)

    def message_func(self, key: str) -> MessageFunc | None:
        """The function a ``module:Class.attr`` or ``module:function`` key names, looking
        through base classes and re-exports for one defined elsewhere in the tree."""
        return self._message_func(key, 0, set(), {})

    def _message_func(
        self, key: str, hops: int, path: set[str], failed: dict[str, int]
    ) -> MessageFunc | None:
        """The search, depth first.  A key on the ``path`` (bases that cycle, ``class E(E, E)``)
        or that ``failed`` with as many hops left is not searched again: without that, a class
        with many bases that name each other takes exponential time, and a tree without cycles
        finds what it found before."""
        found = self.message_funcs.get(key)
        if found is not None or hops >= _MAX_HOPS:
            return found
        if key in path or failed.get(key, _MAX_HOPS) <= hops:
            return None
        path.add(key)
        try:
            found = self._moved_func(key, hops, path, failed)
        finally:
            path.discard(key)
        if found is None:
            failed[key] = hops
        return found

    def _moved_func(self, key: str, hops: int, path: set[str], failed: dict[str, int]) -> MessageFunc | None:
        module, _, dotted = key.partition(":")
        owner, _, attr = dotted.rpartition(".")
        if not owner:  # a module function, perhaps re-exported from another module
            target = self.canonical(f"{module}.{attr}")
            moved = self._key(target, "") if target and target != f"{module}.{attr}" else None
            return self._message_func(moved, hops + 1, path, failed) if moved else None
        decl = self.classes.get(f"{module}.{owner}")
        for base in decl.bases if decl else ():
            moved = self._key(self.canonical(base) or base, attr)
            if moved and (found := self._message_func(moved, hops + 1, path, failed)) is not None:
                return found
        return None

    def _key(self, qualified: str, attr: str) -> str | None:
        module, name, rest = self._split(qualified)
        if module is None:
            return None
        path = ".".join(p for p in (name, rest, attr) if p)
        return f"{module}:{path}"

    def canonical(self, qualified: str | None) -> str | None:
        """Follow re-exports until reaching the module that defines the class."""
        if qualified is None or qualified in self.builtins:
            return qualified
        current = qualified
        for _ in range(_MAX_HOPS):
            if current in self.classes:
                return current
            module, name, rest = self._split(current)
            if module is None:
                return current
            imports = self.modules[module].imports
            inner = f"{module}.{rest}"
            if name == DEFAULT and rest and (inner in self.classes or rest.partition(".")[0] in imports):
                # ``require('./x').Name``, where ``x`` sets ``exports.Name`` (as TypeScript and
                # Babel write ``export``; ``exports.default`` too): ``module.exports`` is the
                # module itself.
                current = inner
                continue
            target = imports.get(name)
            if target is None or target == current:
                return current
            current = target + (f".{rest}" if rest else "")
        return current

    def _split(self, qualified: str) -> tuple[str | None, str, str]:
        """Longest module prefix known in the tree, the name after it, and the rest."""
        pieces = qualified.split(".")
        for i in range(len(pieces) - 1, 0, -1):
            module = ".".join(pieces[:i])
            if module in self.modules:
                return module, pieces[i], ".".join(pieces[i + 1 :])
        return None, "", ""


def resolve(
    results: list[FileResult], language: Language, known: Mapping[str, HelperDef]
) -> list[FileResult]:
    """Return the results (of one language) with classes canonical, class templates applied and
    helper calls as sites; ``known`` are the helpers outside the tree (``Language.known_helpers``,
    located where installed: ``mine/installed.py``)."""
    modules = {r.module: r for r in results if r.module}
    classes = {c.qualified: c for r in results for c in r.classes}
    funcs = {f.key: f for r in results for f in r.message_funcs}
    tree = _Tree(modules, classes, funcs, language.builtin_classes, known)
    helpers = _helpers(results, tree)
    for result in results:
        resolved = (r for site in result.sites for r in _resolve_site(site, tree, result.module))
        result.sites = [built for site in resolved for built in _built_elsewhere(site, tree)]
        for candidate in result.candidates:
            result.sites += _helper_sites(
                candidate, helpers, result.module, tree, languages.get(result.language)
            )
        result.candidates = []
    return results


def _resolve_site(site: RawSite, tree: _Tree, module: str | None) -> list[RawSite]:
    """The site with its class canonical and its message as printed: one site per message
    the class's ``__str__`` may return."""
    qualified = tree.canonical(site.class_qualified)
    if qualified != site.class_qualified:
        site = replace(site, class_qualified=qualified)
    if site.message_key is not None and site.function and module:
        owner = site.function.rpartition(".")[0]
        template = tree.keyed_message(f"{module}.{owner}", site.message_key)
        if template is not None:
            site = replace(site, template=template, message_settled=True)
    if not site.constructed:
        return [site]
    chain = list(tree.ancestry(qualified))
    decl = next((d for d in chain if d.templates or d.formats_args), None)
    if decl is None:
        if site.template is None:
            # ``raise NotFound()``: the message the class keeps for when none is given.
            default = _class_default(chain)
            return [replace(site, template=default)] if default is not None else [site]
        passed = _message_passed(chain, site)
        return [replace(site, template=passed)] if passed is not None else [site]
    if decl.formats_args and site.template is not None:
        site = replace(site, template=_format_args(site.template, site.args[1:]))
    if not decl.templates:
        return [site]
    values = _values(chain, decl, site)
    built = [replace(site, template=t) for t in (t.substitute(values) for t in decl.templates) if t.is_static]
    if built and decl.computed is not None:
        built.append(replace(site, template=decl.computed))
    if not built:
        return [site]  # the attributes it prints are not known here
    # ``return self.message`` prints what the raise passed, when it passed anything readable.
    kept = decl.keeps_message and site.template is not None and site.template.is_static
    return [site, *built] if kept else built


#: Class attributes that hold the message an exception prints when given none.
_DEFAULT_MESSAGES = ("message", "msg", "default_message", "description", "detail", "default_detail")


def _class_default(chain: list[ClassDef]) -> Template | None:
    for decl in chain:
        init = decl.defaults.get(decl.params[0]) if decl.has_init and decl.params else None
        if init is not None:
            return init
        for name in _DEFAULT_MESSAGES:
            if name in decl.attributes:
                return decl.attributes[name]
    return None


def _values(chain: list[ClassDef], decl: ClassDef, site: RawSite) -> dict[str, Template]:
    """What each placeholder of a class-built message stands for at this raise: the arguments
    by ``__init__``'s parameter names, their defaults, and ``self.x`` from class attributes or
    the argument ``__init__`` stores there."""
    values: dict[str, Template] = {}
    for ancestor in reversed(chain):  # nearest class last, so it wins
        values.update({f"self.{k}": v for k, v in ancestor.attributes.items()})
    passed = _passed_up(chain, decl, site)
    if passed is not None:
        for init, arguments in passed:  # the class that builds the message last, so it wins
            values.update(init.defaults)
            values.update(arguments)
            _stored(init, values)
        return values
    # The constructor that builds the message names its parameters; a subclass's own
    # constructor, nearer, says where the raise's arguments land.
    nearest = next((d for d in chain if d.has_init), None)
    inits = [decl] if decl.has_init else []
    if nearest is not None and nearest is not decl:
        inits.append(nearest)
    for init in inits:
        values.update(init.defaults)
        values.update(_arguments(init.params, site.args, dict(site.kwargs)))
        _stored(init, values)
    return values


def _passed_up(
    chain: list[ClassDef], decl: ClassDef, site: RawSite
) -> list[tuple[ClassDef, dict[str, Template]]] | None:
    """The arguments each constructor from the raised class's up to ``decl``'s receives; None
    where one on the way passes up what errdex cannot follow."""
    if decl not in chain:
        return None
    inits = [d for d in chain[: chain.index(decl) + 1] if d.has_init]
    if len(inits) < 2 or inits[-1] is not decl:
        return None
    landed, _ = _landings(inits, site)
    return landed if len(landed) == len(inits) else None


def _message_passed(chain: list[ClassDef], site: RawSite) -> Template | None:
    """The argument of the raise that its class's constructors pass up as the message (to
    ``Exception.__init__``, whose first argument ``str()`` prints, or a ``__str__`` returns):
    ``BadOptionUsage(opt, "Option ... does not take a value.")`` prints its second.  None where
    that is the first argument anyway, or a constructor on the way passes what errdex cannot
    follow."""
    inits = [d for d in chain if d.has_init]
    if not inits:
        return None
    _, passed = _landings(inits, site)
    if not passed or passed[0] is None or passed[:1] == site.args[:1]:
        return None
    return passed[0]


def _landings(
    inits: list[ClassDef], site: RawSite
) -> tuple[list[tuple[ClassDef, dict[str, Template]]], tuple[Template | None, ...] | None]:
    """Where a raise's arguments land: they go to the nearest constructor, which passes some up
    to the next (``BadOptionUsage(option_name, message)`` calls ``super().__init__(message,
    ctx)``), and so on.  Each constructor reached with the arguments it receives, and what the
    last passes up; the walk stops at one whose call up errdex cannot follow (None passed up)."""
    args, kwargs = site.args, dict(site.kwargs)
    landed = []
    for init in inits:
        arguments = _arguments(init.params, args, kwargs)
        landed.append((init, arguments))
        if init.super_args is None:
            return landed, None
        # A default may be built from the other arguments (``msg || `can't resolve ${ref}```);
        # a fallback's stands for a ``null`` given too.
        given = {n: t for n, t in arguments.items() if not (n in init.nullish and t == NULL)}
        received = {**{n: t.substitute(arguments) for n, t in init.defaults.items()}, **given}
        args, kwargs = tuple(received.get(n) if n else None for n in init.super_args), {}
    return landed, args


def _stored(init: ClassDef, values: dict[str, Template]) -> None:
    for attr, param in init.attr_params.items():
        if param in values:
            values[f"self.{attr}"] = values[param]


def _built_elsewhere(site: RawSite, tree: _Tree) -> list[RawSite]:
    """A site whose message a function returns, once per message that function can return."""
    ref = site.message_ref
    if ref is None:
        return [site]
    func = next((f for key in ref.keys if (f := tree.message_func(key)) is not None), None)
    if func is None:
        return [site]
    values = _arguments(func.params, ref.args, dict(ref.kwargs))
    if func.class_written is not None and site.class_written is None:
        qualified = tree.canonical(func.class_qualified)
        site = replace(site, class_written=func.class_written, class_qualified=qualified)
    if site.message_settled or not func.templates:
        return [replace(site, message_ref=None)]
    return [replace(site, template=t.substitute(values), message_ref=None) for t in func.templates]


def _format_args(template: Template, args: tuple[Template | None, ...]) -> Template:
    """``ParserError("%s: %s", a, b)`` printed by ``self.args[0] % self.args[1:]``: the
    ``%`` fields of the literal text become placeholders named after the arguments."""
    names = [a.message if a is not None else f"arg{i}" for i, a in enumerate(args, 1)]
    out = Template(())
    used = 0
    for part in template.parts:
        if isinstance(part, str):
            filled = percent_template(part, names[used:])
            used += len(filled.placeholders)
            out = out + filled
        else:
            out = out + Template((part,))
    return out


def _arguments(
    params: tuple[str, ...], args: tuple[Template | None, ...], kwargs: dict[str, Template | None]
) -> dict[str, Template]:
    """Map a call's readable arguments onto the constructor's parameter names."""
    values: dict[str, Template] = {}
    for name, value in zip(params, args, strict=False):
        if value is not None:
            values[name] = value
    for name, value in kwargs.items():
        if value is not None and name in params:
            values[name] = value
    return values


_HelperIndex = dict[str, list[HelperDef]]


def _helpers(results: list[FileResult], tree: _Tree) -> _HelperIndex:
    """Every helper with a known sink, found by following pass-through calls to a fixed point."""
    declared = [(h, languages.get(r.language)) for r in results for h in r.helpers]
    index: _HelperIndex = defaultdict(list)
    for helper, _ in declared:
        if helper.sink is not None:
            index[helper.name].append(helper)
    for _ in range(_MAX_ROUNDS):
        changed = False
        for helper, language in declared:
            if helper.sink is not None:
                continue
            for callee, is_attr, position, template, head in helper.forwards:
                target = _lookup(index, callee, is_attr, helper.module)
                if target is None or target.sink is None or not _takes(target, position):
                    continue
                if not _may_be(target, head, helper.module, language):
                    continue
                param = next((p for p in template.placeholders if p in helper.params), None)
                if param is None:
                    continue
                sink = target.sink
                helper.sink = replace(sink, template=sink.template.substitute({target.param: template}))
                helper.param = param
                position_of = helper.params.index(param)
                helper.index = position_of if position_of < helper.positional else None
                index[helper.name].append(helper)
                changed = True
                break
        if not changed:
            break
    for found in index.values():
        for h in found:
            if h.sink is not None:
                h.sink = replace(h.sink, class_qualified=tree.canonical(h.sink.class_qualified))
                h.others = [replace(o, class_qualified=tree.canonical(o.class_qualified)) for o in h.others]
    return index


def _takes(helper: HelperDef, position: int | str) -> bool:
    """Whether an argument at ``position`` (index or keyword) lands in the helper's message parameter."""
    if isinstance(position, int):
        return helper.index == position
    return position == helper.param


def _lookup(index: _HelperIndex, name: str, is_attr: bool, module: str | None) -> HelperDef | None:
    found = [h for h in index.get(name, ()) if is_attr or not h.is_method]
    if not found:
        return None
    # The nearest: its own module's, else the one sharing most of its path (a package's own
    # ``lib/usage`` for ``lib/validation``, not a bundle's copy); the same one however many
    # processes read the files, whatever order they came back in.
    here = _path_parts(module)
    return min(
        found,
        key=lambda h: (-_shared(here, _path_parts(h.module), h.module == module), h.module or "", h.qualname),
    )


def _path_parts(module: str | None) -> list[str]:
    return re.split(r"[./]", module or "")


def _shared(a: list[str], b: list[str], same: bool) -> int:
    """How near two modules are: the leading parts of their paths they share (all, and more,
    for one module)."""
    if same:
        return len(a) + 1
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _may_be(helper: HelperDef, head: str, module: str | None, language: Language) -> bool:
    """Whether a call found by name alone, on ``head``, may be one of ``helper``: a method of
    another module is called on its own object (``self.fail(``) or on one named for its class
    (``cursor`` is no ``Connection``: ``self.cursor.execute(`` runs a DB-API cursor's method)."""
    if not helper.is_method or helper.module == module or not head:
        return True
    receiver = head.rpartition(".")[2]
    if head in language.receivers:
        return True
    allowed = language.called_as(helper.qualname)[1] if helper.qualname else None
    return allowed is not None and receiver in allowed


def _helper_sites(
    candidate: RawSite, index: _HelperIndex, module: str | None, tree: _Tree, language: Language
) -> list[RawSite]:
    """The sites a call of a raise helper is: one per raise of its message parameter."""
    if candidate.callee is None:
        return []
    helper = tree.known_helpers.get(tree.canonical(candidate.callee_qualified) or "")
    if helper is None:
        helper = _lookup(index, candidate.callee, candidate.callee_is_attr, module)
        if helper is not None and not _may_be(helper, candidate.callee_head, module, language):
            return []
    if helper is None or helper.sink is None:
        return []
    message: Template | None = None
    if helper.index is not None and helper.joined is not None:
        rest = [t for t in candidate.args[helper.index :] if t is not None]
        if rest and len(rest) == len(candidate.args) - helper.index:
            message = rest[0]
            for more in rest[1:]:
                message = message + Template.literal(helper.joined) + more
    elif helper.index is not None and helper.index < len(candidate.args):
        message = candidate.args[helper.index]
    if message is None:
        message = dict(candidate.kwargs).get(helper.param)
    if message is None or not message.is_static:
        return []
    passed = candidate.class_passed
    return [
        replace(
            candidate,
            template=sink.template.substitute({helper.param: message}),
            # A warning helper passes its caller's category on: the warning is of that class.
            class_written=passed[0] if passed and sink.kind == "warn" else sink.class_written,
            class_qualified=tree.canonical(passed[1])
            if passed and sink.kind == "warn"
            else sink.class_qualified,
            class_passed=None,
            severity=sink.severity,
            http_status=sink.http_status,
            args=(),
            kwargs=(),
            via_path=sink.path,
            via_line=sink.line,
        )
        for sink in (helper.sink, *helper.others)
    ]
