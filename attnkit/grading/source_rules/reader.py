"""The submitted package as the analysis reads it: its modules parsed when first reached, and for each
name what it refers to (a library path, a module of the package, or the student's own code).

Flow-insensitive on purpose: a name is everything it is ever bound to anywhere in its module, so an
alias the student rebinds later cannot slip past. Bounded twice (`MAX_READ_CHARS` of code,
`MAX_RESOLUTION_STEPS` origins followed): a submission cannot make the trusted grader read or resolve
for minutes.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from attnkit.grading.source_rules.libraries import CALLS_SUBCLASS_METHODS, REROOTED
from attnkit.submissions import PACKAGE

MAX_READ_CHARS = 128 * 1024  # of the package's code read per exercise (the reference has 6 KB): bounds grading time
# Origins the analysis may follow per exercise (real code needs a few hundred): aliases that fork at
# every step (`a2 = a1.p` beside `a2 = a1.q`, a dozen deep) would otherwise take minutes of the grader's time.
MAX_RESOLUTION_STEPS = 200_000


class TooIntricate(Exception):
    """The analysis would follow more than MAX_RESOLUTION_STEPS origins."""


@dataclass(frozen=True)
class Origin:
    """Where a value comes from: a library path, a module of the package, or code of one ("own")."""

    kind: str  # "library" | "module" | "own"
    name: str  # dotted library path, or the module's name


@dataclass(frozen=True)
class _Binding:
    """One way a module binds a name. `value` by kind: "library" a dotted path, "module" a module's
    name, "imported" (module, name), "alias" the expression assigned, "own" nothing."""

    kind: str
    value: Any = None


@dataclass
class Module:
    name: str
    file: str
    tree: ast.Module | None  # None: not read, for the reason in `unread`
    unread: str = ""
    bindings: dict[str, list[_Binding]] = field(default_factory=dict)
    stars: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, module or path, line)
    parents: dict[int, ast.AST] = field(default_factory=dict)


class PackageReader:
    """The package's modules, parsed when first reached, and what each of their names refers to."""

    def __init__(self, sources: Mapping[str, str | bytes]):
        self.package = PACKAGE
        self.files = {file[:-3]: (file, text) for file, text in sources.items() if file.endswith(".py")}
        self._parsed: dict[str, Module | None] = {}
        self._budget = MAX_READ_CHARS
        self._memo: dict[tuple[str, str], list[Origin]] = {}
        self._steps = MAX_RESOLUTION_STEPS

    def _spend(self, origins: list[Origin]) -> list[Origin]:
        """Count the origins followed against the budget; `TooIntricate` once it is spent."""
        self._steps -= len(origins) + 1
        if self._steps < 0:
            raise TooIntricate
        return origins

    def module(self, name: str) -> Module | None:
        """The module, parsed; None if the package lacks it or it has a syntax error."""
        if name not in self._parsed and name in self.files:
            file, text = self.files[name]
            if len(text) > self._budget:
                self._parsed[name] = Module(name, file, None, f"goes beyond the {MAX_READ_CHARS // 1024} KB "
                                                                     "of the package's code the kit reads")
            else:
                self._budget -= len(text)
                parsed = self._parsed[name] = _parse(file, text)
                if parsed is not None and parsed.tree is not None:
                    _collect_bindings(self, parsed)
        return self._parsed.get(name)

    # -- imports inside the package

    def internal_target(self, node: ast.ImportFrom | ast.alias, level: int = 0) -> str | None:
        """For `from .x import` / `import exercises.x`: "x" ("" for the package itself); None if external."""
        dotted = node.module if isinstance(node, ast.ImportFrom) else node.name
        dotted = dotted or ""
        if level == 1:
            return dotted
        if level == 0 and (dotted == self.package or dotted.startswith(self.package + ".")):
            return dotted[len(self.package) + 1:]
        return None

    def module_named(self, dotted: str) -> str | None:
        name = dotted or "__init__"
        return name if name in self.files and "." not in name else None

    # -- resolution

    def resolve_name(self, mod: Module, name: str) -> list[Origin]:
        key = (mod.name, name)
        if key not in self._memo:
            self._memo[key] = []  # a cycle of aliases resolves to nothing
            self._memo[key] = self._resolve_name(mod, name)
        return self._memo[key]

    def _resolve_name(self, mod: Module, name: str) -> list[Origin]:
        origins: list[Origin] = []
        for binding in mod.bindings.get(name, []):
            if binding.kind == "library":
                origins.append(Origin("library", reroot(binding.value)))
            elif binding.kind == "module":
                origins.append(Origin("module", binding.value))
            elif binding.kind == "imported":
                origins += self.member(*binding.value)
            elif binding.kind == "alias":
                origins += self.resolve(mod, binding.value) or [Origin("own", mod.name)]
            else:
                origins.append(Origin("own", mod.name))
        if not origins:
            origins = self._from_stars(mod, name)
        return self._spend(list(dict.fromkeys(origins)))  # a name bound a thousand times the same way is one

    def _from_stars(self, mod: Module, name: str) -> list[Origin]:
        origins: list[Origin] = []
        for kind, source, _ in mod.stars:
            if kind == "library":
                origins.append(Origin("library", reroot(f"{source}.{name}")))
            elif source in self.files:
                origins += self.member(source, name)
        return origins

    def member(self, module: str, name: str) -> list[Origin]:
        """What `module.name` is: its binding, a submodule of the package, or what `__getattr__` makes."""
        mod = self.module(module)
        if mod is None or mod.tree is None:
            return []
        if name in mod.bindings:
            return self.resolve_name(mod, name)
        if module == "__init__" and name in self.files:
            return [Origin("module", name)]
        if "__getattr__" in mod.bindings:
            return [Origin("own", module)]
        return self._from_stars(mod, name)

    def resolve(self, mod: Module, node: ast.expr) -> list[Origin]:
        """What an expression refers to, as far as names and attributes tell; [] when unknown."""
        attrs: list[str] = []
        while isinstance(node, (ast.Attribute, ast.NamedExpr)):
            if isinstance(node, ast.NamedExpr):
                node = node.value
                continue
            attrs.append(node.attr)
            node = node.value
        origins = self.resolve_name(mod, node.id) if isinstance(node, ast.Name) else []
        for attr in reversed(attrs):
            origins = self.step(origins, attr)
        return origins

    def step(self, origins: list[Origin], attr: str) -> list[Origin]:
        after: list[Origin] = []
        for origin in origins:
            if origin.kind == "library":
                after.append(Origin("library", attr if attr in REROOTED else f"{origin.name}.{attr}"))
            elif origin.kind == "module":
                after += self.member(origin.name, attr)
        return self._spend(list(dict.fromkeys(after)))

    # -- what the exercise can run

    def reachable(self, module: str) -> tuple[set[str], set[str]]:
        """(loaded, live): modules whose import-time code runs, and those whose functions can run too.

        A module is live when the exercise's code (or live or import-time code) names something of
        it, or when its import-time code hands out a function: a lambda or a decorated definition
        can be registered with a library and called from there.
        """
        loaded = {module} | ({"__init__"} & set(self.files))
        live = {module}
        while True:
            size = (len(loaded), len(live))
            for name in sorted(loaded):
                mod = self.module(name)
                if mod is None or mod.tree is None:
                    continue
                for node in region(mod.tree, whole=name in live):
                    loaded |= self._imported_modules(node)
                    for origin in self._referenced(mod, node):
                        if origin.kind != "library" and origin.name in self.files:
                            loaded.add(origin.name)
                            live.add(origin.name)
                    if _hands_out_a_function(node) or self._calls_its_methods(mod, node):
                        live.add(name)
            if (len(loaded), len(live)) == size:
                return loaded, live

    def _calls_its_methods(self, mod: Module, node: ast.AST) -> bool:
        """A class derived from a library class that runs the subclass's methods while creating it."""
        if not isinstance(node, ast.ClassDef):
            return False
        parents = [*node.bases, *(k.value for k in node.keywords)]
        return any(o.kind == "library" and o.name.partition(".")[0] in CALLS_SUBCLASS_METHODS
                   for parent in parents for o in self.resolve(mod, parent))

    def _imported_modules(self, node: ast.AST) -> set[str]:
        found: set[str] = set()
        if isinstance(node, ast.Import):
            targets = [self.internal_target(alias) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = self.internal_target(node, node.level)
            if base == "" and any(a.name == "*" for a in node.names):  # imports the submodules `__all__` lists,
                return set(self.files)  # which may be computed: every module of the package, to be sure
            targets = [base] + ([f"{base}.{a.name}".lstrip(".") for a in node.names] if base == "" else [])
        else:
            return found
        for target in targets:
            if target is not None:
                found.add("__init__")
                first = self.module_named(target.split(".")[0] if target else "")
                if first:
                    found.add(first)
        return {m for m in found if m in self.files}

    def _referenced(self, mod: Module, node: ast.AST) -> list[Origin]:
        """What a name or attribute refers to, and the modules it was imported from (they hold it)."""
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            sources = [Origin("own", binding.value[0]) for binding in mod.bindings.get(node.id, [])
                       if binding.kind == "imported"]
            return self.resolve_name(mod, node.id) + sources
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                and not isinstance(mod.parents.get(id(node)), ast.Attribute):  # whole chains: linear time
            return self.resolve(mod, node)
        return []


def reroot(path: str) -> str:
    """`torch.nn.functional.torch.ops` is `torch.ops`: a library re-exported by another is itself."""
    parts = path.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] in REROOTED:
            return ".".join(parts[i:])
    return path


def _parse(file: str, text: str | bytes) -> Module | None:
    """The module as Python parses the file; None for a syntax error (the grader reports that crash)."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")
    try:
        tree = ast.parse(data, filename=file)
    except (SyntaxError, ValueError):
        return None
    except (RecursionError, MemoryError):  # Python may still import it with a raised recursion limit
        return Module(file[:-3], file, None, "is nested too deeply for the kit to read")
    return Module(file[:-3], file, tree)


def _collect_bindings(reader: PackageReader, mod: Module) -> None:
    """Every name the module binds anywhere (scopes flattened: a name is all it is ever bound to)."""
    def bind(name: str, kind: str, value: Any = None) -> None:
        mod.bindings.setdefault(name, []).append(_Binding(kind, value))

    assert mod.tree is not None  # collected only once the module parsed
    for node in ast.walk(mod.tree):
        for child in ast.iter_child_nodes(node):
            mod.parents[id(child)] = node
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = reader.internal_target(alias)
                if target is None:
                    bind(alias.asname or alias.name.split(".")[0], "library",
                         alias.name if alias.asname else alias.name.split(".")[0])
                elif alias.asname:
                    found = reader.module_named(target)
                    bind(alias.asname, "module" if found else "own", found)
                else:
                    bind(alias.name.split(".")[0], "module", "__init__")
        elif isinstance(node, ast.ImportFrom):
            target = reader.internal_target(node, node.level)
            if node.level > 1:
                continue
            for alias in node.names:
                if alias.name == "*":
                    # an import from outside the package (level 0) always names its module
                    source = (node.module or "") if target is None else (target or "__init__")
                    mod.stars.append(("library" if target is None else "module", source, node.lineno))
                elif target is None:
                    bind(alias.asname or alias.name, "library", f"{node.module}.{alias.name}")
                elif target == "" and mod.name == "__init__" and reader.module_named(alias.name):
                    bind(alias.asname or alias.name, "module", alias.name)  # the package imports its module
                else:
                    bind(alias.asname or alias.name, "imported", (target or "__init__", alias.name))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name, "own")
        elif isinstance(node, ast.arg):
            bind(node.arg, "own")
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            for assigned in targets:
                if isinstance(assigned, ast.Name) and isinstance(value, (ast.Name, ast.Attribute)):
                    bind(assigned.id, "alias", value)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bind(node.id, "own")
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bind(node.name, "own")
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bind(node.rest, "own")


def _hands_out_a_function(node: ast.AST) -> bool:
    return isinstance(node, ast.Lambda) or (
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and bool(node.decorator_list))


def region(tree: ast.AST, whole: bool) -> Iterator[ast.AST]:
    """The module's nodes; without `whole`, only code that runs at import (no function bodies)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if whole:
            children = list(ast.iter_child_nodes(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            children = [*node.decorator_list, node.args, *([node.returns] if node.returns else [])]
        elif isinstance(node, ast.Lambda):
            children = [node.args]
        else:
            children = list(ast.iter_child_nodes(node))
        stack.extend(reversed(children))

