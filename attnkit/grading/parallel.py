"""Grading a class in several trusted worker processes.

Each worker is a fresh `python -m attnkit.grading.parallel` process that runs
`run_checks` on the submissions it is sent, one at a time, with its own warm
sandbox parent. Submissions go out and results come back as JSON lines, so
nothing a student made is ever unpickled here; the calling process only
reads plain records and hands each to `on_result` as soon as it arrives.
"""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any, Callable

from attnkit.config import Course, load_course
from attnkit.errors import KitError
from attnkit.grading.plugin import Submission
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult

COURSE_FILE = "course.toml"


def grade_all(course: Course, submissions: list[Submission], *, jobs: int,
              on_result: Callable[[SubmissionResult], None]) -> None:
    """Grade `submissions` in `jobs` worker processes, calling `on_result` here as each student finishes."""
    if not submissions:
        return
    jobs = max(1, min(jobs, len(submissions)))
    if jobs == 1:
        from attnkit.grading.session import run_checks

        run_checks(course, submissions, on_result=on_result)
        return
    _Pool(course, jobs).run(submissions, on_result)


class _Pool:
    """Worker processes fed one submission at a time, so a slow student never holds up a queue."""

    def __init__(self, course: Course, jobs: int):
        self.course = course
        self.jobs = jobs

    def run(self, submissions: list[Submission], on_result: Callable[[SubmissionResult], None]) -> None:
        queue = list(reversed(submissions))
        workers = [_start_worker(self.course) for _ in range(self.jobs)]
        selector = selectors.DefaultSelector()
        try:
            for worker in workers:
                _send(worker, queue.pop() if queue else None)
                selector.register(worker.stdout, selectors.EVENT_READ, worker)
            busy = len(workers)
            while busy:
                for key, _ in selector.select():
                    worker = key.data
                    line = worker.stdout.readline()
                    if not line:
                        raise KitError(f"a grading worker stopped unexpectedly (exit status {worker.wait()})")
                    message = json.loads(line)
                    if "error" in message:
                        raise KitError(message["error"])
                    on_result(result_from_dict(message["result"]))
                    if queue:
                        _send(worker, queue.pop())
                    else:
                        _send(worker, None)
                        selector.unregister(worker.stdout)
                        busy -= 1
        finally:
            selector.close()
            for worker in workers:
                _stop(worker)


def _start_worker(course: Course) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "attnkit.grading.parallel", str(course.root / COURSE_FILE)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
    )


def _send(worker: subprocess.Popen, submission: Submission | None) -> None:
    """One submission to grade, or None: no more work."""
    if submission is None:
        worker.stdin.close()
        return
    record = {"student": submission.student, "root": str(submission.root), "fingerprint": submission.fingerprint}
    worker.stdin.write(json.dumps(record) + "\n")
    worker.stdin.flush()


def _stop(worker: subprocess.Popen) -> None:
    if worker.stdin and not worker.stdin.closed:
        try:
            worker.stdin.close()
        except OSError:
            pass
    try:
        worker.wait(timeout=5)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def result_from_dict(record: dict[str, Any]) -> SubmissionResult:
    """The inverse of `dataclasses.asdict` on a SubmissionResult."""
    exercises = {
        exercise_id: ExerciseResult(exercise["id"], exercise["max_score"],
                                    [CheckResult(**check) for check in exercise["checks"]])
        for exercise_id, exercise in record["exercises"].items()
    }
    return SubmissionResult(record["student"], exercises, record["problem"], record["output"], record["fingerprint"])


def serve(course: Course, requests: IO[str], results: IO[str]) -> None:
    """The worker's loop: grade each submission read from `requests`, write its result as one JSON line.

    One oracle serves every submission: its answers to identical requests (the
    public checks') are reused, and it keeps its variant packages importable.
    """
    from attnkit.grading.catalogue import load_catalogue
    from attnkit.grading.session import make_oracle, run_checks

    oracle = make_oracle(course, load_catalogue(course.mistakes_dir))
    for line in requests:
        record = json.loads(line)
        submission = Submission(record["student"], Path(record["root"]), record["fingerprint"])
        try:
            [result] = run_checks(course, [submission], oracle=oracle)
        except KitError as error:
            results.write(json.dumps({"error": str(error)}) + "\n")
            results.flush()
            return
        results.write(json.dumps({"result": asdict(result)}) + "\n")
        results.flush()


def main() -> None:
    """Worker entry point: argv is course.toml; results go to the original stdout, anything else to stderr."""
    results = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    serve(load_course(Path(sys.argv[1])), sys.stdin, results)


if __name__ == "__main__":
    main()
