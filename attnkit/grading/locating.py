"""Where a wrong answer first goes wrong: the step of the lesson's computation, and the student's line.

Pure functions of plain data, in the grader. The evidence is a `Trace` (attnkit/sandbox/tracing.py):
the numbers the student's code bound, line by line, in the traced second run of a wrong answer. The
map is the course's: the named steps its mistake model declares (`flaws.step("scale", ...)`), which
the oracle computes with no mistake on, on the same inputs (`Oracle.steps`). The engine knows no step
by name.

How a wrong answer is located (docs/diagnosis.md, "How a wrong answer is located"):

1. Each binding is compared with every step, within the course's tolerance, as it is or in the forms
   students write the same numbers in: transposed, with batch dimensions folded into the rows, with a
   size-1 dimension kept or dropped, one row or one batch element of it (a loop), or the first rows
   of it (a loop still filling it). A binding is *right* where it matches a step, *given* where it
   matches an input (or is an argument), *scaffolding* where it is all zeros (a table a loop fills).
2. The last right step is the latest step some binding matches; the bindings after the first binding
   of it that are neither right nor given nor scaffolding are where the code goes wrong; the first of
   them is the line named.
3. Its step: the wrong bindings are lined up with the steps after the last right one from the end
   (the last wrong binding is the last step's wrong value, the one before it the latest earlier step
   of its shape...), so a student who computes the weights in one built-in call is told "softmax",
   and one who writes the shift by hand and gets it wrong is told "shift".
4. A crash: the same, on the bindings before it; where no earlier line went wrong, the line that
   raised is named, with the shapes its names held (never their numbers).

A catalogued mistake is also placed on its own (`mistake_lines`): the course's model run with the
mistake on parts from the reference at some step; the student's binding of those flawed numbers is the
mistake's line. With two mistakes, each is the step where the run with both parts from the run
with the other alone, so each gets its own line.

Trust: the trace comes from the student's process. A binding in a file the grader did not read, on a
line that holds no statement, or whose numbers do not fit its shape makes the whole trace worthless
(no location). What it can change is the words of this student's feedback, never a score.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from attnkit.config import PACKAGE
from attnkit.grading.diagnosis import same, shape_text
from attnkit.grading.results import Location
from attnkit.sandbox.protocol import Answer, Binding, CallRequest, Failure, ModuleRequest, Request, Trace

FlawedRun = tuple[list[np.ndarray], list[tuple[str, np.ndarray]]]  # a flawed model's answer, and its steps
MAX_SLICES = 64     # rows (or batch elements) of a step a binding is compared with
MAX_CODE = 200      # characters of a line quoted in the feedback

Step = tuple[str, np.ndarray]


@dataclass(frozen=True)
class Source:
    """One of the student's files as the grader read it: its lines, and each line's statement."""

    name: str
    lines: list[str]
    statements: dict[int, int]   # line -> the first line of the innermost statement holding it
    def_lines: set[int]           # lines where a function's arguments are bound (def and decorators)
    ends: dict[int, int]          # a statement's first line -> its last (a compound statement's header)
    loops: frozenset[int] = frozenset()  # lines of `for` headers: the numbers they bind are counters, not steps

    @classmethod
    def parse(cls, name: str, text: str) -> Source | None:
        """None for a file that does not parse (a module that does not compile is located by its SyntaxError)."""
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return None
        spans: dict[int, tuple[int, int]] = {}  # line -> (span length, first line) of the innermost statement
        ends: dict[int, int] = {}
        def_lines: set[int] = set()
        loops: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.For, ast.AsyncFor)):
                loops.add(node.lineno)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                def_lines.add(node.lineno)
                def_lines.update(d.lineno for d in getattr(node, "decorator_list", []))
            if not isinstance(node, ast.stmt):
                continue
            body = getattr(node, "body", None)
            last = body[0].lineno - 1 if isinstance(body, list) and body else (node.end_lineno or node.lineno)
            ends[node.lineno] = max(last, node.lineno)
            for line in range(node.lineno, max(last, node.lineno) + 1):
                if line not in spans or spans[line][0] > last - node.lineno:
                    spans[line] = (last - node.lineno, node.lineno)
        return cls(name, text.splitlines(), {line: first for line, (_, first) in spans.items()}, def_lines, ends,
                   frozenset(loops))

    def code(self, line: int) -> str:
        return self.lines[line - 1].strip()[:MAX_CODE] if 0 < line <= len(self.lines) else ""

    def statement(self, line: int) -> str:
        """The statement starting on `line`, whole where it is simple; a compound one's header as `if x: pass`."""
        text = "\n".join(self.lines[line - 1:self.ends.get(line, line)]).strip()
        return text + " pass" if text.endswith(":") else text


@dataclass(frozen=True)
class Located:
    """A location, and the words that go with it beyond the contract's fields."""

    location: Location
    raised: str = ""                       # where a crash raised, when an earlier line is where it goes wrong
    shapes: str = ""                       # a crash: the shapes the raising line's names held
    yours: np.ndarray | None = None        # the student's numbers at the wrong step, and the reference's
    expected: np.ndarray | None = None
    mistakes: tuple[tuple[str, str, int, str], ...] = ()  # (mistake, file, line, code): each named mistake's line
    either: tuple[tuple[str, int], ...] = ()  # no line named: the lines the numbers cannot choose between


def locate(trace: Trace, steps: Sequence[Step], inputs: Sequence[np.ndarray], sources: dict[str, Source],
           rtol: float, atol: float) -> Located | None:
    """The first wrong step of a traced wrong answer and the student's line for it, or None."""
    if not _believable(trace.bindings, sources):
        return None
    numbers = [value for _, value in steps if value.size == 1]  # a size or a scale: what a scalar should be
    steps = [(name, value) for name, value in steps if value.size > 1]
    if not steps:
        return None
    bindings = [b for b in trace.bindings if sources[b.file].statements[b.line] not in sources[b.file].def_lines]
    matched = _discount_parts(bindings, [_steps_matched(b, steps, rtol, atol) for b in bindings])
    right = [max(m) if m else -1 for m in matched]
    last_right = max(right, default=-1)
    anchor = right.index(last_right) if last_right >= 0 else -1  # where the code had got furthest
    # a table a loop fills in place is wrong only if it never comes out right on that line
    filled = {(b.file, b.line, b.name) for b, found in zip(bindings, matched) if 2 in found.values()}
    # an alias of an earlier local (`e = shifted`) holding a step already reached is a step left out
    wrong = [i for i in range(anchor + 1, len(bindings))
             if (not matched[i] or (bindings[i].alias and not bindings[i].name.startswith("self.")))
             and ((bindings[i].file, bindings[i].line, bindings[i].name) not in filled or bindings[i].alias)
             and _suspect(bindings[i], inputs, rtol, atol) and not _sums_to_a_step(bindings[i], steps, rtol, atol)]
    twin = _first_twin_of_wrong_return(bindings, matched, anchor)
    if twin is not None and (not wrong or twin < wrong[0]):
        wrong = [twin, *wrong]
    crashed = trace.reply if isinstance(trace.reply, Failure) else None
    if not wrong and crashed is None:
        wrong = _last_return(bindings, anchor)  # a step left out: the answer is an earlier step's numbers
        if not wrong:
            return None
    first_wrong = min(last_right + 1, len(steps) - 1)
    step = _aligned_step(_by_site([bindings[i] for i in wrong]), steps, first_wrong) if wrong else first_wrong
    left_out = _step_left_out(bindings, matched, wrong, steps, sources, last_right, step) if wrong else None
    if left_out is not None and left_out[1]:  # the line that reached the last right step stopped a step short
        wrong, step = [left_out[0]], last_right + 1
    elif left_out is not None:  # that line, or the wrong one computing the step inline: the numbers cannot say
        lines = tuple(_site_line(bindings[i], sources) for i in (left_out[0], wrong[0]))
        return Located(Location(None, None, None, steps[last_right + 1][0], steps[last_right][0]), either=lines)
    before = steps[last_right][0] if 0 <= last_right < step else None
    if wrong:
        culprit = bindings[wrong[0]]
        where = (culprit.file, sources[culprit.file].statements[culprit.line])
        yours = culprit.value
        for _ in range(3):  # a wrong number, computed from another wrong number...
            scalar = _wrong_number_read(bindings[:wrong[0]], sources[where[0]], where[1], numbers, rtol, atol)
            if scalar is None:
                break
            where = (scalar.file, sources[scalar.file].statements[scalar.line])
    else:
        assert crashed is not None
        raised = _raised_at(crashed, sources)
        if raised is None:
            return None
        where, yours = raised, None
        scalar = _wrong_number_read(bindings, sources[where[0]], where[1], numbers, rtol, atol)
        if scalar is not None:  # a size computed wrong, which the line that raised was given
            where = (scalar.file, sources[scalar.file].statements[scalar.line])
    source = sources[where[0]]
    location = Location(where[0], where[1], source.code(where[1]), steps[step][0], before)
    raised_words, shapes = "", ""
    if crashed is not None:
        raised = _raised_at(crashed, sources)
        if raised is not None and raised != where:
            raised_words = f"{raised[0]}, line {raised[1]}"
        if raised is not None:
            shapes = _shapes_on_line(sources[raised[0]], raised[1], trace.bindings)
        batches = [given for given in inputs if given.ndim > 2]
        if batches:  # code written for one grid meets leading batch dimensions
            shapes += ("; " if shapes else "") + f"this check passes a batch: an input of shape " \
                      f"{shape_text(batches[0].shape)}"
    return Located(location, raised_words, shapes, yours, steps[step][1])


# --- trust ------------------------------------------------------------------------------------------


def _believable(bindings: Sequence[Binding], sources: dict[str, Source]) -> bool:
    """Every binding names a file the grader read and a line holding a statement there."""
    return all(b.file in sources and b.line in sources[b.file].statements for b in bindings)


# --- comparing a binding with the steps -------------------------------------------------------------


def _steps_matched(binding: Binding, steps: Sequence[Step], rtol: float, atol: float) -> dict[int, int]:
    """Each step the binding holds: 2 whole (in some form), 1 a part of it."""
    value = binding.value
    if value is None or value.size == 0:
        return {}
    found = {k: _match(value, target, rtol, atol) for k, (_, target) in enumerate(steps)}
    return {k: how for k, how in found.items() if how}


def _discount_parts(bindings: Sequence[Binding], matched: list[dict[int, int]]) -> list[dict[int, int]]:
    """A row that matches a step (a symmetric row of the lesson's example) is no evidence where another
    row bound on the same line under the same name matches nothing: that line computes a wrong step."""
    wrong_sites = {(b.file, b.line, b.name) for b, found in zip(bindings, matched)
                   if not found and b.value is not None and b.value.size > 1}
    return [{k: how for k, how in found.items() if how == 2 or (b.file, b.line, b.name) not in wrong_sites}
            for b, found in zip(bindings, matched)]


def _matches(value: np.ndarray, target: np.ndarray, rtol: float, atol: float) -> bool:
    return bool(_match(value, target, rtol, atol))


def _match(value: np.ndarray, target: np.ndarray, rtol: float, atol: float) -> int:
    """The same numbers, in any of the forms a student's code holds a step in (see the module's docstring):
    2 the whole of it, 1 a part, 0 not."""
    if value.size <= 1 < target.size:
        return 0  # one number says too little (a total, a scale): right by chance as often as not
    if any(same([form], [target], rtol, atol) for form in _forms(value, target.shape)):
        return 2
    return 1 if _part_of(value, target, rtol, atol) else 0


def _forms(value: np.ndarray, shape: tuple[int, ...]) -> list[np.ndarray]:
    forms = []
    if value.shape == shape:
        forms.append(value)
    if value.ndim >= 2 and value.shape[:-2] + value.shape[:-3:-1] == shape:
        forms.append(np.swapaxes(value, -1, -2))
    if value.size == int(np.prod(shape)) and value.shape != shape and shape:
        # a size-1 dimension dropped or added in front broadcasts as before; dropped behind it does not (a
        # sum without keepdim), so those numbers are not the step's, whatever they are
        padded = _leading_ones_dropped(value.shape) == _leading_ones_dropped(shape)
        folded = value.ndim >= 2 and value.shape[-1] == shape[-1] and len(shape) > value.ndim
        if padded or folded:
            forms.append(value.reshape(shape))
    return forms


def _leading_ones_dropped(shape: tuple[int, ...]) -> tuple[int, ...]:
    while shape and shape[0] == 1:
        shape = shape[1:]
    return shape


def _part_of(value: np.ndarray, target: np.ndarray, rtol: float, atol: float) -> bool:
    """One row or batch element of the step (a loop's), or its first rows (a table a loop is filling)."""
    if value.ndim < target.ndim and target.shape[target.ndim - value.ndim:] == value.shape:
        parts = target.reshape((-1, *value.shape))[:MAX_SLICES]
        return any(same([value], [part], rtol, atol) for part in parts)
    if value.ndim == target.ndim and value.ndim >= 1 and value.shape[1:] == target.shape[1:] \
            and 0 < value.shape[0] < target.shape[0]:
        return same([value], [target[:value.shape[0]]], rtol, atol)
    return False


def _suspect(binding: Binding, inputs: Sequence[np.ndarray], rtol: float, atol: float) -> bool:
    """A binding that may be where the code goes wrong: not one number, not an input, not a table of zeros."""
    if binding.value is None:
        return bool(binding.shape) and int(np.prod(binding.shape)) > 1
    value = binding.value
    if value.size <= 1 or (np.isfinite(value).all() and not value.any()):
        return False
    return not any(_matches(value, given, rtol, atol) for given in inputs)


def _sums_to_a_step(binding: Binding, steps: Sequence[Step], rtol: float, atol: float) -> bool:
    """Numbers whose sum along one axis is a step (the elementwise products a dot product sums): a right
    intermediate the lesson does not name, not where the code goes wrong."""
    value = binding.value
    if value is None or value.ndim < 2:
        return False
    return any(_match(value.sum(axis=axis), target, rtol, atol) == 2
               for axis in range(value.ndim) for _, target in steps if target.size > 1)


def _fit(shape: tuple[int, ...], target: tuple[int, ...]) -> int:
    """How well a binding's shape says it holds a step: 2 its shape (transposed, a size-1 dimension kept or
    dropped, batches folded), 1 a part of it (a row), 0 not at all."""
    squeezed = tuple(n for n in shape if n != 1) == tuple(n for n in target if n != 1)
    folded = len(shape) >= 2 and len(target) > len(shape) and shape[-1] == target[-1] and \
        int(np.prod(shape)) == int(np.prod(target))
    if shape == target or shape[:-2] + shape[:-3:-1] == target or squeezed or folded:
        return 2
    return 1 if _part_shape(shape, target) else 0


def _aligned_step(wrong: Sequence[Binding], steps: Sequence[Step], first_wrong: int) -> int:
    """The step the first wrong binding computes: wrong bindings lined up with the steps from the end.

    A binding holding the numbers of a later one (`return weights`, a helper's answer bound by its
    caller) is the same step; so is a part of the one after it (a row a loop builds it from)."""
    position = len(steps)
    assigned: dict[int, int] = {}
    later: Binding | None = None
    for index in reversed(range(len(wrong))):
        binding = wrong[index]
        twin = next((j for j in assigned if _same_numbers(binding, wrong[j])), None)
        if twin is not None:
            assigned[index] = assigned[twin]
            continue
        part = later is not None and _part_shape(binding.shape, later.shape)
        end = min(position + 1, len(steps)) if part else position
        fits = {k: 1 if part and k == position else _fit(binding.shape, steps[k][1].shape)
                for k in range(first_wrong, end)}
        best = max(fits.values(), default=0)
        if best:
            position = max(k for k, fit in fits.items() if fit == best)
        assigned[index] = position if best else first_wrong
        later = binding
    return max(first_wrong, min(assigned[0], len(steps) - 1))


def _by_site(bindings: Sequence[Binding]) -> list[Binding]:
    """One binding a site (file, line, name), in the order the sites were first bound: each loop's latest."""
    latest: dict[tuple[str, int, str], Binding] = {}
    for binding in bindings:
        latest.setdefault((binding.file, binding.line, binding.name), binding)
        latest[(binding.file, binding.line, binding.name)] = binding
    return list(latest.values())


def _same_numbers(a: Binding, b: Binding) -> bool:
    return a.value is not None and b.value is not None and a.value.shape == b.value.shape and \
        bool(np.allclose(a.value, b.value, rtol=1e-5, atol=1e-7, equal_nan=True))  # float32 and float64 alike


def _part_shape(shape: tuple[int, ...], whole: tuple[int, ...]) -> bool:
    return len(shape) < len(whole) and whole[len(whole) - len(shape):] == shape


def _first_twin_of_wrong_return(bindings: Sequence[Binding], matched: Sequence[dict[int, int]],
                                anchor: int) -> int | None:
    """The first binding, before the furthest step reached, of numbers a wrong return holds (weights
    computed wrong on their own line while the output, computed apart, is right)."""
    returned = [b for b, found in zip(bindings, matched) if b.name.startswith("return") and not found
                and b.value is not None and b.value.size > 1]
    for index in range(max(anchor, 0)):
        if not matched[index] and any(_same_numbers(bindings[index], r) for r in returned):
            return index
    return None


def _site_line(binding: Binding, sources: dict[str, Source]) -> tuple[str, int]:
    return binding.file, sources[binding.file].statements[binding.line]


def _step_left_out(bindings: Sequence[Binding], matched: Sequence[dict[int, int]], wrong: Sequence[int],
                   steps: Sequence[Step], sources: dict[str, Source], last_right: int,
                   step: int) -> tuple[int, bool] | None:
    """The binding that reached the last right step where the first wrong one skips steps, and whether it
    is surely the line that stopped short (False: it, or the wrong line computing the skipped step inline).

    `e = (x - peak)` (the exponential left out) holds the right shift, so the line after it (`total =
    e.sum(...)`) is the first whose numbers are wrong, and its shape says it is the totals step: the
    powers step between them was never bound. The line that first reached the shift (or the helper line
    that computed it), which the wrong line reads, stopped a step short, where it has the shape of the
    step after it. Sure where one step is skipped, the wrong line's shape is not that step's (a line
    computing it inline, wrong, would have it) and the wrong line is not the last step's. Where it skips
    two (`return exps / exps.sum()` after `exps = x - m`), either line may be the one. A line skipping
    more is one call computing several steps (`torch.softmax`): that line is the one."""
    if last_right < 0 or step <= last_right + 1:
        return None
    culprit = bindings[wrong[0]]
    holders = [i for i in range(wrong[0]) if last_right in matched[i]]
    source = sources[culprit.file]
    read = set(_names_read(source, source.statements[culprit.line]))
    latest = next((i for i in reversed(holders) if bindings[i].name in read and bindings[i].file == culprit.file), None)
    if latest is None:
        return None
    site = (bindings[latest].file, bindings[latest].line, bindings[latest].name)
    first = holders[0]  # where those numbers were computed: this site, or a helper's return its caller binds
    same_site = (bindings[first].file, bindings[first].line, bindings[first].name) == site
    if not (same_site or _same_numbers(bindings[first], bindings[latest])) or \
            not _fit(bindings[latest].shape, steps[last_right + 1][1].shape):
        return None
    skipped = [k for k in range(last_right + 1, step)  # a step whose numbers the next one repeats is not one more
               if not (steps[k][1].shape == steps[k + 1][1].shape and np.allclose(steps[k][1], steps[k + 1][1]))]
    if len(skipped) == 1:  # the wrong line with the skipped step's shape computes it inline, wrong
        fits = _fit(culprit.shape, steps[skipped[0]][1].shape) == 2
        return None if fits else (first, step < len(steps) - 1)
    return (first, False) if len(skipped) == 2 else None

def _last_return(bindings: Sequence[Binding], anchor: int) -> list[int]:
    """The last value returned, where it repeats a step already reached: the steps after it are missing."""
    returns = [i for i in range(anchor, len(bindings)) if i >= 0 and bindings[i].name.startswith("return")]
    return returns[-1:]


def _wrong_number_read(earlier: Sequence[Binding], source: Source, line: int, numbers: Sequence[np.ndarray],
                       rtol: float, atol: float) -> Binding | None:
    """A number the wrong line reads (`d_k`, `scale`) that is none of the numbers the course declares (nor
    one over one): the line that computed it is where the code goes wrong. None where the course declares
    no numbers, so a size the course says nothing of is never blamed."""
    if not numbers:
        return None
    for name in _names_read(source, line):
        held = next((b for b in reversed(earlier) if b.name == name and b.file == source.name
                     and source.statements[b.line] != line), None)
        if held is None or held.value is None or held.value.size != 1 or source.statements[held.line] in source.loops:
            continue  # not one number, or a loop's counter (an index, not a number the code computes)
        value = float(held.value.reshape(()))
        known = [float(n.reshape(())) for n in numbers]
        if not any(np.isclose(value, n, rtol, atol) or (value and np.isclose(1 / value, n, rtol, atol)) for n in known):
            return held
    return None


def _names_read(source: Source, line: int) -> list[str]:
    """The names a statement reads, in order (its first line, where it does not parse whole)."""
    try:
        tree = ast.parse(source.statement(line))
    except SyntaxError:
        return []
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.append(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.append(f"self.{node.attr}")
    return list(dict.fromkeys(names))


# --- crashes ----------------------------------------------------------------------------------------

WHERE = re.compile(r"^(?P<file>[^,]+), line (?P<line>\d+)$")


def _raised_at(failure: Failure, sources: dict[str, Source]) -> tuple[str, int] | None:
    found = WHERE.match(failure.where)
    if found is None or found["file"] not in sources:
        return None
    source, line = sources[found["file"]], int(found["line"])
    return (source.name, source.statements[line]) if line in source.statements else None


def _shapes_on_line(source: Source, line: int, bindings: Sequence[Binding]) -> str:
    """The shapes the names read on a line held when it ran (latest binding of each in that file)."""
    names = _names_read(source, line)
    held = {b.name: b.shape for b in bindings if b.file == source.name}
    shapes = [f"{name} has shape {shape_text(held[name])}" for name in dict.fromkeys(names)
              if name in held and len(held[name]) >= 1]
    note = ""
    if ".T" in source.code(line) and any(len(held.get(n, ())) > 2 for n in names):
        note = "; .T on a tensor of more than two dimensions reverses all its dimensions, not the last two"
    return ", ".join(shapes[:4]) + note if shapes else ""


# --- a traced request, as the grader asked it --------------------------------------------------------

MAX_SOURCE_BYTES = 1 << 20


def locate_traced(trace: Trace, steps: Sequence[Step], request: Request, package_root: Path, rtol: float,
                  atol: float, mistakes: tuple[str, ...] = (),
                  runs: Mapping[tuple[str, ...], Sequence[FlawedRun]] | None = None) -> Located | None:
    """Locate a traced wrong answer against the student's files as the grader reads them now; with the
    catalogued `mistakes` named for it and the model's `runs` with them on (and each left out), each too."""
    sources = read_sources(package_root / PACKAGE)
    found = locate(trace, steps, request_inputs(request), sources, rtol, atol)
    lines = mistake_lines(trace, steps, runs or {}, mistakes, sources, rtol, atol) if mistakes else {}
    placed = tuple((m, file, line, sources[file].code(line)) for m, (file, line, _) in lines.items())
    if lines and found is None:
        mistake, (file, line, step) = next(iter(lines.items()))
        names = [name for name, value in steps if value.size > 1]
        before = names[names.index(step) - 1] if step in names and names.index(step) > 0 else None
        words = found if found is not None else Located(Location(file, line, "", step, before))
        return replace(words, location=Location(file, line, sources[file].code(line), step, before), mistakes=placed,
                       yours=None, expected=None)
    return replace(found, mistakes=placed) if found is not None else None


def read_sources(package: Path) -> dict[str, Source]:
    """The student's modules that parse, by file name (read here, never taken from the student's process)."""
    sources: dict[str, Source] = {}
    for path in sorted(package.glob("*.py")) if package.is_dir() else []:
        try:
            if path.is_symlink() or path.stat().st_size > MAX_SOURCE_BYTES:
                continue
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        source = Source.parse(path.name, text)
        if source is not None:
            sources[path.name] = source
    return sources


def request_inputs(request: Request) -> list[np.ndarray]:
    """The arrays the check gave the student's code: a binding holding one of them is not a step."""
    if isinstance(request, CallRequest):
        return [a for a in request.args if isinstance(a, np.ndarray)]
    if isinstance(request, ModuleRequest):
        return [*([request.input] if request.input is not None else []), *request.weights.values()]
    return []


# --- catalogued mistakes: each at its own line ------------------------------------------------------


def mistake_lines(trace: Trace, steps: Sequence[Step], runs: Mapping[tuple[str, ...], Sequence[FlawedRun]],
                  mistakes: tuple[str, ...], sources: dict[str, Source], rtol: float,
                  atol: float) -> dict[str, tuple[str, int, str]]:
    """Where each of the named mistakes is made: mistake -> (file, line, step).

    `runs` holds the model's runs with the mistakes on and with each left out (the reference for one
    mistake). A mistake's step is the first where the run with all of them on parts from the run without
    it; its line, the student's last binding of that step's flawed numbers before the next flawed step's.
    """
    if not _believable(trace.bindings, sources):
        return {}
    answer = _returned_arrays(trace.reply)
    whole = _best_run(runs.get(mistakes, ()), trace.bindings, steps, answer, rtol, atol)
    if whole is None:
        return {}
    found: dict[str, tuple[str, int, str]] = {}
    for mistake in mistakes:
        others = tuple(m for m in mistakes if m != mistake)
        without = list(steps) if not others else _best_run(runs.get(others, ()), trace.bindings, steps, None,
                                                           rtol, atol)
        if without is None:
            continue
        at = _parting_step(whole, without, rtol, atol)
        if at is None:
            continue
        binding = _binding_of(trace.bindings, whole, at, steps, rtol, atol)
        if binding is not None:
            found[mistake] = (binding.file, sources[binding.file].statements[binding.line], whole[at][0])
    return found


def _best_run(runs: Sequence[FlawedRun], bindings: Sequence[Binding], steps: Sequence[Step],
              answer: list[np.ndarray] | None, rtol: float, atol: float) -> list[Step] | None:
    """The spelling that gives the student's answer and parts from the reference latest (a harmless
    variant, such as where the max is taken, is the reference's own wherever it can be), then whose
    steps the student's bindings hold most of."""
    giving = [run for run in runs if answer is None or same(list(run[0]), answer, rtol, atol)] or list(runs)
    best, score = None, (-1, -1)
    for _, run in giving:
        tensors = [(name, value) for name, value in run if value.size > 1]
        held = sum(any(b.value is not None and _match(b.value, value, rtol, atol) == 2 for b in bindings)
                   for _, value in tensors)
        parting = _parting_step(tensors, steps, rtol, atol)
        rank = (len(tensors) if parting is None else parting, held)
        if rank > score:
            best, score = tensors, rank
    return best


def _holds_any(binding: Binding, values: Sequence[np.ndarray], rtol: float, atol: float) -> bool:
    return binding.value is not None and any(_matches(binding.value, value, rtol, atol) for value in values)


def _returned_arrays(reply: Answer | Failure) -> list[np.ndarray] | None:
    """What the traced run returned, as arrays (None where it is not arrays)."""
    returned = reply.returned if isinstance(reply, Answer) else None
    if returned is None:
        return None
    if returned.kind == "array" and returned.array is not None:
        return [returned.array]
    if returned.kind == "sequence" and all(item.kind == "array" and item.array is not None for item in returned.items):
        return [item.array for item in returned.items if item.array is not None]
    return None


def _parting_step(run: Sequence[Step], other: Sequence[Step], rtol: float, atol: float) -> int | None:
    """The first step of `run` whose numbers are not the same step's in `other`."""
    known = dict(reversed([(name, value) for name, value in other if value.size > 1]))
    for index, (name, value) in enumerate(run):
        if name not in known or not _matches(value, known[name], rtol, atol):
            return index
    return None


def _binding_of(bindings: Sequence[Binding], run: Sequence[Step], at: int, steps: Sequence[Step], rtol: float,
                atol: float) -> Binding | None:
    """The student's last binding of step `at`'s flawed numbers before one of a later flawed step's. Not one
    that holds a right step too (a shift the flawed run keeps as its powers): the numbers cannot say which
    of the two that line meant, so the mistake is not placed there."""
    target = run[at][1]
    right = [value for _, value in steps if value.size > 1]
    hits = [i for i, b in enumerate(bindings) if b.value is not None and _match(b.value, target, rtol, atol) == 2]
    later = [i for i, b in enumerate(bindings) if b.value is not None and not _matches(b.value, target, rtol, atol)
             and any(_match(b.value, value, rtol, atol) == 2 for _, value in run[at + 1:])]
    wrong = [i for i in hits if not _holds_any(bindings[i], right, rtol, atol)]
    if not wrong:
        return None
    before = [i for i in wrong if not later or i < later[0]]
    return bindings[before[-1] if before else wrong[0]]
