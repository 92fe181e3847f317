"""Forbidden library routines found in a submission's source, read in the grader, never in the sandbox.

Such a rule ("write softmax yourself, do not call the library's") is decided at torch's dispatcher:
the exercise's sandbox refuses the routines (`attnkit.sandbox.refusals`), however the code reaches
them. The source is read here too, with `ast` in the trusted grader (nothing is imported or run), for
the feedback's words (where the call is) and for library code no refused kernel sees (scipy's
softmax): each `Use` it names decides the rule; an opaque one (code it cannot follow) only gives the
words once the sandbox saw a refused routine reached.

The caller names the forbidden routines (the mistake catalogue's list); this module knows no exercise
and no forbidden function of its own. A name matches when, ignoring case and underscores, it contains
a forbidden one, so `_safe_softmax`, `Softmax2d` and `OneHotCategorical` match `softmax`, `Softmax`
and `Categorical`.

**What is read.** The exercise's module runs with the package's `__init__.py` and whatever either
imports from the package, transitively, and with any module the caller says the sandbox imports in the
same process (`imported_with`). A module whose functions can run is read whole: the exercise's own, one
that read code names something of (or imports a name from), and one whose import-time code hands out a
function (a lambda or a decorated definition, which a library registry may call later). Of any other
module only the import-time code runs (module level, class bodies, decorators, defaults), and there
only constructs the kit cannot see through are reported: a library softmax called at import computes
a value, which reaches the exercise only through a name it uses, and that makes the module read whole.
So an `attention.py` that may use the library softmax, or a `cake.py` that computes its constants with
it, is not held against the softmax exercise because `__init__.py` imports it. A module with a syntax
error, or one the package does not have, is not read (the import fails).

**What is reported.**
1. Direct uses: a forbidden name as an attribute (`F.softmax`, `scores.softmax`), imported from a
   library (`from torch import softmax as s`), brought in by a star import and then used, looked up
   with a literal name (`getattr(torch, "softmax")`, a class pattern's `softmax=`), or as a name-like
   string (`"nn.Softmax"`). Names the student defines (a function called `softmax`,
   `from .softmax import softmax`) are the student's own and never match.
2. Constructs the analysis cannot see through (`Use.opaque`): any of them could reach the forbidden
   routine by a name the source never spells, so the feedback says the kit cannot tell.
   - names computed at run time: `getattr`/`setattr`/`delattr`, `operator.attrgetter`/
     `methodcaller` and `functools.update_wrapper`/`wraps` given a non-literal name or passed
     around; `vars()`, `globals()`, `locals()`; `__dict__`, `__getattribute__`, `__subclasses__`
     and every other dunder outside a short harmless list; running frames (`f_globals`, `gi_frame`,
     ...); a computed `__match_args__`;
   - code or text from elsewhere: `eval`, `exec`, `compile`, `__import__`, `open()`,
     `typing.get_type_hints`, `typing_extensions.evaluate_forward_ref`, `dataclasses.make_dataclass`, an
     import of any module outside `KNOWN_LIBRARIES` (so `importlib`,
     `pickle`, `marshal`, `codecs`, `base64`, `ctypes`, `builtins`, `gc`, `inspect`, `os`,
     `subprocess`, `multiprocessing`, `io`, `pathlib`, every third-party package and C extension),
     a module nested too deeply to parse or beyond the `MAX_READ_CHARS` the kit reads;
   - library internals: each known library's doors (`torch.ops`, `torch.jit`, `torch.compile`,
     `torch.overrides`, `torch.library`, `torch.load`, `torch.ao`, whose tables hold `nn.Softmax`,
     `numpy.load`, `sys.modules`, ...), also where one library re-exports another (`torch.sys`), and
     any private (`_x`) attribute of a library or of a value of unknown origin (a class's own
     `self._x` excepted), however the library object was reached;
   - changes to what a name means: assigning or deleting an attribute of a library module or class
     (`torch.exp = ...`, `torch.Tensor.exp = ...`, `type(x).exp = ...`, `setattr(torch, ...)`) or of
     a module of the package; a star import from a library after the student's own `softmax`.
   Threads are not opaque: a thread runs functions the analysis reads like any other.

**What it guarantees.** If nothing is reported, no read code names a forbidden routine, and none holds
a construct above that turns text into names or code, runs code the kit does not read, picks from a
library's tables or reaches beneath a library's named functions. It is not a proof. A value whose
origin the analysis cannot follow (a function's argument, a container's item) is checked by attribute
name only. A routine that computes softmax inside under another name (a loss, a distribution, a
transform) is caught only if the caller lists it; a gradient (that of `logsumexp` is softmax) is not a
routine at all. The doors of `KNOWN_LIBRARIES` are listed by hand for the installed versions; a library
upgrade can add one.
"""
from __future__ import annotations

import ast
import unicodedata
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from attnkit.sandbox.refusals import ForbiddenNames
from attnkit.submissions import PACKAGE

CANNOT_TELL = "so the kit cannot tell which function it calls"

# Libraries the analysis knows, each with its attributes that reach code or names it cannot read.
# Importing any other module is itself opaque. A door is matched at any depth of an attribute path.
KNOWN_LIBRARIES: dict[str, frozenset[str]] = {
    "torch": frozenset({
        "ops", "jit", "compile", "compiler", "fx", "export", "onnx", "overrides", "library", "classes",
        "hub", "package", "load", "serialization", "multiprocessing", "distributed", "utils", "testing",
        "ao", "quantization",  # catalogues of modules and operators, softmax among them, to pick from
    }),
    "numpy": frozenset({
        "load", "lib", "ctypeslib", "f2py", "distutils", "testing", "fromfile", "memmap", "loadtxt",
        "genfromtxt", "DataSource",
    }),
    "sys": frozenset({
        "modules", "meta_path", "path_hooks", "path_importer_cache", "path", "settrace", "setprofile",
        "gettrace", "getprofile", "exc_info", "exception", "last_value", "last_traceback", "last_type",
        "last_exc", "excepthook", "displayhook", "breakpointhook", "unraisablehook", "addaudithook",
        "audit", "call_tracing", "executable", "monitoring", "remote_exec",
    }),
    "typing": frozenset({"get_type_hints", "ForwardRef", "get_annotations", "evaluate_forward_ref"}),
    "typing_extensions": frozenset({"get_type_hints", "ForwardRef", "get_annotations", "evaluate_forward_ref"}),
    "dataclasses": frozenset({"make_dataclass"}),  # looks up each field's default by its (computed) name
    "functools": frozenset({"singledispatch", "singledispatchmethod"}),
    "threading": frozenset({"settrace", "setprofile", "settrace_all_threads", "setprofile_all_threads"}),
    "string": frozenset({"Formatter"}),
    **{name: frozenset() for name in (
        "__future__", "math", "cmath", "operator", "itertools", "collections", "abc", "numbers", "enum",
        "contextlib", "warnings", "copy", "decimal", "fractions", "statistics",
        "random", "array", "bisect", "heapq", "re", "textwrap", "time", "queue", "weakref",
    )},
}
# A library re-exported under its own name (torch.sys, torch.functools, F.torch) is checked as itself.
_REROOTED = frozenset(lib for lib, doors in KNOWN_LIBRARIES.items() if doors) | {"operator"}

# Libraries whose base classes call a subclass's own methods while it is created (enum.Enum runs
# `_generate_next_value_`, `__new__`, `__init__`): such a class hands out its functions at import.
_CALLS_SUBCLASS_METHODS = frozenset({"enum"})

# Attribute names that are a door whatever object they are read from.
_OPAQUE_MODULE_NAMES = frozenset({
    "os", "posix", "nt", "builtins", "importlib", "inspect", "gc", "ctypes", "pickle", "marshal",
    "subprocess", "multiprocessing", "io", "pathlib", "runpy", "pkgutil", "pydoc", "shutil", "tempfile",
    "traceback", "codecs", "platform", "types", "site", "zipimport", "code", "codeop", "dis", "ast",
    "concurrent", "asyncio", "unittest", "doctest", "timeit", "pdb", "bdb", "cProfile", "profile",
})
_FRAME_ATTRIBUTES = frozenset({
    "f_globals", "f_locals", "f_builtins", "f_back", "f_code", "tb_frame", "tb_next", "gi_frame",
    "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code", "co_code", "co_consts", "co_names",
})
_COMPUTED_LOOKUP = "looks up an attribute by a name computed at run time with {}"
_BUILTIN_DOORS = {  # name -> what it does, for the feedback
    **{lookup: _COMPUTED_LOOKUP.format(lookup) for lookup in ("getattr", "setattr", "delattr")},
    "vars": "reaches names through vars()", "globals": "reaches names through globals()",
    "locals": "reaches names through locals()", "eval": "runs text as code with eval",
    "exec": "runs text as code with exec", "compile": "turns text into code with compile",
    "__import__": "imports a module by name with __import__", "open": "opens a file",
    "breakpoint": "starts the debugger", "help": "starts the help system, which imports by name",
}
_UNIVERSAL_DOORS = _OPAQUE_MODULE_NAMES | _FRAME_ATTRIBUTES | (set(_BUILTIN_DOORS) - {"compile"})
_ANY_DOOR = _UNIVERSAL_DOORS.union(*KNOWN_LIBRARIES.values())
_DOORS_OF = {library: doors | _UNIVERSAL_DOORS for library, doors in KNOWN_LIBRARIES.items()}
# Callables that read attributes by names passed as arguments: where the names go (positions, keywords,
# "*" for every positional) and whether one must be given. Literal names are checked like attributes;
# any other name argument is opaque.
_NAME_LOOKUPS: dict[str, tuple[tuple[int | str, ...], bool]] = {
    "getattr": ((1,), True), "setattr": ((1,), True), "delattr": ((1,), True),
    "operator.attrgetter": (("*",), True), "operator.methodcaller": ((0,), True),
    "functools.update_wrapper": ((2, 3, "assigned", "updated"), False),
    "functools.wraps": ((1, 2, "assigned", "updated"), False),
}
_HARMLESS_DUNDERS = frozenset({
    "__init__", "__new__", "__name__", "__qualname__", "__doc__", "__module__", "__version__",
    "__class__", "__call__", "__len__", "__iter__", "__next__", "__contains__", "__getitem__",
    "__setitem__", "__enter__", "__exit__", "__repr__", "__str__", "__format__", "__hash__", "__bool__",
    "__float__", "__int__", "__index__", "__round__", "__array__", "__eq__", "__ne__", "__lt__",
    "__le__", "__gt__", "__ge__", "__neg__", "__pos__", "__abs__", "__invert__",
    *(f"__{p}{op}__" for op in ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "divmod",
                                 "pow", "lshift", "rshift", "and", "or", "xor") for p in ("", "r", "i")),
})
_HIDDEN_MODULE_NAMES = frozenset({"__builtins__", "__build_class__", "__loader__", "__spec__", "__path__",
                                  "__dict__"})
_SNIPPET = 60  # characters of the student's code quoted in a description
MAX_READ_CHARS = 128 * 1024  # of the package's code read per exercise (the reference has 6 KB): bounds grading time
# Origins the analysis may follow per exercise (real code needs a few hundred): aliases that fork at
# every step (`a2 = a1.p` beside `a2 = a1.q`, a dozen deep) would otherwise take minutes of the grader's time.
MAX_RESOLUTION_STEPS = 200_000
TOO_INTRICATE = "is too intricate for the kit to follow (aliases nested or forked beyond what it reads)"


@dataclass(frozen=True)
class Use:
    """One place in the source that breaks the rule; `opaque` when the kit cannot see what it calls."""

    file: str
    line: int
    description: str
    opaque: bool = False

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}: {self.description}"


def forbidden_uses(sources: Mapping[str, str | bytes], module: str, forbidden: Collection[str], *,
                   imported_with: Collection[str] = (), package: str = PACKAGE) -> list[Use]:
    """Every use of a forbidden routine, and every construct hiding one, that `module` can run.

    `sources` maps the package's file names (`"softmax.py"`) to their bytes, or their text read as
    UTF-8 (with `errors="surrogateescape"` to keep any byte): it is parsed as Python reads the file,
    byte-order mark and coding line included, so the kit reads the code Python runs. `module` is the
    exercise's module name; `forbidden` the routines' names; `imported_with` other modules the
    sandbox imports in the same process before the exercise's calls end (their import-time code
    runs too). Uses come in reading order, the exercise's module first.
    """
    reader = _PackageReader(sources, package)
    exercise = reader.module(module)
    if exercise is None:
        return []
    try:
        loaded, live = reader.reachable(module, imported_with)
        names = ForbiddenNames(forbidden)
        uses: list[Use] = []
        for name in sorted(loaded, key=lambda m: (m != module, m != "__init__", m)):
            mod = reader.module(name)
            if mod is not None:
                uses += _ModuleChecker(reader, mod, names, whole=name in live).uses()
    except (RecursionError, _TooIntricate):  # the submission's own doing: it cannot hide behind it
        return [Use(exercise.file, 1, TOO_INTRICATE, opaque=True)]
    return list(dict.fromkeys(uses))


class _TooIntricate(Exception):
    """The analysis would follow more than MAX_RESOLUTION_STEPS origins."""


# ---------------------------------------------------------------- reading the package


@dataclass(frozen=True)
class _Origin:
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
class _Module:
    name: str
    file: str
    tree: ast.Module | None  # None: not read, for the reason in `unread`
    unread: str = ""
    bindings: dict[str, list[_Binding]] = field(default_factory=dict)
    stars: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, module or path, line)
    parents: dict[int, ast.AST] = field(default_factory=dict)


class _PackageReader:
    """The package's modules, parsed when first reached, and what each of their names refers to."""

    def __init__(self, sources: Mapping[str, str | bytes], package: str):
        self.package = package
        self.files = {file[:-3]: (file, text) for file, text in sources.items() if file.endswith(".py")}
        self._parsed: dict[str, _Module | None] = {}
        self._budget = MAX_READ_CHARS
        self._memo: dict[tuple[str, str], list[_Origin]] = {}
        self._steps = MAX_RESOLUTION_STEPS

    def _spend(self, origins: list[_Origin]) -> list[_Origin]:
        """Count the origins followed against the budget; `_TooIntricate` once it is spent."""
        self._steps -= len(origins) + 1
        if self._steps < 0:
            raise _TooIntricate
        return origins

    def module(self, name: str) -> _Module | None:
        """The module, parsed; None if the package lacks it or it has a syntax error."""
        if name not in self._parsed and name in self.files:
            file, text = self.files[name]
            if len(text) > self._budget:
                self._parsed[name] = _Module(name, file, None, f"goes beyond the {MAX_READ_CHARS // 1024} KB "
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

    def resolve_name(self, mod: _Module, name: str) -> list[_Origin]:
        key = (mod.name, name)
        if key not in self._memo:
            self._memo[key] = []  # a cycle of aliases resolves to nothing
            self._memo[key] = self._resolve_name(mod, name)
        return self._memo[key]

    def _resolve_name(self, mod: _Module, name: str) -> list[_Origin]:
        origins: list[_Origin] = []
        for binding in mod.bindings.get(name, []):
            if binding.kind == "library":
                origins.append(_Origin("library", _reroot(binding.value)))
            elif binding.kind == "module":
                origins.append(_Origin("module", binding.value))
            elif binding.kind == "imported":
                origins += self.member(*binding.value)
            elif binding.kind == "alias":
                origins += self.resolve(mod, binding.value) or [_Origin("own", mod.name)]
            else:
                origins.append(_Origin("own", mod.name))
        if not origins:
            origins = self._from_stars(mod, name)
        return self._spend(list(dict.fromkeys(origins)))  # a name bound a thousand times the same way is one

    def _from_stars(self, mod: _Module, name: str) -> list[_Origin]:
        origins: list[_Origin] = []
        for kind, source, _ in mod.stars:
            if kind == "library":
                origins.append(_Origin("library", _reroot(f"{source}.{name}")))
            elif source in self.files:
                origins += self.member(source, name)
        return origins

    def member(self, module: str, name: str) -> list[_Origin]:
        """What `module.name` is: its binding, a submodule of the package, or what `__getattr__` makes."""
        mod = self.module(module)
        if mod is None or mod.tree is None:
            return []
        if name in mod.bindings:
            return self.resolve_name(mod, name)
        if module == "__init__" and name in self.files:
            return [_Origin("module", name)]
        if "__getattr__" in mod.bindings:
            return [_Origin("own", module)]
        return self._from_stars(mod, name)

    def resolve(self, mod: _Module, node: ast.expr) -> list[_Origin]:
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

    def step(self, origins: list[_Origin], attr: str) -> list[_Origin]:
        after: list[_Origin] = []
        for origin in origins:
            if origin.kind == "library":
                after.append(_Origin("library", attr if attr in _REROOTED else f"{origin.name}.{attr}"))
            elif origin.kind == "module":
                after += self.member(origin.name, attr)
        return self._spend(list(dict.fromkeys(after)))

    # -- what the exercise can run

    def reachable(self, module: str, imported_with: Collection[str]) -> tuple[set[str], set[str]]:
        """(loaded, live): modules whose import-time code runs, and those whose functions can run too.

        A module is live when the exercise's code (or live or import-time code) names something of
        it, or when its import-time code hands out a function: a lambda or a decorated definition
        can be registered with a library and called from there.
        """
        loaded = {module} | {m for m in ("__init__", *imported_with) if m in self.files}
        live = {module}
        while True:
            size = (len(loaded), len(live))
            for name in sorted(loaded):
                mod = self.module(name)
                if mod is None or mod.tree is None:
                    continue
                for node in _region(mod.tree, whole=name in live):
                    loaded |= self._imported_modules(node)
                    for origin in self._referenced(mod, node):
                        if origin.kind != "library" and origin.name in self.files:
                            loaded.add(origin.name)
                            live.add(origin.name)
                    if _hands_out_a_function(node) or self._calls_its_methods(mod, node):
                        live.add(name)
            if (len(loaded), len(live)) == size:
                return loaded, live

    def _calls_its_methods(self, mod: _Module, node: ast.AST) -> bool:
        """A class derived from a library class that runs the subclass's methods while creating it."""
        if not isinstance(node, ast.ClassDef):
            return False
        parents = [*node.bases, *(k.value for k in node.keywords)]
        return any(o.kind == "library" and o.name.partition(".")[0] in _CALLS_SUBCLASS_METHODS
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

    def _referenced(self, mod: _Module, node: ast.AST) -> list[_Origin]:
        """What a name or attribute refers to, and the modules it was imported from (they hold it)."""
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            sources = [_Origin("own", binding.value[0]) for binding in mod.bindings.get(node.id, [])
                       if binding.kind == "imported"]
            return self.resolve_name(mod, node.id) + sources
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                and not isinstance(mod.parents.get(id(node)), ast.Attribute):  # whole chains: linear time
            return self.resolve(mod, node)
        return []


def _reroot(path: str) -> str:
    """`torch.nn.functional.torch.ops` is `torch.ops`: a library re-exported by another is itself."""
    parts = path.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] in _REROOTED:
            return ".".join(parts[i:])
    return path


def _parse(file: str, text: str | bytes) -> _Module | None:
    """The module as Python parses the file; None for a syntax error (the grader reports that crash)."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")
    try:
        tree = ast.parse(data, filename=file)
    except (SyntaxError, ValueError):
        return None
    except (RecursionError, MemoryError):  # Python may still import it with a raised recursion limit
        return _Module(file[:-3], file, None, "is nested too deeply for the kit to read")
    return _Module(file[:-3], file, tree)


def _collect_bindings(reader: _PackageReader, mod: _Module) -> None:
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


def _region(tree: ast.AST, whole: bool) -> Iterator[ast.AST]:
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


# ---------------------------------------------------------------- checking one module


class _ModuleChecker:
    """The uses in one module's code that runs (all of it, or its import-time part)."""

    def __init__(self, reader: _PackageReader, mod: _Module, names: ForbiddenNames, whole: bool):
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
            for node in _region(self.mod.tree, self.whole):
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
            shown = _reroot(".".join(parts[: i + 1]))
            problem = self._attribute_problem(parts[i], _Origin("library", _reroot(".".join(parts[:i]))))
            if problem == "forbidden":
                self._use(line, f"{verb} {_cap(shown)}")
                return
            if problem is not None:
                self._opaque(line, f"{verb} {_cap(shown)}{problem}")
                return

    def _attribute_problem(self, attr: str, base: _Origin | None, own: bool = False) -> str | None:
        """"forbidden", an opaque reason (may be ""), or None, for reading `attr` from `base`.

        `own`: read from `self` in a method of a class that sets it, so a private name is the student's.
        """
        if self.names.match(attr):
            return "forbidden"
        if attr.startswith("__") and attr.endswith("__"):
            return None if attr in _HARMLESS_DUNDERS else ""
        if base is not None and base.kind == "library":
            root = base.name.partition(".")[0]
            if attr.startswith("_"):
                return f", a private part of {root}"
            return "" if attr in _DOORS_OF.get(root, _UNIVERSAL_DOORS) else None
        if attr.startswith("_"):
            return None if own else ", a private attribute"
        return "" if attr in _ANY_DOOR else None

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
        elif (told := _telling(origins)) and told.name in _NAME_LOOKUPS and not self._literal_call(outer):
            self._opaque(outer.lineno, _COMPUTED_LOOKUP.format(told.name))

    def _check_change(self, outer: ast.Attribute, root: ast.expr, links: list[ast.Attribute]) -> None:
        base = _telling(self.reader.resolve(self.mod, outer.value))
        through_type = (isinstance(root, ast.Call) and isinstance(root.func, ast.Name) and root.func.id == "type") \
            or any(link.attr == "__class__" for link in links)
        if (base is not None and base.kind in ("library", "module")) or through_type:
            self._opaque(outer.lineno, f"changes {self._shown(outer, base)}")

    def _check_name(self, node: ast.Name) -> None:
        name = node.id
        if name in _BUILTIN_DOORS:
            if not (name in _NAME_LOOKUPS and self._literal_call(node)):
                self._opaque(node.lineno, _BUILTIN_DOORS[name])
            return
        if name in _HIDDEN_MODULE_NAMES:
            self._opaque(node.lineno, f"uses {name}")
            return
        origin = _telling(self.reader.resolve_name(self.mod, name))
        if origin is None or origin.kind != "library":
            return
        if origin.name.partition(".")[0] not in KNOWN_LIBRARIES:
            where = "" if self.whole else " at import"
            self._opaque(node.lineno, f"uses {_cap(origin.name)}{where}, which the kit does not read")
        elif origin.name in _NAME_LOOKUPS and not self._literal_call(node):
            self._opaque(node.lineno, _COMPUTED_LOOKUP.format(origin.name))
        elif name not in self.mod.bindings:  # brought in by a star import: never checked at an import
            star = self._library_star()
            self._check_through_package(node.lineno, [origin], "calls" if self._called(node) else "uses",
                                        f", which `from {star} import *` brings in" if star else
                                        ", which a star import brings in")

    def _check_through_package(self, line: int, origins: list[_Origin], verb: str, via: str) -> bool:
        """A name that reaches a library's through the package's modules or a star: checked as the library's."""
        origin = _telling(origins)
        if origin is None or origin.kind != "library" or "." not in origin.name:
            return False
        parent, _, attr = origin.name.rpartition(".")
        problem = self._attribute_problem(attr, _Origin("library", parent))
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

    def _check_attribute(self, line: int, attr: str, bases: list[_Origin], shown: str, call: bool) -> None:
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
        if isinstance(func, ast.Name) and func.id in _NAME_LOOKUPS:
            return func.id
        origin = _telling(self.reader.resolve(self.mod, func))
        if origin is not None and origin.kind == "library" and origin.name in _NAME_LOOKUPS:
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

    def _shown(self, node: ast.expr, base: _Origin | None) -> str:
        """`torch.nn.functional.softmax` when the path is known, else the student's own text, capped."""
        if base is not None and base.kind == "library" and isinstance(node, ast.Attribute):
            return _cap(f"{base.name}.{node.attr}")
        try:
            return _cap(ast.unparse(node))
        except RecursionError:
            return _cap(node.attr) if isinstance(node, ast.Attribute) else "an expression"


def _telling(origins: list[_Origin]) -> _Origin | None:
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
    places, required = _NAME_LOOKUPS[lookup]
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
