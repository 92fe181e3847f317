"""Grading a class in worker processes: every student once, results as they come, the same grades."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attnkit.grading import parallel
from attnkit.grading.plugin import Submission
from kit import CATALOGUE, COURSE, REPO, reference_submission, variant_submission
from test_interrupts import children_of


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


def raising_submission(target):
    """The reference, whose softmax raises a digest of every input it is given."""
    root = reference_submission(target)
    module = root / "exercises" / "softmax.py"
    digest = "    raise ValueError(round(float(scores.double().sum()), 9))\n"
    module.write_text(module.read_text().replace("    shifted = ", digest + "    shifted = ", 1))
    return root


@pytest.mark.slow
def test_a_run_gives_every_student_the_same_hidden_inputs_and_its_salt_decides_them(tmp_path):
    """Two workers, one student each: their inputs agree within a run (fair, and the reference's answers are
    worked out once a run); a run with the same salt (a regrade) asks the same, one with another salt anew.
    Seen in what a softmax that raises its input's digest says in every check's feedback (printed output
    from the hidden checks on is not in the feedback)."""
    class_ = [Submission(name, raising_submission(tmp_path / name)) for name in ("ann", "bob", "cy")]
    class_[2].salt = "c3" * 8  # a resubmission's own salt (Gradebook.hidden_inputs_salt) reaches its worker
    runs: list[dict[str, str]] = [{}, {}, {}]
    for outputs, salt in zip(runs, ["a1" * 8, "a1" * 8, "b2" * 8]):
        parallel.grade_all(COURSE, class_, jobs=2, run_salt=salt, on_result=lambda r, into=outputs: into.setdefault(
            r.student, " ".join(c.message for c in r.exercises["softmax"].checks)))
    for outputs in runs:
        assert outputs["ann"] and outputs["ann"] == outputs["bob"] != outputs["cy"]
    assert runs[0]["ann"] == runs[1]["ann"] != runs[2]["ann"] and runs[0]["cy"] == runs[2]["cy"]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="warm parents are Linux's")
def test_a_class_graded_by_two_workers_starts_one_warm_parent_and_leaves_nothing(tmp_path):
    """The workers share the grading process's sandbox parent: one torch import fewer at start-up. They end
    without Python's own clean-up (torch's teardown cost 0.3 s), so what they made on disk is removed first."""
    scratch = tmp_path / "tmp"  # this run's own temporary folder: other runs on the machine make oracles too
    scratch.mkdir()
    for name in ("ann", "bob", "cy", "dee"):
        reference_submission(tmp_path / "class" / name)
    process = subprocess.Popen(["attnkit", "grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"),
                                "--jobs", "2"], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, "TMPDIR": str(scratch)})
    parents: set[int] = set()
    while process.poll() is None:
        tree = children_of({process.pid})
        warm = {pid for pid in tree if b"attnkit.sandbox.warm" in cmdline(pid)}
        graders = {process.pid} | {pid for pid in tree if b"attnkit.grading.parallel" in cmdline(pid)}
        # a parent is started by the grader or a worker: not a sandbox forked from one, nor a sandbox's twin
        # (whose own parent, ending a moment before it, may be a zombie with no command line)
        parents |= {pid for pid in warm if parent_of(pid) in graders}
        time.sleep(0.02)
    assert process.returncode == 0, process.stderr.read() if process.stderr else ""
    assert len(parents) == 1
    assert not list(scratch.glob("attnkit-oracle-*"))


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def test_a_grading_workers_memory_has_a_ceiling():
    """An allocation past the ceiling fails in the worker (the student's call), never the machine."""
    code = ("import resource, numpy\n"
            "print(resource.getrlimit(resource.RLIMIT_DATA)[0] >> 20)\n"
            "try:\n    numpy.ones((1 << 28,))\nexcept MemoryError:\n    print('refused')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         preexec_fn=parallel._limited_child())
    assert run.stdout.split() == [str(parallel.WORKER_MEMORY_MB), "refused"]
