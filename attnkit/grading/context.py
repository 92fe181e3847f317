"""What the checks of one exercise need to know about the course, for one student: fixed while they run."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from attnkit.config import Course, Exercise
from attnkit.grading.catalogue import Catalogue
from attnkit.grading.source_rules import ForbiddenNames
from attnkit.sandbox.protocol import Standin


@dataclass(frozen=True)
class ExerciseContext:
    """One exercise of one student's submission: its course facts and what its source was found to use."""

    exercise: Exercise
    course: Course
    catalogue: Catalogue
    standins: tuple[Standin, ...]         # the functions of every exercise this one builds on
    module_exercises: dict[str, str]      # module -> exercise id, for the stand-ins' owners
    carry_forward: bool
    forbidden: tuple[str, ...]            # uses of forbidden names found in the submitted source

    @cached_property
    def recorded(self) -> tuple[str, ...]:
        """The names this exercise's mistakes forbid (softmax-builtin), folded as they are matched: the sandbox
        notes the torch functions it sees called that hold one, so the list is the course's, not the engine's."""
        names = ForbiddenNames([n for m in self.catalogue.for_exercise(self.exercise.id) for n in m.forbid])
        return tuple(sorted(names.keys))

    @property
    def forbids_names(self) -> bool:
        return bool(self.recorded)

    @property
    def rtol(self) -> float:
        return self.course.settings.rtol

    @property
    def atol(self) -> float:
        return self.course.settings.atol

    @property
    def function(self) -> str:
        """The exercise's module, as feedback names the student's code."""
        return self.exercise.module

    def signature_mistakes(self, signature: str) -> list[str]:
        """The mistakes of this exercise and those it builds on that show the generic sign `signature`."""
        exercises = [self.exercise.id, *self.course.dependencies(self.exercise.id)]
        return [m.id for m in self.catalogue.with_signature(signature, exercises)]
