"""Helpers the kit's tests share: where things are, and how to build a submission."""
from __future__ import annotations

import secrets
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path

from attnkit.config import Course, load_course
from attnkit.grading.catalogue import Variant, load_catalogue
from attnkit.grading.variants import write_variant_package
from attnkit.sandbox import worker

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = Path(__file__).resolve().parent / "submissions"
COURSE = load_course(REPO / "course.toml")
CATALOGUE = load_catalogue(COURSE.mistakes_dir)

_HALF = "torch.float16"
# Uncatalogued computations a student may write (another base, normalising by the maximum, near-one-hot weights,
# precision lost or kept), as edits to the reference like the catalogue's variants: no hidden check's verdict on
# them may depend on its draw (test_margins.py, test_regrade.py).
PLAUSIBLE_MISTAKES = {
    "softmax-base-2": Variant("softmax", (("torch.exp(shifted)", "torch.exp2(shifted)"),)),
    "softmax-base-10": Variant("softmax", (("torch.exp(shifted)", "torch.pow(10.0, shifted)"),)),
    "softmax-by-row-max": Variant("softmax", (("exps.sum(dim=dim, keepdim=True)",
                                               "exps.amax(dim=dim, keepdim=True)"),)),
    "softmax-near-one-hot": Variant("softmax", (("torch.exp(shifted)", "torch.exp(25 * shifted)"),)),
    "softmax-half": Variant("softmax", (("shifted = scores - scores.amax(dim=dim, keepdim=True)",
                                         f"half = scores.to({_HALF})\n    shifted = (half - half.amax(dim=dim, "
                                         "keepdim=True)).to(scores.dtype)"),)),
    "softmax-float32-inside": Variant("softmax", (("torch.exp(shifted)", "torch.exp(shifted.float())"),)),
    "softmax-minus-mean": Variant("softmax", (("scores.amax(dim=dim, keepdim=True)",
                                               "scores.mean(dim=dim, keepdim=True)"),)),
    "softmax-minus-global-max": Variant("softmax", (("scores.amax(dim=dim, keepdim=True)", "scores.max()"),)),
    "softmax-log-sum-exp": Variant("softmax", (("exps / exps.sum(dim=dim, keepdim=True)", "torch.exp(shifted - "
                                                "torch.logsumexp(shifted, dim=dim, keepdim=True))"),)),
    "softmax-half-temperature": Variant("softmax", (("torch.exp(shifted)", "torch.exp(shifted / 2)"),)),
    "softmax-plus-one": Variant("softmax", (("exps.sum(dim=dim, keepdim=True)",
                                             "(1 + exps.sum(dim=dim, keepdim=True))"),)),
    "scores-half": Variant("scaled_scores", (("Q @ K.transpose(-2, -1)",
                                              f"(Q.to({_HALF}) @ K.to({_HALF}).transpose(-2, -1)).to(Q.dtype)"),)),
    "scores-bfloat16": Variant("scaled_scores", (("Q @ K.transpose(-2, -1)",
                                                  "(Q.bfloat16() @ K.bfloat16().transpose(-2, -1)).to(Q.dtype)"),)),
    "scores-float32-inside": Variant("scaled_scores", (("Q @ K.transpose(-2, -1)",
                                                        "(Q.float() @ K.float().transpose(-2, -1))"),)),
    "attention-half-weights": Variant("attention", (("weights = softmax(scores, dim=-1)",
                                                     f"weights = softmax(scores.to({_HALF}), dim=-1).to(Q.dtype)"),)),
    "attention-base-2": Variant("attention", (("weights = softmax(scores, dim=-1)",
                                               "weights = softmax(scores * 0.6931471805599453, dim=-1)"),)),
}


def reference_submission(target: Path) -> Path:
    """A submission folder whose `exercises` is the reference."""
    shutil.copytree(COURSE.solutions_dir, target / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def stub_submission(target: Path) -> Path:
    """A submission folder holding the untouched stubs."""
    shutil.copytree(COURSE.exercises_dir, target / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def overlay_submission(target: Path, overlay: Path) -> Path:
    """The reference with the overlay folder's modules in place of its own."""
    reference_submission(target)
    for module in overlay.glob("*.py"):
        shutil.copy(module, target / "exercises" / module.name)
    return target


def variant_submission(target: Path, variant: Variant) -> Path:
    """The reference with one catalogued variant's edits applied."""
    write_variant_package(COURSE.solutions_dir, variant, target / "exercises")
    return target


# A call_timeout for a test's class: the looping student's calls cost this each, not course.toml's ten
# seconds, and an honest call (milliseconds) still has a hundred times what it needs on a busy machine.
QUICK_CALLS = {"call_timeout": 4.0}


def course_copy(target: Path, **settings: float) -> Path:
    """A copy of the course (registry, graders, solutions, stubs) in `target`, without the kit's own source
    beside it, with `settings` in its [settings] table (replaced or added).

    A class graded by a test on a copy with a short `call_timeout` pays that, not course.toml's ten
    seconds, for each call a looping submission makes; hostile code meets the copy, never the course."""
    for part in ("solutions", "exercises", "graders"):
        shutil.copytree(COURSE.root / part, target / part, ignore=shutil.ignore_patterns("__pycache__"))
    lines = COURSE.file.read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if line.split("=")[0].strip() not in settings]
    at = next(i for i, line in enumerate(lines) if line.split("#")[0].strip() == "[settings]") + 1
    lines[at:at] = [f"{key} = {value!r}" for key, value in settings.items()]
    (target / "course.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    written = tomllib.loads((target / "course.toml").read_text(encoding="utf-8"))["settings"]
    assert {key: written[key] for key in settings} == settings
    return target


def exercise_of_module(course: Course, module: str) -> str:
    return next(e.id for e in course.exercises if e.module == module)


class InProcessSandbox:
    """Runs requests against a package of the kit's own code (the reference or a catalogued variant) in this
    process, as the oracle runs the reference: a real, fast executor for the kit's own tests of the diagnosis.
    Never for student code, which only ever runs in the real sandbox."""

    def __init__(self, root: Path):
        self.package = f"inprocess_{secrets.token_hex(4)}"
        self._folder = tempfile.mkdtemp(prefix="attnkit-inprocess-")
        self.package_dir = Path(self._folder) / self.package
        shutil.copytree(root / "exercises", self.package_dir)
        sys.path.insert(0, self._folder)
        self.requests: list = []
        self.captured_output = ""  # what the public checks' process printed (this one: the tests' fakes print)
        self.hidden_output = ""
        self.hidden = False  # asked the hidden checks (`begin_hidden`), as a real submission's hidden process is
        self.malformed = ""

    def run(self, request, on_standin=None):
        self.requests.append(request)
        channel = (lambda call: on_standin(request.standins[call.standin], call)) if on_standin else None
        return worker.execute(self.package, self.package_dir, request, channel)

    def begin_exercise(self, refused: tuple[str, ...] = ()) -> None:
        """Nothing is refused in the tests' own process (its torch keeps its softmax): the source decides."""
        self.hidden = False

    def begin_hidden(self) -> None:
        self.hidden = True

    def close(self, wait: bool = True) -> None:
        pass


def nbgrader_exercise_points(course: Course, gradebook_db: Path, assignment: str,
                             students: list[str]) -> dict[str, dict[str, float]]:
    """Per student, per exercise: the points in nbgrader's gradebook, summed over the exercise's check cells."""
    from nbgrader.api import Gradebook

    from attnkit.nbgrader.notebooks import check_cell_id

    cells = {check_cell_id(e, c): e.id for e in course.exercises for c in e.checks}
    scores: dict[str, dict[str, float]] = {}
    with Gradebook(f"sqlite:///{gradebook_db}") as gradebook:
        for student in students:
            scores[student] = dict.fromkeys(course.ids, 0.0)
            for grade in gradebook.find_submission_notebook(assignment, assignment, student).grades:
                scores[student][cells[grade.name]] += grade.score
    return scores
