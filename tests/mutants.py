"""Single-line mutants of correct styles, and how many of them the kit locates at the mutated line.

A *style* is a correct way of writing one exercise's module: the reference, each overlay in
tests/submissions/correct, each module of tests/students whose exercise its expected.toml passes
on its own, and each overlay in tests/styles (correct styles kept for this harness alone, written after
its rules: the figure on them alone stands in for a held-out class). A *mutant* changes one line of it
with one of a few edits students make by mistake (an
axis, keepdim, an operator, a square root, a transpose, the exponential...). A mutant that still
answers right on the probes is equivalent and left out. For the rest the module is run in the real
sandbox on the probe of its exercise, the first wrong answer is traced and located, and the location
is compared with the mutated line.

`benchmarks/locate_mutants.py` prints the figures for all of them; tests/test_locating.py checks a sample.
"""
from __future__ import annotations

import ast
import random
import re
import shutil
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attnkit.grading.diagnosis import explanations, layout, reference_values, same
from attnkit.grading.locating import Source, locate_traced
from attnkit.grading.session import make_oracle
from attnkit.grading.steps.located import second_inputs
from attnkit.sandbox.protocol import Answer, CallRequest, ModuleRequest, Request, Trace, TraceRequest
from attnkit.sandbox.runner import SandboxedSubmission
from kit import COURSE, REPO, SUBMISSIONS

STUDENTS = REPO / "tests" / "students"
STYLES = REPO / "tests" / "styles"
MODULES = ("softmax", "scaled_scores", "attention", "projection")

# (pattern, replacement): each match on a line is one mutant
EDITS = [
    (r"dim=-1", "dim=0"), (r"dim=dim", "dim=0"), (r"axis=-1", "axis=0"), (r"\(-1\)", "(0)"),
    (r"keepdim=True", "keepdim=False"), (r"keepdims=True", "keepdims=False"),
    (r"(?<![/*])/(?![/=])", "*"), (r"(?<=[\w\)\]]) - (?=[\w\(])", " + "),
    (r"math\.sqrt\(([^()]*)\)", r"\1"), (r"\*\* ?0\.5", "** 2"), (r"\.sqrt\(\)", ""),
    (r"\.transpose\(-2, ?-1\)", ""), (r"\.transpose\(-1, ?-2\)", ""), (r"\.mT\b", ""), (r"\.T\b", ""),
    (r"torch\.exp\(", "("), (r"np\.exp\(", "("), (r"math\.exp\(", "("), (r"\.exp\(\)", ""),
    (r"\.sum\(", ".mean("), (r"\.amax\(", ".amin("), (r"\.max\(", ".min("),
    (r"shape\[-1\]", "shape[-2]"), (r"@ ?V\b", "@ V.flip(0)"),
]


@dataclass(frozen=True)
class Style:
    name: str
    files: dict[str, str]     # module file name -> source (the whole package the style runs with)
    module: str               # the exercise module it is a correct style of


@dataclass(frozen=True)
class Mutant:
    style: Style
    line: int
    before: str
    after: str

    @property
    def label(self) -> str:
        return f"{self.style.name}:{self.style.module}.py:{self.line}: {self.before.strip()} -> {self.after.strip()}"


def reference_files() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(COURSE.solutions_dir.glob("*.py"))}


def styles(which: str = "all") -> list[Style]:
    """Every correct style of every exercise module the kit's tests hold: `which` "old" (the reference,
    tests/submissions/correct, tests/students), "new" (tests/styles: written for this harness only, after
    its rules, as a stand-in for the held-out class nobody here sees) or "all"."""
    new = [Style(f"styles/{folder.name}", {**reference_files(), **_modules(folder)}, p.stem)
           for folder in sorted(STYLES.iterdir()) if folder.is_dir()
           for p in sorted(folder.glob("*.py")) if p.stem in MODULES]
    if which == "new":
        return new
    return _old_styles() + (new if which == "all" else [])


def _modules(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.py")}


def _old_styles() -> list[Style]:
    found = [Style("reference", reference_files(), module) for module in MODULES]
    for overlay in sorted((SUBMISSIONS / "correct").iterdir()):
        files = {**reference_files(), **{p.name: p.read_text(encoding="utf-8") for p in overlay.glob("*.py")}}
        found += [Style(overlay.name, files, p.stem) for p in sorted(overlay.glob("*.py")) if p.stem in MODULES]
    for student in sorted(STUDENTS.iterdir()):
        expected_file = student / "expected.toml"
        if not expected_file.is_file():
            continue
        expected = tomllib.loads(expected_file.read_text(encoding="utf-8"))
        files = {**reference_files(), **{p.name: p.read_text(encoding="utf-8") for p in student.glob("*.py")}}
        for module in MODULES:
            verdict = expected.get(module, {"passed": True})  # a table only for exercises not simply right
            if (student / f"{module}.py").is_file() and verdict.get("passed") and not verdict.get("carried_from") \
                    and all(expected.get(d, {"passed": True}).get("passed") for d in COURSE.dependencies(module)):
                found.append(Style(student.name, files, module))
    return found


def mutants(style: Style) -> Iterator[Mutant]:
    """Each single-line edit of the style's module, on lines inside its functions, that still compiles."""
    source = style.files[f"{style.module}.py"]
    lines = source.splitlines()
    inside = _function_body_lines(source)
    for number in sorted(inside):
        text = lines[number - 1]
        if text.strip().startswith(("#", "def ", '"""')):
            continue
        for pattern, replacement in EDITS:
            for match in re.finditer(pattern, text):
                after = text[:match.start()] + match.expand(replacement) + text[match.end():]
                changed = "\n".join([*lines[:number - 1], after, *lines[number:]]) + "\n"
                try:
                    ast.parse(changed)
                except SyntaxError:
                    continue
                yield Mutant(style, number, text, after)


def _function_body_lines(source: str) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for statement in node.body:
                if isinstance(statement, ast.Expr) and isinstance(getattr(statement, "value", None), ast.Constant):
                    continue  # a docstring
                lines.update(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
    return lines


def probes(module: str, rng: np.random.Generator) -> list[Request]:
    """The questions a mutant of `module` is asked: the lesson's example, then sizes that all differ, batched."""
    data = {k: np.asarray(v, dtype=np.float64) for k, v in COURSE.data.items() if k != "tokens"}
    if module == "softmax":
        return [CallRequest("softmax", "softmax", (data["scaled_scores"],)),
                CallRequest("softmax", "softmax", (rng.normal(size=(4, 6)), -1)),
                CallRequest("softmax", "softmax", (rng.normal(size=(2, 3, 5)), -1))]
    if module == "scaled_scores":
        return [CallRequest("scaled_scores", "scaled_scores", (data["queries"], data["keys"])),
                CallRequest("scaled_scores", "scaled_scores", (rng.normal(size=(4, 5)), rng.normal(size=(6, 5)))),
                CallRequest("scaled_scores", "scaled_scores", (rng.normal(size=(2, 4, 5)), rng.normal(size=(2, 6, 5))))]
    if module == "attention":
        return [CallRequest("attention", "attention", (data["queries"], data["keys"], data["values"])),
                CallRequest("attention", "attention", (rng.normal(size=(4, 5)), rng.normal(size=(6, 5)),
                                                       rng.normal(size=(6, 3)))),
                CallRequest("attention", "attention", (rng.normal(size=(2, 4, 5)), rng.normal(size=(2, 6, 5)),
                                                       rng.normal(size=(2, 6, 3))))]
    weights = {f"{p}.weight": rng.normal(scale=8 ** -0.5, size=(3, 8)) for p in ("W_q", "W_k", "W_v")}
    return [ModuleRequest("projection", "SelfAttention", (8, 3), ("W_q", "W_k", "W_v"), weights,
                          rng.normal(size=(5, 8))),
            ModuleRequest("projection", "SelfAttention", (8, 3), ("W_q", "W_k", "W_v"), weights,
                          rng.normal(size=(2, 5, 8)))]


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    verdict: str   # "equivalent", "at-line", "other-line", "step-only" (no line named), "none"
    located: str = ""


def judge(mutant: Mutant, workdir: Path, oracle=None) -> Outcome:
    """Run the mutant on its probes; locate its first wrong answer; compare with the mutated line, or with
    the first line whose value differs from the correct style's on the same probe (the issue's measure)."""
    oracle = oracle or make_oracle(COURSE)
    lines = mutant.style.files[f"{mutant.style.module}.py"].splitlines()
    lines[mutant.line - 1] = mutant.after
    root = _package(workdir / "mutant", {**mutant.style.files, f"{mutant.style.module}.py": "\n".join(lines) + "\n"})
    correct_root = _package(workdir / "correct", mutant.style.files)
    rng = np.random.default_rng(7)
    with SandboxedSubmission(root) as sandbox, SandboxedSubmission(correct_root) as correct:
        for request in probes(mutant.style.module, rng):
            reply = sandbox.run(request)
            reference = oracle.reference(request)
            if isinstance(reply, Answer) and _right(reply, reference):
                continue
            trace = sandbox.trace(TraceRequest(request))
            mistakes = _explained(reply, reference, request, oracle)
            runs = {subset: oracle.flawed_steps(request, subset)
                    for subset in [mistakes, *[tuple(m for m in mistakes if m != left) for left in mistakes]] if subset}
            located = locate_traced(trace, oracle.steps(request), request, root, 1e-3, 1e-5, mistakes, runs,
                                    witnesses(sandbox, request, oracle)) if trace else None
            if located is None:
                return Outcome(mutant, "none")
            where = located.location
            if where.line is None:  # the step, told without a line: the numbers could not choose one
                return Outcome(mutant, "step-only", f"({where.step}) {located.either}")
            text = f"{where.file}:{where.line} ({where.step})"
            module_file = f"{mutant.style.module}.py"
            goes_wrong = {(module_file, _statement_start(lines, mutant.line))}
            correct_trace = correct.trace(TraceRequest(request))
            if correct_trace is not None and trace is not None:
                arguments = {(name, line) for name, text in mutant.style.files.items() if name.endswith(".py")
                             for line in (Source.parse(name, text) or Source(name, [], {}, set(), {})).def_lines}
                diverging = _first_difference([b for b in trace.bindings if (b.file, b.line) not in arguments],
                                              [b for b in correct_trace.bindings if (b.file, b.line) not in arguments])
                if diverging is not None:
                    source_lines = (lines if diverging.file == module_file
                                    else mutant.style.files[diverging.file].splitlines())
                    goes_wrong.add((diverging.file, _statement_start(source_lines, diverging.line)))
            return Outcome(mutant, "at-line" if (where.file, where.line) in goes_wrong else "other-line", text)
    return Outcome(mutant, "equivalent")


def witnesses(sandbox, request: Request, oracle) -> list[tuple[Trace, list, Request]]:
    """The request's second inputs traced, as the grader traces them (steps/located.py's second_inputs)."""
    found = []
    for other in second_inputs(request):
        trace = sandbox.trace(TraceRequest(other))
        if trace is not None:
            found.append((trace, oracle.steps(other), other))
    return found


def _explained(reply, reference: Answer, request: Request, oracle) -> tuple[str, ...]:
    """The one configuration of catalogued mistakes whose numbers the answer has, as the grader finds it."""
    if not isinstance(reply, Answer) or reply.returned is None:
        return ()
    count = len(reference.returned.items)
    names = ["result"] if reference.returned.kind == "array" else [f"r{i}" for i in range(count)]
    values = layout(reply.returned, reference.returned, names)
    if isinstance(values, str):
        return ()
    for size in (1, 2):
        found = explanations(values, oracle.candidates(request, size), 1e-3, 1e-5)
        if found:
            return found[0] if len(found) == 1 else ()
    return ()


def _package(root: Path, files: dict[str, str]) -> Path:
    shutil.rmtree(root, ignore_errors=True)
    (root / "exercises").mkdir(parents=True)
    for name, text in files.items():
        (root / "exercises" / name).write_text(text, encoding="utf-8")
    return root


def _first_difference(mutated, correct):
    """The mutant's first binding that is not the correct style's (another site, or other numbers)."""
    for got, want in zip(mutated, correct):
        if (got.file, got.line, got.name) != (want.file, want.line, want.name) or got.shape != want.shape:
            return got
        if got.value is not None and want.value is not None and not np.allclose(got.value, want.value, 1e-4, 1e-6,
                                                                                 equal_nan=True):
            return got
    return None


def _right(reply: Answer, reference: Answer) -> bool:
    count = len(reference.returned.items)
    names = ["result"] if reference.returned.kind == "array" else [f"r{i}" for i in range(count)]
    values = layout(reply.returned, reference.returned, names) if reply.returned else "none"
    return not isinstance(values, str) and same(values, reference_values(reference.returned), 1e-3, 1e-5)


def _statement_start(lines: list[str], line: int) -> int:
    """The first line of the statement holding `line` (the kit names statements by their first line)."""
    tree = ast.parse("\n".join(lines) + "\n")
    best = (line, line)
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body") and node.lineno <= line <= (node.end_lineno or 0):
            if (node.end_lineno or 0) - node.lineno <= best[1] - best[0] or best == (line, line):
                best = (node.lineno, node.end_lineno or node.lineno)
    return best[0]


def sample(count: int, seed: int = 0) -> list[Mutant]:
    everything = [m for style in styles() for m in mutants(style)]
    return random.Random(seed).sample(everything, min(count, len(everything)))
