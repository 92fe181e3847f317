"""All that a grader (`graders/test_<id>.py`) may import from the kit; everything else is the engine's own.

docs/writing-an-exercise.md documents exactly these names, and tests/test_grader_api.py checks that every
grader of every course imports nothing else of attnkit, so the engine may change behind them freely.

- `call`, `layer`, `constants`: the requests a check builds (a function call, an `nn.Module`, module constants).
- `Attempt`: the `attempt` fixture, for type hints: `expect`, `report`, `fail`, `require`, `run`, `ask`, ...
- `Answer`, `Failure`, `Reply`: what the student's code answered (a reply is an answer or a failure).
- `Finding`: one thing a check found (`attempt.unexplained()` returns one, `attempt.explain` renames it).
"""
from __future__ import annotations

from attnkit.grading.attempt import Attempt, call, constants, layer
from attnkit.grading.diagnosis import Finding
from attnkit.sandbox.protocol import Answer, Failure, Reply

__all__ = ["Answer", "Attempt", "Failure", "Finding", "Reply", "call", "constants", "layer"]
