"""Grading a class in worker processes: every student once, results as they come, the same grades."""
from __future__ import annotations

import json
import os

import pytest

from attnkit.grading import parallel
from attnkit.grading.plugin import Submission
from kit import CATALOGUE, COURSE, reference_submission, variant_submission


def submissions(count: int) -> list[Submission]:
    return [Submission(f"s{index:02d}", COURSE.root) for index in range(count)]


@pytest.mark.parametrize("count,batches", [(1, 4), (7, 4), (300, 4)])
def test_batches_hold_every_submission_once(count, batches):
    made = parallel.batches(submissions(count), batches)
    assert len(made) == min(count, batches)
    assert sorted(s.student for batch in made for s in batch) == sorted(s.student for s in submissions(count))


def test_messages_that_arrive_together_are_all_received():
    """A result and the end of its batch often come in one read; missing the second hangs the run."""
    worker = parallel._Worker.__new__(parallel._Worker)
    worker.results, writer = os.pipe()
    worker._pending = b""
    os.write(writer, b'{"result": 1}\n{"done": 1}\n{"resu')
    assert worker.receive() == [{"result": 1}, {"done": 1}]
    os.write(writer, b'lt": 2}\n')
    assert worker.receive() == [{"result": 2}]
    os.close(writer)
    os.close(worker.results)


@pytest.mark.slow
def test_workers_grade_as_one_process_does(tmp_path):
    """Two workers on a small class: each student once, with the grade an in-process run gives."""
    mistake = CATALOGUE.with_variants()[0]
    roots = [reference_submission(tmp_path / "right"), variant_submission(tmp_path / "wrong", mistake.variants[0]),
             reference_submission(tmp_path / "again")]
    class_ = [Submission(root.name, root) for root in roots]
    alone, together = {}, {}
    parallel.grade_all(COURSE, class_, jobs=1, on_result=lambda r: alone.setdefault(r.student, r))
    parallel.grade_all(COURSE, class_, jobs=2, on_result=lambda r: together.setdefault(r.student, r))
    assert sorted(together) == sorted(alone) == sorted(s.student for s in class_)
    for student in alone:
        assert json.dumps(verdicts(together[student])) == json.dumps(verdicts(alone[student]))


def verdicts(result) -> dict:
    return {e: [(c.test, c.passed, c.points, c.mistake) for c in x.checks] for e, x in result.exercises.items()}


def printing_submission(target):
    """The reference, whose softmax prints a digest of every input it is given."""
    root = reference_submission(target)
    module = root / "exercises" / "softmax.py"
    module.write_text(module.read_text().replace('    shifted = ', '    print(round(float(scores.double().sum()), 9))\n'
                                                 '    shifted = ', 1))
    return root


@pytest.mark.slow
def test_a_run_gives_every_student_the_same_hidden_inputs_and_the_next_run_new_ones(tmp_path):
    """Two workers, one student each: their inputs agree within a run (fair, and the reference's answers are
    worked out once a run); a second run's hidden inputs are new (printed inputs are no use to a resubmission)."""
    class_ = [Submission(name, printing_submission(tmp_path / name)) for name in ("ann", "bob")]
    runs: list[dict[str, str]] = [{}, {}]
    for outputs in runs:
        parallel.grade_all(COURSE, class_, jobs=2,
                           on_result=lambda r, into=outputs: into.setdefault(r.student, r.output))
    for outputs in runs:
        assert outputs["ann"] and outputs["ann"] == outputs["bob"]
    assert runs[0]["ann"] != runs[1]["ann"]
