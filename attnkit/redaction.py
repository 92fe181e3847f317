"""The instructor's absolute paths, taken out of everything a student is shown.

A traceback line, a warning or a student's `print(__file__)` names where things live on the grading
machine: the course repository (and with it where the solutions are), the kit's scratch folders, the
Python installation. None of it helps a student and some of it should stay private, so every
message, hint, problem and output of a result loses those prefixes before it is written: the
student's own files read `exercises/softmax.py`, torch's `torch/nn/functional.py`.
"""
from __future__ import annotations

import re
import site
import sys
import sysconfig
import tempfile
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from attnkit.grading.results import SubmissionResult

SCRATCH_PREFIX = "attnkit-"  # every scratch folder the kit makes under the temporary folder starts so


def python_paths() -> set[str]:
    """Where this Python and its packages live (site-packages first, as the longest)."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, site.getusersitepackages(), *site.getsitepackages()}
    paths |= {sysconfig.get_path(name) for name in ("purelib", "platlib", "stdlib", "platstdlib")}
    return {p for p in paths if p}


class PathScrubber:
    """Strips known folder prefixes (and the kit's scratch folders) from text.

    `roots` are stripped as they are; `parents` hold one submission a child folder, and lose that
    child too (`<parent>/00003/exercises/softmax.py` reads `exercises/softmax.py`).
    """

    def __init__(self, roots: Iterable[Path | str], parents: Iterable[Path | str] = ()):
        from attnkit.sandbox.isolation import SUBMISSION  # where a sandbox sees the package; its import runs ldconfig

        def forms(folders: Iterable[Path | str]) -> list[str]:
            found = {str(form).rstrip("/") for folder in folders for form in (Path(folder), Path(folder).resolve())}
            return sorted((f for f in found if f), key=len, reverse=True)

        known = [re.escape(p) + r"/[^/\s]+" for p in forms(parents)]
        known += [re.escape(p) for p in forms([*roots, *python_paths(), SUBMISSION])]
        known.append(re.escape(str(Path(tempfile.gettempdir()) / SCRATCH_PREFIX)) + r"[^/\s'\"]+")
        self._pattern = re.compile(rf"(?:{'|'.join(known)})(?:/|(?![\w.-]))")

    def text(self, text: str) -> str:
        """`text` with each known folder removed from the paths in it (a bare folder becomes `.`)."""
        return self._pattern.sub(_relative, text)

    def result(self, result: SubmissionResult) -> SubmissionResult:
        """A copy of `result` whose texts name no folder of this machine."""
        exercises = {
            exercise_id: replace(exercise, checks=[replace(c, message=self.text(c.message), hint=self.text(c.hint))
                                                   for c in exercise.checks])
            for exercise_id, exercise in result.exercises.items()
        }
        return replace(result, exercises=exercises, problem=self.text(result.problem),
                       output=self.text(result.output))


def _relative(match: re.Match[str]) -> str:
    """What is left of a path once its known folder is gone: the rest of it, or `.` for the folder itself."""
    rest = match.string[match.end():match.end() + 1]
    return "" if match.group().endswith("/") and rest and not rest.isspace() else "."
