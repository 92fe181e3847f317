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
imports from the package, transitively. A module whose functions can run is read whole: the exercise's own, one
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

The analysis in three parts: `libraries` (the doors it knows), `reader` (the package parsed and its
names resolved), `checker` (the uses in one module's code).
"""
from __future__ import annotations

from collections.abc import Collection, Mapping

from attnkit.grading.source_rules.checker import CANNOT_TELL, ModuleChecker, Use
from attnkit.grading.source_rules.reader import MAX_READ_CHARS, PackageReader, TooIntricate
from attnkit.sandbox.refusals import ForbiddenNames

__all__ = ["CANNOT_TELL", "MAX_READ_CHARS", "TOO_INTRICATE", "Use", "forbidden_uses"]

TOO_INTRICATE = "is too intricate for the kit to follow (aliases nested or forked beyond what it reads)"


def forbidden_uses(sources: Mapping[str, str | bytes], module: str, forbidden: Collection[str]) -> list[Use]:
    """Every use of a forbidden routine, and every construct hiding one, that `module` can run.

    `sources` maps the package's file names (`"softmax.py"`) to their bytes, or their text read as
    UTF-8 (with `errors="surrogateescape"` to keep any byte): it is parsed as Python reads the file,
    byte-order mark and coding line included, so the kit reads the code Python runs. `module` is the
    exercise's module name; `forbidden` the routines' names. Uses come in reading order, the
    exercise's module first.
    """
    reader = PackageReader(sources)
    exercise = reader.module(module)
    if exercise is None:
        return []
    try:
        loaded, live = reader.reachable(module)
        names = ForbiddenNames(forbidden)
        uses: list[Use] = []
        for name in sorted(loaded, key=lambda m: (m != module, m != "__init__", m)):
            mod = reader.module(name)
            if mod is not None:
                uses += ModuleChecker(reader, mod, names, whole=name in live).uses()
    except (RecursionError, TooIntricate):  # the submission's own doing: it cannot hide behind it
        return [Use(exercise.file, 1, TOO_INTRICATE, opaque=True)]
    return list(dict.fromkeys(uses))
