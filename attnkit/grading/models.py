"""Mistake models: the reference computation written once, with a switch for each catalogued mistake.

A course writes one model module an exercise (`graders/mistakes/<exercise>.py`, trusted code that
never leaves the grader): functions named like the exercise's functions (or its class), taking a
`Flaws` first. Where the model reaches a place a mistake changes, it asks the flaws:

    axis = flaws.choose("softmax-wrong-dim", dim, other_axes(scores, dim))
    if flaws.on("scores-missing-scale"): ...

`choose` returns the correct value when the mistake is off and, when it is on, each of the wrong
ones in turn (the *spellings* of the mistake: every way students write it that changes the
numbers: sum over dim 0 or over -2). `variant` is a step that is harmless in correct code but
not around a mistake (a max shift along the row, over everything, or none): with no mistake on it
takes the first option, with any mistake on it tries each. `enumerate_answers` runs a model once a
spelling for every configuration, one mistake at a time and then in pairs, so a mistake is
recognised by what it computes however it is written, and two mistakes together are too.
"""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from types import ModuleType
from typing import Any

from attnkit.errors import KitError

MODELS_PACKAGE = "attnkit_course_models"
MAX_SPELLINGS = 48  # runs of one configuration: a mistake with many spellings, paired with another


class Flaws:
    """The mistakes switched on for one run of a model, and which spelling of each."""

    def __init__(self, active: frozenset[str], choices: Sequence[int] = ()):
        self.active = active
        self._choices = list(choices)
        self._made: dict[str, int] = {}  # mistake -> choice made in this run
        self.options: list[int] = []     # how many options each choice had, in the order made
        self.consulted: set[str] = set()
        self.steps: list[tuple[str, Any]] = []  # (name, value) of each step the model declared, in order

    def step(self, name: str, value: Any) -> Any:
        """Declare a named step of the lesson's computation (`scores = flaws.step("scale", ...)`): its value,
        unchanged. With no mistake on, the steps are the reference's intermediates, which a wrong answer
        is located against (attnkit/grading/locating.py); the engine knows no step by name."""
        self.steps.append((name, value))
        return value

    def on(self, mistake: str) -> bool:
        """Whether `mistake` is switched on (a mistake with one spelling)."""
        return self.choose(mistake, False, [True])

    def choose(self, mistake: str, correct: Any, wrong: Sequence[Any]) -> Any:
        """`correct` when the mistake is off; one of `wrong` (each, over the runs) when it is on.

        Within one run a mistake keeps the spelling it was first given, so a model may ask twice.
        """
        self.consulted.add(mistake)
        if mistake not in self.active or not wrong:
            return correct
        return wrong[self._pick(mistake, len(wrong))]

    def variant(self, step: str, options: Sequence[Any]) -> Any:
        """A harmless step's first option when no mistake is on; each option in turn when one is."""
        if not self.active:
            return options[0]
        return options[self._pick(f"variant:{step}", len(options))]

    def _pick(self, key: str, count: int) -> int:
        """Which of `count` options `key` takes in this run: the run's next choice, kept if asked again."""
        if key not in self._made:
            position = len(self._made)
            index = self._choices[position] if position < len(self._choices) else 0
            self._made[key] = min(index, count - 1)
            self.options.append(count)
        return self._made[key]

    def renamed(self, names: dict[str, str]) -> RenamedFlaws:
        """These flaws as seen by a dependency's model, whose mistakes go by other names here."""
        return RenamedFlaws(self, names)

    @property
    def used(self) -> bool:
        """Every active mistake changed something in this run (else the configuration is a duplicate)."""
        return self.active <= set(self._made)

    def next_choices(self) -> list[int] | None:
        """The choices of the next run (an odometer over the options seen), or None when all were run."""
        made = [self._made[m] for m in self._made]
        for position in reversed(range(len(made))):
            if made[position] + 1 < self.options[position]:
                return made[:position] + [made[position] + 1]
        return None


class RenamedFlaws:
    """A view of `Flaws` under other mistake names (a layer's softmax mistake is `projection-...`)."""

    def __init__(self, flaws: Flaws, names: dict[str, str]):
        self._flaws, self._names = flaws, names

    def on(self, mistake: str) -> bool:
        return self._flaws.on(self._names.get(mistake, mistake))

    def choose(self, mistake: str, correct: Any, wrong: Sequence[Any]) -> Any:
        return self._flaws.choose(self._names.get(mistake, mistake), correct, wrong)

    def variant(self, step: str, options: Sequence[Any]) -> Any:
        return self._flaws.variant(step, options)

    def step(self, name: str, value: Any) -> Any:
        return self._flaws.step(name, value)

    def renamed(self, names: dict[str, str]) -> RenamedFlaws:
        return RenamedFlaws(self._flaws, {**self._names, **{k: self._names.get(v, v) for k, v in names.items()}})


Model = Callable[..., Any]


@dataclass(frozen=True)
class Candidate:
    """One configuration's answer: the mistakes switched on and what the model computed with them."""

    mistakes: frozenset[str]
    answer: Any


def consulted(model: Model, args: Sequence[Any]) -> set[str]:
    """The mistakes a model asks about on these arguments."""
    flaws = Flaws(frozenset())
    model(flaws, *args)
    return flaws.consulted


def flawed_steps(model: Model, active: frozenset[str],
                 args: Sequence[Any]) -> Iterator[tuple[Any, list[tuple[str, Any]]]]:
    """Each spelling of the active mistakes: its answer and the steps it declared on the way."""
    choices: list[int] | None = []
    for _ in range(MAX_SPELLINGS):
        flaws = Flaws(active, choices or ())
        try:
            answer = model(flaws, *args)
        except Exception:  # a spelling that cannot run on these shapes shows as a crash, not as numbers
            answer = None
        if flaws.used and answer is not None:
            yield answer, flaws.steps
        choices = flaws.next_choices()
        if choices is None:
            return


def runs(model: Model, active: frozenset[str], args: Sequence[Any]) -> Iterator[Any]:
    """The model's answer for each spelling of the active mistakes (crashing spellings are skipped)."""
    for answer, _ in flawed_steps(model, active, args):
        yield answer


def reference_steps(model: Model, args: Sequence[Any]) -> list[tuple[str, Any]]:
    """The steps the model declares on these arguments with no mistake on: the reference's intermediates."""
    flaws = Flaws(frozenset())
    model(flaws, *args)
    return flaws.steps


def raising(model: Model, args: Sequence[Any]) -> list[str]:
    """The mistakes with a spelling that cannot run on these arguments (where the correct model can)."""
    found = []
    for mistake in sorted(consulted(model, args)):
        choices: list[int] | None = []
        for _ in range(MAX_SPELLINGS):
            flaws = Flaws(frozenset([mistake]), choices or ())
            try:
                model(flaws, *args)
            except Exception:
                found.append(mistake)
                break
            choices = flaws.next_choices()
            if choices is None:
                break
    return found


def enumerate_answers(model: Model, args: Sequence[Any], size: int,
                      within: set[str] | None = None) -> Iterator[Candidate]:
    """Every configuration of exactly `size` mistakes (among those the model asks about) and its answers."""
    names = sorted(consulted(model, args) if within is None else within)
    for active in combinations(names, size):
        for answer in runs(model, frozenset(active), args):
            yield Candidate(frozenset(active), answer)


@dataclass
class ModelLibrary:
    """The course's model modules, loaded as one package so one model may call another's functions."""

    folder: Path
    _modules: dict[str, ModuleType | None] = field(default_factory=dict)

    def model(self, exercise_module: str, name: str) -> Model | None:
        """The model of `<exercise_module>.<name>`, or None where the course has none."""
        module = self._load(exercise_module)
        return getattr(module, name, None) if module is not None else None

    def _load(self, exercise_module: str) -> ModuleType | None:
        if exercise_module in self._modules:
            return self._modules[exercise_module]
        path = self.folder / f"{exercise_module}.py"
        if not path.is_file():
            self._modules[exercise_module] = None
            return None
        self._package()
        name = f"{MODELS_PACKAGE}.{exercise_module}"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None  # a .py file has both
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as error:
            raise KitError(f"{path}: the mistake model does not load: {type(error).__name__}: {error}") from None
        self._modules[exercise_module] = module
        return module

    def _package(self) -> None:
        """A package for the models folder, so `from .softmax import softmax` works between models."""
        if MODELS_PACKAGE in sys.modules and sys.modules[MODELS_PACKAGE].__path__ == [str(self.folder)]:
            return
        for name in [n for n in sys.modules if n == MODELS_PACKAGE or n.startswith(MODELS_PACKAGE + ".")]:
            del sys.modules[name]
        package = ModuleType(MODELS_PACKAGE)
        package.__path__ = [str(self.folder)]
        sys.modules[MODELS_PACKAGE] = package
