"""What the checks of one exercise need to know about the course, for one student: fixed while they run."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from attnkit.config import Course, Exercise
from attnkit.grading.catalogue import Catalogue, Mistake
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
    forbidden: tuple[str, ...]            # uses of forbidden names the submitted source names
    unchecked: tuple[str, ...] = ()       # where the source analysis could not follow the code
    evident: Mapping[str, str] = field(default_factory=dict)  # mistake id -> where the source shows its code

    @cached_property
    def forbidding(self) -> list[Mistake]:
        """The mistakes of this exercise that forbid names (softmax-builtin): its sandbox refuses them."""
        return [m for m in self.catalogue.for_exercise(self.exercise.id) if m.forbid]

    @property
    def refused(self) -> tuple[str, ...]:
        """The names whose library routines this exercise's sandbox refuses (`attnkit.sandbox.refusals`): the
        course's list, not the engine's."""
        return tuple(sorted({name for m in self.forbidding for name in m.forbid}))

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

    def shown(self, mistake: str) -> bool:
        """Whether the source allows naming `mistake` from a crash: it shows the mistake's code, or the
        catalogue says nothing of what that code looks like."""
        return mistake in self.evident or not self.catalogue[mistake].evidence

    def signature_mistakes(self, signature: str) -> list[str]:
        """The mistakes of this exercise and those it builds on that show the generic sign `signature`."""
        exercises = [self.exercise.id, *self.course.dependencies(self.exercise.id)]
        return [m.id for m in self.catalogue.with_signature(signature, exercises)]
