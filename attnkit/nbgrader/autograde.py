"""`nbgrader autograde` with the kit's grading done first, outside the student's reach.

Why this shape. nbgrader runs a notebook's answer cells and its test cells in
one kernel with the grader's own rights. If the test cells graded there with
the full course (hidden checks, the reference) in reach, an answer cell could
find the course (an environment variable, the folders above its working
folder, its parent's /proc entries), copy the reference into its own
`submitted/` notebook, and earn full marks from nbgrader and from
`attnkit grade submitted/` alike. So no part of a grade is decided in the
kernel, and the kernel can reach nothing a grade is decided from:

1. `KitExecute`, which takes the place of nbgrader's Execute preprocessor in
   the nbgrader process (trusted: it is the instructor's), takes the answer
   cells of the notebook exactly as nbgrader hands it over (test cells already
   restored from the gradebook) before any cell runs, and grades them in the
   kit's sandbox against the full course that `c.KitExecute.course` names.
2. It writes those verdicts to a private file and starts the kernel through
   `attnkit.nbgrader.kernel`: on Linux as root, confined in namespaces of its
   own with the sandbox's read-only root (system and Python folders plus the
   attnkit package), a private /tmp, an unprivileged uid and an environment
   holding no path of the course. It cannot see `submitted/`, the course or
   any other process, and whatever it starts ends with it.
3. The test cells only ask for their verdict by check name (`checks.run_check`).

What a cell can still do is what any nbgrader kernel can: forge what its own
cells print (redefine `run_check`, say), and so the points nbgrader records for
that student. It cannot change what `attnkit grade submitted/` scores: the
kit's grade, to trust when the two disagree.

Elsewhere (not Linux, not root, namespaces refused: a container) kernels would
run unconfined, as this user, with that same clean environment: a cell could
read and write whatever this user can, the course and `submitted/` included.
So there `KitExecute` refuses to grade (one line: why, and what to do) unless
`c.KitExecute.unisolated = True` accepts the risk; then one warning per run says
so, and the verdicts still come from the notebook as handed over.
"""
from __future__ import annotations

import functools
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager
from nbgrader.preprocessors import Execute
from traitlets import Bool, List, Unicode

from attnkit.config import Course, load_course
from attnkit.errors import KitError
from attnkit.nbgrader.checks import grade_package, write_verdicts
from attnkit.nbgrader.extract import notebook_answer_sources, package_files
from attnkit.sandbox.exposure import refuse_if_exposed, unisolated_warning

VERDICTS_FILE = "verdicts.json"
LAUNCHER = "attnkit.nbgrader.kernel"


def autograde_preprocessors() -> list[Any]:
    """nbgrader's autograde preprocessors with `KitExecute` in place of its Execute (for nbgrader_config.py)."""
    from nbgrader.converters import Autograde

    return [KitExecute if step is Execute else step
            for step in Autograde.class_traits()["autograde_preprocessors"].default()]


class ConfinedKernelManager(AsyncKernelManager):
    """Starts the kernel command through the kit's launcher, with the options `KitExecute` gives it."""

    launcher_options = List(Unicode())

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        kernel = super().format_kernel_cmd(extra_arguments)  # names the connection file by its real path
        return [sys.executable, "-m", LAUNCHER, *self.launcher_options,
                "--connection-file", os.path.realpath(self.connection_file), "--", *kernel]


class KitExecute(Execute):
    """nbgrader's Execute, after the kit has graded the notebook's answer cells; the kernel runs confined."""

    course = Unicode("", help="The kit's course.toml: the full course, hidden checks and reference.").tag(config=True)
    unisolated = Bool(False, help="Where kernels cannot be confined (namespaces refused: a container), grade "
                                  "even though a notebook's cells, run as this user, could read the course: "
                                  "accept that risk.").tag(config=True)

    _warned_unconfined = False
    _warned_exposed = False

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("kernel_manager_class", ConfinedKernelManager)
        super().__init__(**kwargs)

    def preprocess(self, nb: Any, resources: Any = None, km: Any = None) -> tuple[Any, Any]:
        """Grade the answer cells of `nb` as nbgrader hands it over, then run it in a confined kernel."""
        course = self._load_course()
        found = refuse_if_exposed(course, [], unisolated=self.unisolated, as_this_user=True,
                                  accept="set c.KitExecute.unisolated = True in nbgrader_config.py")
        if found is not None and not KitExecute._warned_exposed:
            KitExecute._warned_exposed = True
            self.log.warning("attnkit: %s", unisolated_warning(found))
        student = (resources or {}).get("nbgrader", {}).get("student", "notebook")
        result = grade_package(course, student, package_files(notebook_answer_sources(nb), course))
        with tempfile.TemporaryDirectory(prefix="attnkit-verdicts-") as folder:
            verdicts = Path(folder) / VERDICTS_FILE
            write_verdicts(result, verdicts)
            self._options = self._launcher_options(verdicts, course.settings.memory_limit_mb, nb)
            return super().preprocess(nb, resources, km)

    def _load_course(self) -> Course:
        try:
            if not self.course:
                raise KitError("not set")
            return load_course(Path(self.course))
        except KitError as error:
            raise KitError(f"c.KitExecute.course in nbgrader_config.py: {error} (the config finds course.toml "
                           "relative to itself: move the course folder together with the course repository, or "
                           "rebuild it with `attnkit nbgrader build --force`)") from None

    def create_kernel_manager(self) -> Any:
        km = super().create_kernel_manager()
        km.launcher_options = self._options
        return km

    def _launcher_options(self, verdicts: Path, memory_mb: int, nb: Any) -> list[str]:
        """The launcher's options: the verdicts, the kernel's limits, and whether it can be confined."""
        code_cells = sum(cell.get("cell_type") == "code" for cell in nb.get("cells", []))
        cpu_seconds = (self.timeout or 600) * (code_cells + 1)  # a backstop: nbgrader times each cell out first
        options = ["--verdicts", str(verdicts), "--memory-mb", str(memory_mb), "--cpu-seconds", str(cpu_seconds)]
        refusal = confinement_refusal()
        if refusal is None:
            return options
        if not KitExecute._warned_unconfined:
            KitExecute._warned_unconfined = True
            self.log.warning("attnkit: notebook kernels are not confined here (%s): the kit grades each notebook "
                             "before its cells run, but a cell can read and write what this user can, "
                             "submitted/ included", refusal)
        return [*options, "--unconfined"]


@functools.cache
def confinement_refusal() -> str | None:
    """Why kernels cannot be confined on this machine (None: they can); asked once a process."""
    from attnkit.sandbox import isolation

    return isolation.probe()
