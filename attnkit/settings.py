"""The engine's settings (`[settings]` and `[grading]` in course.toml): each declared once, with its default and
what it means. course.toml may set any of them; the sandbox's limits default to these too
(`sandbox.runner.Limits`), and docs/contract.md lists them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")  # Gradescope's


def setting(default: Any, description: str, choices: tuple[str, ...] = ()) -> Any:
    """A setting's default and description (and the values it may take, where they are few)."""
    metadata: dict[str, Any] = {"description": description}
    if choices:
        metadata["choices"] = choices
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class Settings:
    """How answers are compared and what one submission may use (`[settings]`); every one optional."""

    rtol: float = setting(1e-3, "relative tolerance when answers are compared")
    atol: float = setting(1e-5, "absolute tolerance when answers are compared")
    call_timeout: float = setting(10.0, "seconds one call into student code may take")
    time_budget: float = setting(60.0, "seconds all of one submission's calls may take together")
    memory_limit_mb: int = setting(2048, "memory of one submission, all its processes together (MiB)")
    output_limit_kb: int = setting(64, "what a submission may print, kept for its feedback (KiB)")


LOCATE_MODES = ("line", "step", "off")


@dataclass(frozen=True)
class Feedback:
    """What the feedback shows (`[feedback]`)."""

    locate: str = setting("line", "where a wrong answer goes wrong: the step and the student's line (\"line\"), "
                                  "the step alone (\"step\"), or nothing (\"off\", which also spares the traced "
                                  "second run)", LOCATE_MODES)


@dataclass(frozen=True)
class Grading:
    """Grading policy (`[grading]`)."""

    carry_forward: bool = setting(True, "error carried forward (docs/contract.md): a check wrong only because "
                                        "of a dependency's mistake keeps its points")
    hidden_visibility: str = setting("after_published", "when Gradescope shows students the hidden checks' names "
                                                        "and diagnoses (its own words for it)", VISIBILITIES)


@dataclass(frozen=True)
class Report:
    """What the class report shows the instructor (`[report]`)."""

    shared_code: bool = setting(True, "list submissions whose code of one exercise is the same once comments, "
                                      "formatting and local names are set aside (never a penalty, never in "
                                      "a student's feedback)")
