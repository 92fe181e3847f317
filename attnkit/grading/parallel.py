"""Grading a class in several trusted worker processes.

Each worker is a fresh `python -m attnkit.grading.parallel` process with one
torch thread; the workers share the grading process's warm sandbox parent
(started before the class is even copied out, it imports torch while the rest
start up), each through a socket of its own. It is sent the class in a few
batches (a pytest session costs about half a second to start and end, so a
session a student would double the time; a few batches a worker still keep
one slow batch from holding up the end). Everything imported before grading
is frozen out of the garbage collector's reach: torch's object graph is large,
and scanning it made every collection (pytest forces several a session) cost
more than grading a student. Batches go out and results come back
as JSON lines, one per student as soon as that student is done, so nothing a
student made is ever unpickled here: the calling process only reads plain
records and hands each to `on_result`.
"""
from __future__ import annotations

import gc
import json
import os
import resource
import selectors
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from attnkit.config import Course, load_course
from attnkit.errors import KitError
from attnkit.grading.oracle import Oracle
from attnkit.grading.plugin import Submission, new_run_salt
from attnkit.grading.results import SubmissionResult
from attnkit.interrupts import interrupt_held
from attnkit.sandbox import parent

BATCHES_PER_WORKER = 2
WARM_FD = "--warm-fd"
WORKER_MEMORY_MB = 1024  # a worker's heap (about 250 MB grading honest students): see _limited_child


def grade_all(course: Course, submissions: list[Submission], *, jobs: int,
              on_result: Callable[[SubmissionResult], None], run_salt: str | None = None) -> None:
    """Grade `submissions` in `jobs` worker processes, calling `on_result` here as each student finishes.

    `run_salt` seeds the hidden inputs (an assignment's seed); a fresh one if None."""
    if not submissions:
        return
    jobs = max(1, min(jobs, len(submissions)))
    if jobs == 1:
        from attnkit.grading.session import run_checks

        gc.freeze()
        run_checks(course, submissions, on_result=lambda result: on_result(delivered(result.to_json(answers=True))),
                   run_salt=run_salt)
        return
    _Pool(course, jobs, run_salt or new_run_salt()).run(submissions, on_result)


class _Pool:
    """Worker processes, each fed a batch of submissions whenever it has finished the last.

    Every batch carries the run's salt, so the whole class meets the same hidden inputs."""

    def __init__(self, course: Course, jobs: int, run_salt: str):
        self.course = course
        self.jobs = jobs
        self.run_salt = run_salt

    def run(self, submissions: list[Submission], on_result: Callable[[SubmissionResult], None]) -> None:
        queue = batches(submissions, self.jobs * BATCHES_PER_WORKER)
        shared = parent.take_shared_sockets()  # none: each worker starts its own parent
        try:
            workers = [_Worker(self.course, shared.pop() if shared else None) for _ in range(self.jobs)]
        finally:
            for unused in shared:  # the parent serves until every socket to it is closed
                unused.close()
        selector = selectors.DefaultSelector()
        try:
            for worker in workers:
                worker.send(queue.pop() if queue else None, self.run_salt)
                selector.register(worker.results, selectors.EVENT_READ, worker)
            busy = len(workers)
            while busy:
                for key, _ in selector.select():
                    for message in key.data.receive():
                        if "result" in message:
                            on_result(delivered(message["result"]))
                            continue
                        if "warning" in message:  # every worker meets the same machine: said once here
                            parent.say_once(str(message["warning"]))
                            continue
                        batch = queue.pop() if queue else None
                        key.data.send(batch, self.run_salt)
                        if batch is None:
                            selector.unregister(key.data.results)
                            busy -= 1
        except KeyboardInterrupt:  # the workers are in a process group of their own: end them now, quietly
            for worker in workers:
                worker.kill()
            raise
        finally:
            selector.close()
            for worker in workers:
                worker.stop()


def delivered(record: dict[str, Any]) -> SubmissionResult:
    """A result as every grading run hands it on: read back from its JSON record, validated where it enters,
    whether a worker process sent it or this process graded it itself (`--jobs 1`), so both paths are one."""
    return SubmissionResult.from_json(record, "a grading worker's result")


def batches(submissions: list[Submission], count: int) -> list[list[Submission]]:
    """`count` batches (fewer for a small class), each a mix of the class; popped from the end."""
    count = max(1, min(count, len(submissions)))
    return [submissions[start::count] for start in reversed(range(count))]


class _Worker:
    """One worker process: batches go to its stdin, JSON lines come back on its stdout.

    Its output is read with os.read and split here, never through a buffered
    readline: a buffer holding a second line that select() cannot see would
    leave the run waiting for ever.
    """

    def __init__(self, course: Course, warm: socket.socket | None):
        """`warm`: a socket to the warm parent the worker is to share (closed here once handed down)."""
        shared = [WARM_FD, str(warm.fileno())] if warm is not None else []
        try:
            with interrupt_held():  # Ctrl-C in Popen's fork hooks would print a traceback
                self.process = subprocess.Popen(
                    [sys.executable, "-P", "-m", "attnkit.grading.parallel", str(course.file), *shared],  # -P:
                    # the installed kit, never an `attnkit/` folder that happens to sit in the current folder
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, preexec_fn=_limited_child(),
                    pass_fds=(warm.fileno(),) if warm is not None else (),
                    process_group=0,  # Ctrl-C reaches the grader alone, which ends the workers without tracebacks
                )
        finally:
            if warm is not None:
                warm.close()
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None  # both are pipes
        self.stdin = stdin
        self.results = stdout.fileno()
        self._pending = b""

    def send(self, batch: list[Submission] | None, run_salt: str) -> None:
        """A batch to grade, or None: no more work."""
        if batch is None:
            self.stdin.close()
            return
        records = [{"student": s.student, "root": str(s.root), "fingerprint": s.fingerprint, "salt": s.salt}
                   for s in batch]
        self.stdin.write(json.dumps({"run_salt": run_salt, "submissions": records}).encode() + b"\n")
        self.stdin.flush()

    def receive(self) -> list[dict[str, Any]]:
        """The complete messages that have arrived: a student's result or the end of a batch."""
        chunk = os.read(self.results, 1 << 16)
        if not chunk:
            raise KitError(f"a grading worker stopped unexpectedly (exit status {self.process.wait()})")
        *lines, self._pending = (self._pending + chunk).split(b"\n")
        messages = [json.loads(line) for line in lines]
        for message in messages:
            if "error" in message:
                raise KitError(message["error"])
        return messages

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if not self.stdin.closed:
            try:
                self.stdin.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _limited_child() -> Callable[[], None]:
    """A worker's memory has a ceiling (`WORKER_MEMORY_MB` of heap, RLIMIT_DATA): whatever a student's
    answers lead it to work out (a stand-in's answer is also sized first), an allocation past it fails
    in that student's call, never the machine. On Linux a worker is also killed when the grading process
    dies (a kill -9 leaves no worker grading on)."""
    def limit() -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        ceiling = WORKER_MEMORY_MB << 20 if hard == resource.RLIM_INFINITY else min(WORKER_MEMORY_MB << 20, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (ceiling, hard))
        if sys.platform.startswith("linux"):
            from attnkit.sandbox import isolation

            isolation.die_with_parent()

    return limit


def serve(course: Course, requests: IO[str], results: IO[str], warm_fd: int | None = None) -> None:
    """The worker's loop: grade each batch read from `requests`; a JSON line a student, then one a batch.

    One oracle serves every batch: its answers to identical requests (the
    public checks') are reused, and it keeps its variant packages importable.
    Sandboxes come from the warm parent behind `warm_fd`; without one, the
    worker starts its own first, so its torch import overlaps ours.
    """
    if warm_fd is not None:
        parent.join_warm_parent(warm_fd)
    else:
        parent.prewarm()
    import torch

    from attnkit.grading.session import make_oracle

    torch.set_num_threads(1)  # the workers share the cores
    oracle = make_oracle(course)
    gc.freeze()  # torch's and pytest's objects live as long as we do: collections need not scan them

    def send(message: dict[str, Any]) -> None:
        results.write(json.dumps(message) + "\n")
        results.flush()

    parent.warning_sink = lambda text: send({"warning": text})

    try:
        _serve_batches(course, oracle, requests, send)
    finally:
        oracle.close()


def _serve_batches(course: Course, oracle: Oracle, requests: IO[str], send: Callable[[dict[str, Any]], None]) -> None:
    from attnkit.grading.session import run_checks

    for line in requests:
        message = json.loads(line)
        batch = [Submission(r["student"], Path(r["root"]), r["fingerprint"], r["salt"]) for r in message["submissions"]]
        try:
            run_checks(course, batch, oracle=oracle, run_salt=message["run_salt"],
                       on_result=lambda result: send({"result": result.to_json(answers=True)}))
        except KitError as error:
            send({"error": str(error)})
            return
        send({"done": len(batch)})


def main() -> None:
    """Worker entry point: argv is course.toml, then maybe `--warm-fd N`; results go to the original
    stdout, anything else to stderr."""
    results = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    warm_fd = int(sys.argv[3]) if sys.argv[2:3] == [WARM_FD] else None
    serve(load_course(Path(sys.argv[1])), sys.stdin, results, warm_fd)
    results.close()
    parent.stop_warm_parent()  # what atexit would do (the oracle removed its folder in serve)
    sys.stderr.flush()
    os._exit(0)  # all is sent and cleaned up: tearing torch down took the grading process 0.3 s of waiting


if __name__ == "__main__":
    main()
