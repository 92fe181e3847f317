"""The hidden checks' process: nothing a submission's code keeps from a hidden input reaches a public check.

Public checks are shown to a student at once (Gradescope's visible tests), hidden ones only later, and a
hidden check's inputs stay the same on a regrade. So each submission answers its hidden checks in a
process of its own (`runner.SandboxedSubmission.begin_hidden`): on Linux the public process's twin, forked
before any student code ran and confined as a sandbox of its own; elsewhere a fresh process.
"""
from __future__ import annotations

import re
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from attnkit.grading.attempt import call
from attnkit.grading.plugin import HIDDEN_OUTPUT, Submission
from attnkit.grading.session import run_checks
from attnkit.sandbox import isolation, runner
from attnkit.sandbox.runner import Limits, SandboxedSubmission
from attnkit.sandbox.warm import WarmParent
from kit import COURSE, reference_submission

REFUSAL = isolation.probe()
isolated = pytest.mark.skipif(REFUSAL is not None, reason=f"sandbox not isolated here: {REFUSAL}")
LIMITS = Limits(call_timeout=4.0, memory_mb=1200, output_kb=4)

KEEPER = '''
import os, signal
import torch

seen = []

def keep(x):
    """Remember the input, in memory and in the scratch folder, and say so."""
    seen.append(float(x.sum()))
    with open("kept.txt", "a") as note:
        note.write(f"{float(x.sum())}\\n")
    print("kept", float(x.sum()))
    return x

def recall(x):
    """What this process remembers of the inputs it was given."""
    noted = []
    if os.path.exists("kept.txt"):
        with open("kept.txt") as note:
            noted = [float(v) for v in note.read().split()]
    return torch.tensor([float(len(seen)), float(sum(seen)), float(len(noted)), float(sum(noted))])

def whoami(x):
    return torch.tensor([float(os.getpid()), float(os.getuid())])

def signal_the_other(x):
    """Signal every other process this one can name (as a message: a count of signals)."""
    reached = 0
    for pid in range(1, 64):
        if pid != os.getpid():
            try:
                os.kill(pid, signal.SIGUSR1)
                reached += 1
            except OSError:
                pass
    return torch.tensor([float(reached)])

def leave(x):
    os._exit(3)
'''


@pytest.fixture
def keeper(tmp_path) -> Path:
    package = tmp_path / "submission" / "exercises"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "keeper.py").write_text(textwrap.dedent(KEEPER))
    return package.parent


@pytest.fixture(scope="module")
def unisolated_parent():
    parent = WarmParent(isolate=False)
    yield parent
    parent.close()


@pytest.fixture(params=["default", "fresh-process"])
def launcher(request):
    """The hidden process as on this machine (a twin where the warm parent forks), or as on macOS."""
    return runner._FreshProcess if request.param == "fresh-process" else None


def numbers(reply) -> list[float]:
    return reply.returned.array.tolist()


PUBLIC, HIDDEN = np.full(3, 1.0), np.full(3, 5.0)  # sums 3 and 15


def test_what_a_hidden_check_keeps_in_memory_or_in_a_file_never_reaches_a_later_public_check(keeper, launcher):
    with SandboxedSubmission(keeper, LIMITS, launcher) as sandbox:
        sandbox.run(call("keeper", "keep", PUBLIC))
        sandbox.begin_hidden()
        sandbox.run(call("keeper", "keep", HIDDEN))
        assert numbers(sandbox.run(call("keeper", "recall", PUBLIC))) == [1, 15, 1, 15]  # the hidden side: its own
        sandbox.begin_exercise()
        assert numbers(sandbox.run(call("keeper", "recall", PUBLIC))) == [1, 3, 1, 3]  # the public side: its own only


def test_what_the_hidden_process_prints_is_kept_apart_from_what_feedback_may_show(keeper, launcher):
    with SandboxedSubmission(keeper, LIMITS, launcher) as sandbox:
        sandbox.run(call("keeper", "keep", PUBLIC))
        sandbox.begin_hidden()
        sandbox.run(call("keeper", "keep", HIDDEN))
        assert sandbox.captured_output.split() == ["kept", "3.0"] and sandbox.hidden_output.split() == ["kept", "15.0"]


@isolated
def test_the_hidden_process_is_a_sandbox_of_its_own_that_cannot_signal_the_public_one(keeper):
    with SandboxedSubmission(keeper, LIMITS) as sandbox:
        public = numbers(sandbox.run(call("keeper", "whoami", PUBLIC)))
        sandbox.begin_hidden()
        hidden = numbers(sandbox.run(call("keeper", "whoami", PUBLIC)))
        assert numbers(sandbox.run(call("keeper", "signal_the_other", PUBLIC))) == [0]
        sandbox.begin_exercise()
        assert numbers(sandbox.run(call("keeper", "signal_the_other", PUBLIC))) == [0]
    assert public[0] != hidden[0] and public[1] != hidden[1] and min(public[1], hidden[1]) >= isolation.UID_BASE


def test_a_hidden_check_that_ends_its_process_costs_no_later_public_answer(keeper, launcher):
    with SandboxedSubmission(keeper, LIMITS, launcher) as sandbox:
        sandbox.begin_hidden()
        assert sandbox.run(call("keeper", "leave", HIDDEN)).status == "exited"
        sandbox.begin_exercise()
        assert numbers(sandbox.run(call("keeper", "recall", PUBLIC))) == [0, 0, 0, 0]  # a fresh public process
        sandbox.begin_hidden()
        sandbox.run(call("keeper", "keep", HIDDEN))
        assert numbers(sandbox.run(call("keeper", "recall", PUBLIC))) == [1, 15, 1, 15]  # and a fresh hidden one


def test_after_the_public_process_ends_a_hidden_question_meets_a_fresh_twin(keeper, launcher):
    """The pair ends with its public process (a timeout, an exit, memory): the twin forked with it ends too,
    and a hidden question after it goes to a new pair's twin, never to the old one's closed pipes."""
    with SandboxedSubmission(keeper, LIMITS, launcher) as sandbox:
        sandbox.run(call("keeper", "keep", PUBLIC))
        assert sandbox.run(call("keeper", "leave", PUBLIC)).status == "exited"
        sandbox.begin_hidden()
        assert numbers(sandbox.run(call("keeper", "recall", HIDDEN))) == [0, 0, 0, 0]
        sandbox.begin_exercise()
        assert numbers(sandbox.run(call("keeper", "recall", PUBLIC))) == [0, 0, 0, 0]


@isolated
def test_a_pair_ended_from_outside_between_questions_is_an_exit_never_a_malformed_reply(keeper):
    """Memory is the submission's as a whole: when the twin's hoard ends the pair, the public process, idle
    between questions, is gone too. Its next question fails as the process's end, and the next one after
    it meets a fresh pair; nothing it did was malformed."""
    import signal

    with SandboxedSubmission(keeper, LIMITS) as sandbox:
        sandbox.run(call("keeper", "keep", PUBLIC))
        process = sandbox._public._process  # as the warm parent ends a pair whose memory ran out
        signal.pidfd_send_signal(process._pidfd, signal.SIGKILL)
        time.sleep(0.3)
        assert sandbox.run(call("keeper", "recall", PUBLIC)).status == "exited"
        assert numbers(sandbox.run(call("keeper", "recall", PUBLIC))) == [0, 0, 0, 0] and not sandbox.malformed


COUNTING_SOFTMAX = '''

CALLS = []  # the sums of every input this module's softmax was asked about


def _counted(function):
    def counted(scores, *args, **kwargs):
        CALLS.append(round(float(scores.double().sum()), 3))
        return function(scores, *args, **kwargs)
    return counted


softmax = _counted(softmax)
'''
TELLING_SCORES = '''

def scaled_scores(Q, K):
    from . import softmax
    raise ValueError(f"softmax was asked {len(softmax.CALLS)} questions: {softmax.CALLS}")
'''


def test_a_twin_without_namespaces_keeps_its_memory_apart_and_leaves_no_copy_behind(keeper, unisolated_parent):
    """Where namespaces are refused (a container) the pair shares the file system (not enforced there, as
    every sandbox's files are not: docs/sandbox.md) but not memory; each runs on a copy of the package of
    its own uid's, and both copies go when the pair does."""
    with SandboxedSubmission(keeper, LIMITS, runner.WarmLauncher(unisolated_parent)) as sandbox:
        pid = numbers(sandbox.run(call("keeper", "whoami", PUBLIC)))[0]
        sandbox.run(call("keeper", "keep", PUBLIC))
        sandbox.begin_hidden()
        sandbox.run(call("keeper", "keep", HIDDEN))
        sandbox.begin_exercise()
        assert numbers(sandbox.run(call("keeper", "recall", PUBLIC)))[:2] == [1, 3]
    time.sleep(0.5)  # the warm parent clears up once the pair has ended
    assert not [p for p in (isolation.fallback_copy_dir(int(pid)), isolation.fallback_copy_dir(int(pid), twin=True))
                if p.exists()]


def test_a_public_check_after_hidden_ones_cannot_show_their_inputs(tmp_path):
    """The softmax exercise's code keeps every input it is given; the next exercise's public check raises
    with all of them, and Gradescope would show that message at once: it must hold the public inputs only."""
    root = reference_submission(tmp_path / "ann")
    with open(root / "exercises" / "softmax.py", "a") as module:
        module.write(COUNTING_SOFTMAX)
    with open(root / "exercises" / "scaled_scores.py", "a") as module:
        module.write(TELLING_SCORES)
    every = run_checks(COURSE, [Submission("ann", root)], exercise_ids=["softmax", "scaled_scores"])[0]
    public = run_checks(COURSE, [Submission("ann", root)], exercise_ids=["softmax", "scaled_scores"],
                        public_only=True)[0]
    told = {c.name: c.message for c in every.exercises["scaled_scores"].checks if c.public}
    alone = {c.name: c.message for c in public.exercises["scaled_scores"].checks}
    assert told and told == alone and all(re.search(r"asked \d+ questions", m) for m in told.values())
    assert every.exercises["softmax"].score == every.exercises["softmax"].max_score  # honest numbers, counted
    assert every.output == public.output or every.output.endswith(HIDDEN_OUTPUT)
