"""What the source analysis knows of libraries, built-ins and dunders: the doors to code or names it cannot read.

Listed by hand for the installed versions (a library upgrade can add a door); `checker` reports a
use of any of them as opaque, and `reader` follows a path through these libraries by name.
"""
from __future__ import annotations

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
REROOTED = frozenset(lib for lib, doors in KNOWN_LIBRARIES.items() if doors) | {"operator"}

# Libraries whose base classes call a subclass's own methods while it is created (enum.Enum runs
# `_generate_next_value_`, `__new__`, `__init__`): such a class hands out its functions at import.
CALLS_SUBCLASS_METHODS = frozenset({"enum"})

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
COMPUTED_LOOKUP = "looks up an attribute by a name computed at run time with {}"
BUILTIN_DOORS = {  # name -> what it does, for the feedback
    **{lookup: COMPUTED_LOOKUP.format(lookup) for lookup in ("getattr", "setattr", "delattr")},
    "vars": "reaches names through vars()", "globals": "reaches names through globals()",
    "locals": "reaches names through locals()", "eval": "runs text as code with eval",
    "exec": "runs text as code with exec", "compile": "turns text into code with compile",
    "__import__": "imports a module by name with __import__", "open": "opens a file",
    "breakpoint": "starts the debugger", "help": "starts the help system, which imports by name",
}
UNIVERSAL_DOORS = _OPAQUE_MODULE_NAMES | _FRAME_ATTRIBUTES | (set(BUILTIN_DOORS) - {"compile"})
ANY_DOOR = UNIVERSAL_DOORS.union(*KNOWN_LIBRARIES.values())
DOORS_OF = {library: doors | UNIVERSAL_DOORS for library, doors in KNOWN_LIBRARIES.items()}
# Callables that read attributes by names passed as arguments: where the names go (positions, keywords,
# "*" for every positional) and whether one must be given. Literal names are checked like attributes;
# any other name argument is opaque.
NAME_LOOKUPS: dict[str, tuple[tuple[int | str, ...], bool]] = {
    "getattr": ((1,), True), "setattr": ((1,), True), "delattr": ((1,), True),
    "operator.attrgetter": (("*",), True), "operator.methodcaller": ((0,), True),
    "functools.update_wrapper": ((2, 3, "assigned", "updated"), False),
    "functools.wraps": ((1, 2, "assigned", "updated"), False),
}
HARMLESS_DUNDERS = frozenset({
    "__init__", "__new__", "__name__", "__qualname__", "__doc__", "__module__", "__version__",
    "__class__", "__call__", "__len__", "__iter__", "__next__", "__contains__", "__getitem__",
    "__setitem__", "__enter__", "__exit__", "__repr__", "__str__", "__format__", "__hash__", "__bool__",
    "__float__", "__int__", "__index__", "__round__", "__array__", "__eq__", "__ne__", "__lt__",
    "__le__", "__gt__", "__ge__", "__neg__", "__pos__", "__abs__", "__invert__",
    *(f"__{p}{op}__" for op in ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "divmod",
                                 "pow", "lshift", "rshift", "and", "or", "xor") for p in ("", "r", "i")),
})
HIDDEN_MODULE_NAMES = frozenset({"__builtins__", "__build_class__", "__loader__", "__spec__", "__path__",
                                  "__dict__"})
