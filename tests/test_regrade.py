"""A regrade does not move points: the same code gets the same verdict on fresh inputs, an output folder keeps
its hidden inputs' seed, and what code prints during hidden checks stays out of its feedback."""
from __future__ import annotations

import json

import pytest

from attnkit.class_grading import grade_class
from attnkit.errors import KitError
from attnkit.gradebook import SEED, Gradebook, broken_result
from attnkit.grading.plugin import HIDDEN_OUTPUT, Submission, new_run_salt
from attnkit.grading.session import make_oracle, run_checks
from kit import CATALOGUE, COURSE, PLAUSIBLE_MISTAKES, InProcessSandbox, reference_submission, variant_submission

BORDERLINE = {  # precision loss, near-one-hot answers, another base, the row's maximum, right only on some shapes
    "half-scores": PLAUSIBLE_MISTAKES["scores-half"],
    "bfloat16-scores": PLAUSIBLE_MISTAKES["scores-bfloat16"],
    "half-softmax": PLAUSIBLE_MISTAKES["softmax-half"],
    "near-one-hot": PLAUSIBLE_MISTAKES["softmax-near-one-hot"],
    "base-2": PLAUSIBLE_MISTAKES["softmax-base-2"],
    "by-row-max": PLAUSIBLE_MISTAKES["softmax-by-row-max"],
    "only-2d-scores": CATALOGUE["scores-batch-transpose"].variants[0],
}
RUNS = 3


def verdicts(result) -> dict[str, float]:
    """Each check's points. (Which dependency a check says it was spared may still change with the draw where
    the dependency's error is about the tolerance and the answer right as it stands on some draws: the points
    do not, since it is then graded with stand-ins on every draw.)"""
    return {f"{e}.{c.test}": c.points for e, x in result.exercises.items() for c in x.checks}


def test_a_class_of_borderline_submissions_gets_the_same_grades_on_fresh_inputs(tmp_path):
    students = [Submission("reference", reference_submission(tmp_path / "reference"))] + \
        [Submission(name, variant_submission(tmp_path / name, v)) for name, v in BORDERLINE.items()]
    oracle = make_oracle(COURSE)
    runs = [run_checks(COURSE, students, oracle=oracle, open_sandbox=InProcessSandbox, run_salt=new_run_salt())
            for _ in range(RUNS)]
    oracle.close()
    first = {r.student: verdicts(r) for r in runs[0]}
    for run in runs[1:]:
        assert {r.student: verdicts(r) for r in run} == first
    assert all(r.score < r.max_score for r in runs[0] if r.student in BORDERLINE)


class PrintingSandbox(InProcessSandbox):
    """The kit's own code, run here, printing what it is asked as a student's code could."""

    def run(self, request, on_standin=None):
        arrays = [a for a in getattr(request, "args", ()) if hasattr(a, "ravel")]
        printed = f"asked {arrays[0].ravel()[:2].tolist() if arrays else request.module}\n"
        if self.hidden:
            self.hidden_output += printed
        else:
            self.captured_output += printed
        return super().run(request, on_standin)


def test_what_code_prints_in_hidden_checks_is_not_in_its_feedback(tmp_path):
    root = reference_submission(tmp_path / "reference")
    sandboxes: list[PrintingSandbox] = []

    def opened(path):
        sandboxes.append(PrintingSandbox(path))
        return sandboxes[-1]

    outputs = [run_checks(COURSE, [Submission("ann", root)], open_sandbox=opened, run_salt=new_run_salt())[0].output
               for _ in range(2)]
    assert outputs[0] == outputs[1] and outputs[0].startswith("asked ") and outputs[0].endswith(HIDDEN_OUTPUT)
    assert sandboxes[0].hidden_output != sandboxes[1].hidden_output  # what hidden inputs would have shown


def test_an_output_folder_keeps_its_seed_and_new_inputs_draw_another(tmp_path):
    first = Gradebook(tmp_path, COURSE).hidden_inputs_seed()
    assert (tmp_path / SEED).read_text().strip() == first
    assert Gradebook(tmp_path, COURSE).hidden_inputs_seed() == first
    assert Gradebook(tmp_path, COURSE).hidden_inputs_seed(new=True) != first


@pytest.mark.parametrize("text", ["", "not a seed\n", "12ab\n"])
def test_a_seed_file_attnkit_did_not_write_is_refused_naming_it(tmp_path, text):
    (tmp_path / SEED).write_text(text)
    with pytest.raises(KitError, match=f"{SEED}: not a seed attnkit wrote"):
        Gradebook(tmp_path, COURSE).hidden_inputs_seed()


def test_a_regrade_reuses_the_seed_and_new_inputs_grade_everyone_again(tmp_path):
    reference_submission(tmp_path / "class" / "ann")
    out = tmp_path / "out"
    first = grade_class(COURSE, tmp_path / "class", out, jobs=1)
    seed = (out / SEED).read_text()
    again = grade_class(COURSE, tmp_path / "class", out, jobs=1)
    assert (first.graded, again.graded, again.skipped) == (1, 0, 1) and (out / SEED).read_text() == seed
    fresh = grade_class(COURSE, tmp_path / "class", out, jobs=1, new_inputs=True)
    assert fresh.graded == 1 and (out / SEED).read_text() != seed
    seed = (out / SEED).read_text().strip()
    assert json.loads((out / "feedback" / "ann.json").read_text())["fingerprint"].split(":")[1] == seed
    cake = tmp_path / "class" / "ann" / "exercises" / "cake.py"
    cake.write_text(cake.read_text() + "# resubmitted\n")
    resubmitted = grade_class(COURSE, tmp_path / "class", out, jobs=1)
    salt = json.loads((out / "feedback" / "ann.json").read_text())["fingerprint"].split(":")[1]
    assert resubmitted.graded == 1 and salt.startswith(f"{seed}-")


def test_a_resubmission_meets_new_hidden_inputs_and_unchanged_files_keep_theirs(tmp_path):
    gradebook = Gradebook(tmp_path, COURSE)
    seed = gradebook.hidden_inputs_seed()
    assert gradebook.hidden_inputs_salt("ann", "files-a", seed) == seed  # a first submission shares the seed
    gradebook.record(broken_result(COURSE, "ann", "", f"graders:{seed}:files-a"))
    assert gradebook.hidden_inputs_salt("ann", "files-a", seed) == seed
    resubmitted = gradebook.hidden_inputs_salt("ann", "files-b", seed)
    assert resubmitted.startswith(f"{seed}-") and resubmitted != gradebook.hidden_inputs_salt("ann", "files-c", seed)
    gradebook.record(broken_result(COURSE, "ann", "", f"graders:{resubmitted}:files-b"))
    assert gradebook.hidden_inputs_salt("ann", "files-b", seed) == resubmitted
    assert gradebook.hidden_inputs_salt("ann", "files-b", "another seed") == "another seed"
