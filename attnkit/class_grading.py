"""Grading a class folder into an output folder: what `attnkit grade` does, below the command line.

The policy lives here: what is refused before anything runs (a handout's course, which has no hidden
checks; an output folder inside the submissions), which submissions are graded again (those whose
files or graders changed since the last run on the same output folder, or all with `force`), how a
broken submission is recorded (a row of zeros and its reason), what a student is shown (no path of
this machine), and the class report at the end. What happens is told to a `Listener` as it happens,
so the command line can draw a progress bar and a test can simply record it.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from attnkit.class_report import ClassCounts, ClassReport, write_report
from attnkit.config import PACKAGE, Course
from attnkit.errors import KitError
from attnkit.gradebook import GRADES, Gradebook, broken_result
from attnkit.grading.results import SubmissionResult
from attnkit.redaction import PathScrubber
from attnkit.sandbox import exposure, isolation
from attnkit.shared_code import CodeDigests
from attnkit.submissions import MAX_TOTAL_BYTES, Prepared, find_submissions, fingerprint

SHARED_MEMORY = "/dev/shm"
SCRATCH_PREFIX = "attnkit-grade-"

if TYPE_CHECKING:
    from attnkit.grading.plugin import Submission


@dataclass
class ClassRun:
    """What a run did, so far or in all: this run's work (`todo`, `graded`, `skipped`, `broken`), and what
    the gradebook holds after it (`counts`: the numbers the terminal, grades.csv and the report all give)."""

    out: Path
    todo: int = 0
    graded: int = 0
    skipped: int = 0
    broken: int = 0
    counts: ClassCounts = field(default_factory=ClassCounts)
    report: ClassReport | None = None

    @property
    def grades(self) -> Path:
        return self.out / GRADES


class GradingInterrupted(KeyboardInterrupt):
    """Ctrl-C: `run` says how far grading got; everything recorded so far is on disk."""

    def __init__(self, run: ClassRun):
        super().__init__()
        self.run = run


class Listener:
    """Told what a run does as it does it; every method does nothing unless overridden."""

    def warn(self, message: str) -> None:
        """Something the instructor should know (the message may hold student-controlled text)."""

    def starting(self, count: int) -> None:
        """`count` submissions are about to be graded."""

    def graded(self, result: SubmissionResult) -> None:
        """One student's result has been recorded."""


def grade_class(course: Course, submissions: Path, out: Path, *, jobs: int, force: bool = False,
                new_inputs: bool = False, listener: Listener | None = None, unisolated: bool = False) -> ClassRun:
    """Grade every submission under `submissions` into `out` (grades.csv, feedback/, the class report).

    The hidden checks ask what `out`'s seed draws (Gradebook.hidden_inputs_seed), so a regrade gives
    unchanged code the same verdict; `new_inputs` draws a new seed, and then grades everyone again.
    Where namespaces are refused, refused (KitError) if student code could reach the course or `out`,
    unless `unisolated` (`exposure.refuse_if_exposed`). Ctrl-C raises GradingInterrupted with how far it
    got; the gradebook holds every student done.
    """
    listener = listener or Listener()
    run = ClassRun(Path(out))
    try:
        _refuse_bad_folders(course, Path(submissions), Path(out))
        make_output_folder(Path(out))
        found = exposure.refuse_if_exposed(course, [Path(out)], unisolated=unisolated,
                                           accept=f"pass {exposure.UNISOLATED_FLAG}")
        if found is not None:
            listener.warn(exposure.unisolated_warning(found))
        from attnkit.sandbox import parent  # the sandboxes' parent imports torch while the class is copied out

        parent.prewarm(sharers=jobs if jobs > 1 else 0, huge_pages=True)
        with _scratch(Path(submissions)) as scratch:
            from attnkit.nbgrader.extract import NotebookReader  # nbgrader's layout, read only when it is there

            prepared = find_submissions(submissions, Path(scratch), readers=[NotebookReader(course)])
            gradebook = Gradebook(out, course)
            gradebook.refuse_foreign_grades(force=force)
            gradebook.refuse_another_class([item.student for item in prepared], Path(submissions), force=force)
            seed = gradebook.hidden_inputs_seed(new=new_inputs)
            # a submission's name is kept: it is the student's own, and says which upload is meant
            scrubber = PathScrubber([course.root, Path(submissions).absolute().parent], parents=[scratch])
            try:
                todo = _triage(course, prepared, gradebook, scrubber, force, seed, run, listener)
                run.todo = len(todo)
                listener.starting(len(todo))
                _grade(course, todo, jobs, seed, gradebook, scrubber, run, listener)
            finally:  # done, interrupted or stopped by a grader's error: grades.csv holds every student recorded
                gradebook.save()
                run.counts = ClassCounts.of(gradebook)
        run.report = write_report(run.out, course, gradebook)
    except KeyboardInterrupt:
        if not run.counts.students and (Path(out) / GRADES).is_file():  # stopped before this run's gradebook
            run.counts = ClassCounts.of(Gradebook(Path(out), course))
        raise GradingInterrupted(run) from None
    return run


def make_output_folder(out: Path) -> None:
    """The output folder, made readable by this user and their group only (0750): feedback is private."""
    try:
        out.mkdir(mode=0o750, parents=True, exist_ok=True)
    except OSError as error:
        raise KitError(f"{out}: cannot create the output folder: {error.strerror}") from None


def _scratch(submissions: Path) -> tempfile.TemporaryDirectory[str]:
    """A folder of this run's own for the copied-out class, named by pid, after removing those of runs
    that were killed before they could."""
    folder = scratch_folder(submissions)
    remove_stale_scratch(Path(folder or tempfile.gettempdir()))
    return tempfile.TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-", dir=folder)


def remove_stale_scratch(folder: Path) -> None:
    """The copied-out classes of this user's `attnkit grade` runs that were killed (kill -9) before they
    could remove them: in /dev/shm they hold memory until removed."""
    for path in isolation.left_by_dead_processes(folder, SCRATCH_PREFIX):
        shutil.rmtree(path, ignore_errors=True)


def scratch_folder(submissions: Path) -> str | None:
    """Where the class is copied out: memory (/dev/shm) when it has room for every submission at the size
    a zip may unpack to, else the usual temporary folder (None); TMPDIR, when set, is the user's choice.

    Creating the copies' files costs a journaling file system more than reading them: copying a class of
    1,000 took 0.4 to 1.7 s on this machine's ext4 (and removing it 0.2 s), 0.3 s in memory (0.04 s), all
    of it before the first student is graded.
    """
    if os.environ.get("TMPDIR") or not sys.platform.startswith("linux"):
        return None
    try:
        memory = os.statvfs(SHARED_MEMORY)
        entries = sum(1 for _ in os.scandir(submissions)) if submissions.is_dir() else 1
    except OSError:
        return None
    roomy = memory.f_bavail * memory.f_frsize >= entries * MAX_TOTAL_BYTES
    return SHARED_MEMORY if roomy and os.access(SHARED_MEMORY, os.W_OK | os.X_OK) else None


def _refuse_bad_folders(course: Course, submissions: Path, out: Path) -> None:
    if not course.solutions_dir.is_dir():
        raise KitError(f"{course.file}: this is a handout's course (no {course.solutions_dir.name}/ "
                       "folder, so no hidden checks); grade in the course repository")
    if submissions.is_dir():
        inside, folder = out.resolve(), submissions.resolve()
        if inside == folder or folder in inside.parents:
            raise KitError(f"--out {out}: inside the submissions folder {submissions}, where it would be "
                           "taken for a submission; choose a folder outside it")


def _triage(course: Course, prepared: list[Prepared], gradebook: Gradebook, scrubber: PathScrubber, force: bool,
            seed: str, run: ClassRun, listener: Listener) -> list[Submission]:
    """Warn about duplicates, record the broken, skip the unchanged (the same files, graders and hidden
    inputs): what is left is to grade."""
    from attnkit.grading.plugin import Submission  # numpy and pytest: not before the command needs them

    version = graders_version(course)
    todo = []
    duplicates = {}
    for item in prepared:
        if item.set_aside:
            duplicates[item.student] = [item.source.name, *(p.name for p in item.set_aside)]
            listener.warn(f"{item.student}: two submissions with one id; graded {item.source.name}, the most "
                          f"recently modified, not {', '.join(p.name for p in item.set_aside)}")
        files = item.fingerprint or item.problem
        salt = gradebook.hidden_inputs_salt(item.student, files, seed)
        item.fingerprint = f"{version}:{salt}:{files}"
        if not force and gradebook.is_current(item.student, item.fingerprint):
            run.skipped += 1
        elif item.problem or item.root is None:
            run.broken += 1
            result = scrubber.result(broken_result(course, item.student, item.problem, item.fingerprint))
            gradebook.record(result)
            listener.warn(f"{item.student}: not graded: {result.problem}")
        else:
            todo.append(Submission(item.student, item.root, item.fingerprint, salt))
    gradebook.record_duplicates(duplicates)
    return todo


def _grade(course: Course, todo: list[Submission], jobs: int, seed: str, gradebook: Gradebook,
           scrubber: PathScrubber, run: ClassRun, listener: Listener) -> None:
    from attnkit.grading.parallel import grade_all

    roots = {s.student: s.root / PACKAGE for s in todo}
    digests = CodeDigests(course) if course.report.shared_code else None

    def record(result: SubmissionResult) -> None:
        result = scrubber.result(result)
        if digests is not None and result.student in roots:  # read from its files here: never run
            result.code = digests.of(roots[result.student])
        gradebook.record(result)
        run.graded += 1
        listener.graded(result)

    grade_all(course, todo, jobs=jobs, on_result=record, run_salt=seed)


def graders_version(course: Course) -> str:
    """A digest of everything that decides a grade, so changed graders regrade everyone."""
    folders = [course.graders_dir, course.solutions_dir, course.mistakes_dir]
    paths = {p for folder in folders if folder.is_dir() for p in folder.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    paths.add(course.file)
    return fingerprint({str(p.relative_to(course.root)): p.read_bytes() for p in paths})[:16]
