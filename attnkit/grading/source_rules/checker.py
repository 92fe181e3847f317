"""The checks of one module's code that runs: each forbidden name it reaches (a `Use`), and each construct
hiding one from the analysis (an opaque `Use`, for the feedback's words).
"""
from __future__ import annotations

import ast
import unicodedata
from dataclasses import dataclass

from attnkit.grading.source_rules.libraries import (
    ANY_DOOR,
    BUILTIN_DOORS,
    COMPUTED_LOOKUP,
    DOORS_OF,
    HARMLESS_DUNDERS,
    HIDDEN_MODULE_NAMES,
    KNOWN_LIBRARIES,
    NAME_LOOKUPS,
    UNIVERSAL_DOORS,
)
from attnkit.grading.source_rules.reader import Module, Origin, PackageReader, region, reroot
from attnkit.sandbox.refusals import ForbiddenNames

CANNOT_TELL = "so the kit cannot tell which function it calls"
_SNIPPET = 60  # characters of the student's code quoted in a description


@dataclass(frozen=True)
class Use:
    """One place in the source that breaks the rule; `opaque` when the kit cannot see what it calls."""

    file: str
    line: int
    description: str
    opaque: bool = False

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}: {self.description}"


class ModuleChecker:
    """The uses in one module's code that runs (all of it, or its import-time part)."""

    def __init__(self, reader: PackageReader, mod: Module, names: ForbiddenNames, whole: bool):
        self.reader, self.mod, self.names, self.whole = reader, mod, names, whole
        self.found: list[Use] = []
        self._set_by: dict[int, set[str]] = {}  # per class
        self._first_own_forbidden: tuple[int, str] | None = None  # (line, name), found once

    def uses(self) -> list[Use]:
        if self.mod.tree is None:
            self._opaque(1, self.mod.unread)
            return self.found
        node: ast.AST = self.mod.tree
        try:
            for node in region(self.mod.tree, self.whole):
                self._check(node)
        except RecursionError:
            self._opaque(getattr(node, "lineno", 1), "is nested too deeply for the kit to read")
        return sorted(self.found, key=lambda use: use.line)

    def _check(self, node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            self._check_import(node)
        elif isinstance(node, ast.Attribute) and not self._inside_chain(node):
            self._check_chain(node)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            self._check_name(node)
        elif isinstance(node, ast.Call):
            self._check_lookup_call(node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            self._check_string(node)
        elif isinstance(node, ast.MatchClass):
            for attr in node.kwd_attrs:
                self._check_attribute(node.lineno, attr, [], f"{attr} through a class pattern", call=False)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            self._check_match_args(node)

    # -- reporting

    def _use(self, line: int, description: str) -> None:
        if self.whole:  # a library softmax called at import computes a value; only names reach the exercise
            self.found.append(Use(self.mod.file, line, description))

    def _opaque(self, line: int, what: str) -> None:
        self.found.append(Use(self.mod.file, line, f"{what}, {CANNOT_TELL}", opaque=True))

    # -- the checks

    def _check_import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.ImportFrom):
            target = self.reader.internal_target(node, node.level)
            if node.level > 1:
                return
            if target is not None:
                for alias in node.names:
                    if alias.name != "*":
                        self._check_through_package(node.lineno, self.reader.member(target or "__init__", alias.name),
                                                    "imports", "")
                return
            library = node.module or ""  # an import from outside the package (level 0) names its module
            paths = [(f"{library}.{a.name}" if a.name != "*" else library) for a in node.names]
            if any(a.name == "*" for a in node.names):
                self._check_star_order(node)
        else:
            paths = [a.name for a in node.names if self.reader.internal_target(a) is None]
        for path in paths:
            root = path.split(".")[0]
            if root not in KNOWN_LIBRARIES:
                continue  # harmless until used: an unused `import os` is common; reported where it is used
            self._check_path(node.lineno, path, verb="imports")

    def _check_star_order(self, node: ast.ImportFrom) -> None:
        """`from torch import *` after the student's own `softmax` may replace it with the library's."""
        if self._first_own_forbidden is None:
            assert self.mod.tree is not None  # checked only once the module parsed
            self._first_own_forbidden = next(
                ((statement.lineno, name) for statement in self.mod.tree.body
                 for name in _names_defined(statement) if self.names.match(name)), (0, ""))
        line, name = self._first_own_forbidden
        if name and line < node.lineno:
            self._opaque(node.lineno, f"`from {node.module} import *` comes after your own {_cap(name)} "
                                      "and may replace it with the library's")

    def _check_path(self, line: int, path: str, verb: str) -> None:
        """A library path, part by part: forbidden names, private parts and doors."""
        parts = path.split(".")
        for i in range(1, len(parts)):
            shown = reroot(".".join(parts[: i + 1]))
            problem = self._attribute_problem(parts[i], Origin("library", reroot(".".join(parts[:i]))))
            if problem == "forbidden":
                self._use(line, f"{verb} {_cap(shown)}")
                return
            if problem is not None:
                self._opaque(line, f"{verb} {_cap(shown)}{problem}")
                return

    def _attribute_problem(self, attr: str, base: Origin | None, own: bool = False) -> str | None:
        """"forbidden", an opaque reason (may be ""), or None, for reading `attr` from `base`.

        `own`: read from `self` in a method of a class that sets it, so a private name is the student's.
        """
        if self.names.match(attr):
            return "forbidden"
        if attr.startswith("__") and attr.endswith("__"):
            return None if attr in HARMLESS_DUNDERS else ""
        if base is not None and base.kind == "library":
            root = base.name.partition(".")[0]
            if attr.startswith("_"):
                return f", a private part of {root}"
            return "" if attr in DOORS_OF.get(root, UNIVERSAL_DOORS) else None
        if attr.startswith("_"):
            return None if own else ", a private attribute"
        return "" if attr in ANY_DOOR else None

    def _check_chain(self, outer: ast.Attribute) -> None:
        """`a.b.c`: the first forbidden part, else the first door, else a change to a library."""
        links: list[ast.Attribute] = []
        node: ast.expr = outer
        while isinstance(node, ast.Attribute):
            links.append(node)
            node = node.value
        links.reverse()
        origins = self.reader.resolve(self.mod, node)
        opaque: tuple[int, str] | None = None
        verb = "calls" if self._called(outer) else "uses"
        for link in links:
            base = _telling(origins)
            origins = self.reader.step(origins, link.attr)
            if base is not None and base.kind == "module":  # the package's own name, unless a library's
                if self._check_through_package(link.lineno, origins, verb, ""):
                    return
                continue
            problem = self._attribute_problem(link.attr, base, own=self._set_by_its_class(link))
            if problem == "forbidden":
                self._use(link.lineno, f"{verb} {self._shown(link, base)}")
                return
            if problem is not None and opaque is None:
                opaque = (link.lineno, f"reaches {self._shown(link, base)}{problem}")
        if opaque:
            self._opaque(*opaque)
        elif not isinstance(outer.ctx, ast.Load):
            self._check_change(outer, node, links)
        elif (told := _telling(origins)) and told.name in NAME_LOOKUPS and not self._literal_call(outer):
            self._opaque(outer.lineno, COMPUTED_LOOKUP.format(told.name))

    def _check_change(self, outer: ast.Attribute, root: ast.expr, links: list[ast.Attribute]) -> None:
        base = _telling(self.reader.resolve(self.mod, outer.value))
        through_type = (isinstance(root, ast.Call) and isinstance(root.func, ast.Name) and root.func.id == "type") \
            or any(link.attr == "__class__" for link in links)
        if (base is not None and base.kind in ("library", "module")) or through_type:
            self._opaque(outer.lineno, f"changes {self._shown(outer, base)}")

    def _check_name(self, node: ast.Name) -> None:
        name = node.id
        if name in BUILTIN_DOORS:
            if not (name in NAME_LOOKUPS and self._literal_call(node)):
                self._opaque(node.lineno, BUILTIN_DOORS[name])
            return
        if name in HIDDEN_MODULE_NAMES:
            self._opaque(node.lineno, f"uses {name}")
            return
        origin = _telling(self.reader.resolve_name(self.mod, name))
        if origin is None or origin.kind != "library":
            return
        if origin.name.partition(".")[0] not in KNOWN_LIBRARIES:
            where = "" if self.whole else " at import"
            self._opaque(node.lineno, f"uses {_cap(origin.name)}{where}, which the kit does not read")
        elif origin.name in NAME_LOOKUPS and not self._literal_call(node):
            self._opaque(node.lineno, COMPUTED_LOOKUP.format(origin.name))
        elif name not in self.mod.bindings:  # brought in by a star import: never checked at an import
            star = self._library_star()
            self._check_through_package(node.lineno, [origin], "calls" if self._called(node) else "uses",
                                        f", which `from {star} import *` brings in" if star else
                                        ", which a star import brings in")

    def _check_through_package(self, line: int, origins: list[Origin], verb: str, via: str) -> bool:
        """A name that reaches a library's through the package's modules or a star: checked as the library's."""
        origin = _telling(origins)
        if origin is None or origin.kind != "library" or "." not in origin.name:
            return False
        parent, _, attr = origin.name.rpartition(".")
        problem = self._attribute_problem(attr, Origin("library", parent))
        if problem == "forbidden":
            self._use(line, f"{verb} {_cap(origin.name)}{via}")
        elif problem is not None:
            self._opaque(line, f"{'reaches' if verb != 'imports' else verb} {_cap(origin.name)}{problem}{via}")
        return problem is not None

    def _check_lookup_call(self, call: ast.Call) -> None:
        """getattr(x, "name"), attrgetter("a.b"), wraps(f, assigned=(...)): read the literal names."""
        lookup = self._lookup_name(call.func)
        names = _literal_names(call, lookup) if lookup else None
        if names is None:
            return
        if lookup in ("getattr", "setattr", "delattr"):
            base = _telling(self.reader.resolve(self.mod, call.args[0]))
            name = names[0]
            shown = f"{base.name}.{name}" if base is not None and base.kind == "library" else name
            self._check_attribute(call.lineno, name, [base] if base else [], f"{shown} through {lookup}",
                                  call=lookup == "getattr" and self._called(call))
            if lookup != "getattr" and base is not None and base.kind in ("library", "module"):
                self._opaque(call.lineno, f"changes {_cap(base.name)}.{_cap(name)} with {lookup}")
            return
        for name in names:
            for part in name.split("."):
                self._check_attribute(call.lineno, part, [], f"{_cap(name)} through {lookup}", call=True)

    def _check_attribute(self, line: int, attr: str, bases: list[Origin], shown: str, call: bool) -> None:
        problem = self._attribute_problem(attr, _telling(bases))
        if problem == "forbidden":
            self._use(line, f"{'calls' if call else 'uses'} {_cap(shown)}")
        elif problem is not None:
            self._opaque(line, f"reaches {_cap(shown)}{problem}")

    def _check_string(self, node: ast.Constant) -> None:
        """A name-like string naming a forbidden routine (skipping docstrings and `__all__`)."""
        text = node.value.decode("latin-1") if isinstance(node.value, bytes) else str(node.value)  # a str (see _check)
        parts = unicodedata.normalize("NFKC", text).split(".")
        if not all(part.isidentifier() for part in parts) or not any(map(self.names.match, parts)):
            return
        parent = self.mod.parents.get(id(node))
        if isinstance(parent, ast.Expr) or self._in_all(node):
            return
        if isinstance(parent, ast.Call) and self._lookup_name(parent.func) and self._literal_call(parent.func):
            return  # read as an attribute name by the lookup's own check
        self._use(node.lineno, f"names {_cap(text)!r} in a string")

    def _check_match_args(self, node: ast.Assign | ast.AnnAssign) -> None:
        """`__match_args__` makes class patterns read attributes by these names: they must be literal."""
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if not any(isinstance(t, ast.Name) and t.id == "__match_args__" for t in targets):
            return
        value = node.value
        texts = _texts(value.elts) if isinstance(value, ast.Tuple) else None
        if texts is None:
            self._opaque(node.lineno, "computes __match_args__, the attributes a class pattern reads")
            return
        for text in texts:
            self._check_attribute(node.lineno, text, [], f"__match_args__ {text!r}", call=False)

    # -- helpers

    def _library_star(self) -> str | None:
        return next((source for kind, source, _ in self.mod.stars if kind == "library"), None)

    def _inside_chain(self, node: ast.Attribute) -> bool:
        parent = self.mod.parents.get(id(node))
        return isinstance(parent, ast.Attribute) and parent.value is node

    def _called(self, node: ast.AST) -> bool:
        parent = self.mod.parents.get(id(node))
        return isinstance(parent, ast.Call) and parent.func is node

    def _lookup_name(self, func: ast.expr) -> str | None:
        if isinstance(func, ast.Name) and func.id in NAME_LOOKUPS:
            return func.id
        origin = _telling(self.reader.resolve(self.mod, func))
        if origin is not None and origin.kind == "library" and origin.name in NAME_LOOKUPS:
            return origin.name
        return None

    def _literal_call(self, func: ast.expr) -> bool:
        """A name lookup called here, with every name it is given literal text."""
        call = self.mod.parents.get(id(func))
        lookup = self._lookup_name(func)
        return isinstance(call, ast.Call) and call.func is func and lookup is not None \
            and _literal_names(call, lookup) is not None

    def _set_by_its_class(self, link: ast.Attribute) -> bool:
        """`self._x` read in a method of a class that assigns `self._x` or defines `_x` in its body."""
        if not isinstance(link.value, ast.Name) or not link.attr.startswith("_"):
            return False
        method = self.mod.parents.get(id(link))
        while method is not None and not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            method = self.mod.parents.get(id(method))
        if method is None:
            return False
        cls = self.mod.parents.get(id(method))
        if not isinstance(cls, ast.ClassDef) or not method.args.args or link.value.id != method.args.args[0].arg:
            return False
        if id(cls) not in self._set_by:
            self._set_by[id(cls)] = _attributes_set_by(cls)
        return link.attr in self._set_by[id(cls)]

    def _in_all(self, node: ast.AST | None) -> bool:
        """Inside `__all__ = [...]`, `__all__ += [...]` or `__all__.append/extend(...)`."""
        while node is not None:
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "__all__":
                return True
            node = self.mod.parents.get(id(node))
        return False

    def _shown(self, node: ast.expr, base: Origin | None) -> str:
        """`torch.nn.functional.softmax` when the path is known, else the student's own text, capped."""
        if base is not None and base.kind == "library" and isinstance(node, ast.Attribute):
            return _cap(f"{base.name}.{node.attr}")
        try:
            return _cap(ast.unparse(node))
        except RecursionError:
            return _cap(node.attr) if isinstance(node, ast.Attribute) else "an expression"


def _telling(origins: list[Origin]) -> Origin | None:
    """The origin the checks go by: a library if any, the package's module if only that, else unknown."""
    for origin in origins:
        if origin.kind == "library":
            return origin
    if origins and all(o.kind == "module" for o in origins):
        return origins[0]
    return None


def _attributes_set_by(cls: ast.ClassDef) -> set[str]:
    """Names a class defines in its body or assigns to its methods' first argument (`self._dim = ...`)."""
    names = {name for statement in cls.body for name in _names_defined(statement)}
    for method in cls.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.args.args:
            first = method.args.args[0].arg
            names |= {node.attr for node in ast.walk(method) if isinstance(node, ast.Attribute)
                      and not isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
                      and node.value.id == first}
    return names


def _literal_names(call: ast.Call, lookup: str) -> list[str] | None:
    """The attribute names a lookup call is given, if each is literal text (or a literal tuple of them)."""
    places, required = NAME_LOOKUPS[lookup]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    given = list(call.args) if places == ("*",) else [call.args[p] for p in places
                                                       if isinstance(p, int) and p < len(call.args)]
    given += [k.value for k in call.keywords if k.arg in places]
    if required and not given:
        return None
    names: list[str] = []
    for node in given:
        texts = _texts(node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node])
        if texts is None:
            return None
        names += texts
    return names


def _names_defined(statement: ast.stmt) -> list[str]:
    """The module-level names a statement defines itself (not imports)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [statement.name]
    targets = getattr(statement, "targets", [getattr(statement, "target", None)])
    return [n.id for t in targets if t is not None for n in ast.walk(t) if isinstance(n, ast.Name)]


def _texts(nodes: list[ast.expr]) -> list[str] | None:
    """The literal strings, if every node is one."""
    texts = [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return texts if len(texts) == len(nodes) else None


def _cap(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"
