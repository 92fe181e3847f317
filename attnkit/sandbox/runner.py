"""The grader's side of a sandboxed submission: send requests, enforce limits.

One `SandboxedSubmission` serves one student with two processes of its own (`connection.Connection`): the
public checks' and, from an exercise's first hidden check on, the hidden checks' (`begin_hidden`), so
nothing the student's code keeps from a hidden input can reach a later public check, whose output a
student may see at once (Gradescope shows visible tests while hidden ones wait). The hidden process is
the public one's twin where the warm parent forks sandboxes (`warm`: forked by the sandbox before any
student code ran, confined as a sandbox of its own; a few milliseconds, where a sandbox of its own from the
warm parent costs four times that); elsewhere a process of its own. A process is started
lazily and started again after it dies, so one exercise's infinite loop or `os._exit` costs that exercise,
not the whole submission; its calls together have a time budget (`TimeBudget`). On Linux a process is
forked from a warm parent that has already imported torch (`warm`), locked down (`isolation`) and limited
as a whole (`cgroups`); elsewhere it is a fresh `python -m attnkit.sandbox.worker` with rlimits only, and
one warning says what is not enforced.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnkit.sandbox import isolation, protocol, refusals
from attnkit.sandbox.connection import Connection, Launcher, OutputFlood, SandboxProcess, StandinHandler, Twin
from attnkit.sandbox.limits import Limits, TimeBudget
from attnkit.sandbox.parent import prewarm, stop_warm_parent, warm_parent, warn_unenforced
from attnkit.sandbox.protocol import Failure

TRACE_TIMEOUT, TRACE_BUDGET = 5.0, 15.0  # seconds of one traced run, and of all of one submission's
DEFAULT_LIMITS = Limits()  # course.toml's [settings] defaults
__all__ = ["Limits", "SandboxedSubmission", "TimeBudget", "default_launcher", "opener"]


@dataclass(frozen=True)
class _Terms:
    """How one kind of call runs: its own timeout, the time budget it draws on, and whether it is scored (a
    broken reply to a scored call condemns the whole submission; a traced call's costs that call alone)."""

    call_timeout: float
    budget: TimeBudget
    scored: bool


class SandboxedSubmission:
    """Runs requests against one submission's `exercises` package in its public and hidden processes."""

    def __init__(self, package_root: Path, limits: Limits = DEFAULT_LIMITS, launcher: Launcher | None = None, *,
                 hidden_checks: bool = True):
        """`hidden_checks`: whether hidden checks will be asked (a twin is forked for them from the start)."""
        self.package_root = Path(package_root).resolve()
        self.limits = limits
        self._launch = launcher or default_launcher()
        self._twins = hidden_checks and isinstance(self._launch, WarmLauncher)
        self._twin: Twin | None = None  # the public process's twin, until the hidden side takes it
        self._public = Connection(self.package_root, limits, self._start_public)
        self._hidden = Connection(self.package_root, limits, self._start_hidden if self._twins else self._launch)
        if self._twins:  # a twin ends with its sandbox, and takes it along when it must end for sure
            self._public.on_close = self._pair_ended
        self._side = self._public  # where the next request goes (`begin_exercise`, `begin_hidden`)
        self._scored = _Terms(limits.call_timeout, TimeBudget(limits.time_budget), True)
        self._traced = _Terms(min(limits.call_timeout, TRACE_TIMEOUT),
                              TimeBudget(min(limits.time_budget, TRACE_BUDGET)), False)
        self._hung_modules: set[tuple[str, bool, bool]] = set()  # (module, with stand-ins, build only)
        self.malformed = ""  # why this submission's replies cannot be trusted, once one broke the protocol
        self._constants: dict[tuple[str, tuple[str, ...]], protocol.Reply] = {}  # read by a public process
        self._exercise_refuses = bool(limits.refused)  # the current exercise's own refusals (`begin_exercise`)

    def __enter__(self) -> SandboxedSubmission:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def captured_output(self) -> str:
        """What the student's code printed in its public process, capped at the output limit: output no
        hidden input can have shaped (traced runs print here too, after every check)."""
        return self._public.output.decode("utf-8", errors="replace")

    @property
    def hidden_output(self) -> str:
        """What it printed during hidden checks (never shown: it could show their inputs)."""
        return self._hidden.output.decode("utf-8", errors="replace")

    def run(self, request: protocol.Request, on_standin: StandinHandler | None = None) -> protocol.Reply:
        """Run one request; timeouts, deaths, floods and malformed replies become failures, never exceptions.

        `on_standin` answers the stand-in calls the request's `standins` allow (the grader's numbers);
        a reply that breaks the protocol fails the call as `malformed-reply` and marks the whole
        submission (`malformed`): its process wrote something no honest worker writes.

        A module's constants are read once (by the public process, which has seen no hidden input): checks
        that each need the same table (cake's four) get the first reply again, rather than a process woken
        to read attributes that code which does not rewrite its own module cannot change.
        """
        side = self._side
        if isinstance(request, protocol.ConstantsRequest):
            key = (request.module, request.names)
            if key not in self._constants:
                reply = self._scored_call(self._public, request, on_standin)
                if not self._public.running:  # the read ended the process: a new one reads afresh
                    return reply
                self._constants[key] = reply
            return self._constants[key]
        reply = self._scored_call(side, request, on_standin)
        if side.limits.refused and not self._exercise_refuses and _reached_refused(reply):
            self._restart(side, refused=())  # this exercise may use what the process refuses: ask one that does not
            reply = self._scored_call(side, request, on_standin)
        return reply

    def begin_exercise(self, refused: tuple[str, ...] = ()) -> None:
        """The next requests are one exercise's public checks', whose sandbox refuses the library routines
        `refused` names (`refusals.install`, before any of the student's code runs there).

        A refusal cannot be installed after the student's code has run (it could have disarmed it), nor
        lifted (the student's code could lift it too), so an exercise that refuses what a running
        process does not gets a fresh one. An exercise that refuses nothing keeps the process it finds,
        refusing or not: most code never reaches a refused routine outside the softmax exercise, and a
        fresh fork costs about 15 ms (one an exercise would double a class's grading time). Where its
        code does reach one (attention may use the library's softmax), `run` asks again in a fresh
        process that refuses nothing.
        """
        self._side = self._public
        self._exercise_refuses = bool(refused)
        for side in (self._public, self._hidden):
            if refused and refused != side.limits.refused:
                self._restart(side, refused=refused)

    def begin_hidden(self) -> None:
        """The next requests are the current exercise's hidden checks': the hidden process answers them."""
        self._side = self._hidden

    def trace(self, request: protocol.TraceRequest, on_standin: StandinHandler | None = None, *,
              hidden: bool = False) -> protocol.Trace | None:
        """The request's traced run, or None: evidence for a wrong answer's feedback, never for a score.

        Asked once the submission's checks are all done (`GradingPlugin`), in the process its question was
        first asked in (`hidden`), so what the traced run does or learns (that it is traced, so its answer
        was wrong) reaches no scored answer: a traced process answers no scored question again. Its calls
        are shorter and have a budget of their own, and a timeout, a flood or a malformed trace cost the
        trace alone.
        """
        if self.malformed or self._scored.budget.spent:
            return None
        side = self._hidden if hidden else self._public
        side.traced = True
        reply = self._call(side, request, on_standin, self._traced)
        return reply if isinstance(reply, protocol.Trace) else None

    def close(self, wait: bool = True) -> None:
        """Stop both processes and everything they started; `wait=False` returns before all of it is gone
        (the warm parent still ends and clears it up): how the grader leaves a student it is done with."""
        self._constants.clear()
        for side in (self._public, self._hidden):
            side.close(wait)

    def _start_public(self, package_root: Path, limits: Limits) -> SandboxProcess:
        if not isinstance(self._launch, WarmLauncher) or not self._twins:
            return self._launch(package_root, limits)
        process = self._launch(package_root, limits, twin=True)
        self._twin = Twin(process, self._public)
        return process

    def _pair_ended(self, wait: bool) -> None:
        """The public process has ended, and its twin with it: one not yet taken is forgotten (its pipes are
        closed with its sandbox's, and their numbers may soon be another process's), one taken is let go."""
        self._twin = None
        self._hidden.close(wait)

    def _start_hidden(self, package_root: Path, limits: Limits) -> SandboxProcess:
        """The public process's twin, forked with it; where it was taken already (and has ended), a new pair."""
        if self._twin is None:
            self._public.close(wait=False)
            self._public.start()
        twin, self._twin = self._twin, None
        assert twin is not None  # `_start_public` made one
        return twin

    def _restart(self, side: Connection, refused: tuple[str, ...] | None = None) -> None:
        """End the side's process; the next request starts another, refusing `refused` if given. A twin and
        its sandbox refuse the same routines (the twin is forked after the refusals are installed)."""
        for each in (self._public, self._hidden) if self._twins else (side,):
            each.restart(refused)

    def _scored_call(self, side: Connection, request: protocol.Request,
                     on_standin: StandinHandler | None) -> protocol.Reply:
        if side.traced:
            self._restart(side)
        reply = self._call(side, request, on_standin, self._scored)
        assert not isinstance(reply, protocol.Trace)  # `connection._fits`: a trace answers a TraceRequest only
        return reply

    def _call(self, side: Connection, request: protocol.Request | protocol.TraceRequest,
              on_standin: StandinHandler | None, terms: _Terms) -> protocol.Reply | protocol.Trace:
        module = request.module
        if self.malformed:
            return Failure("malformed-reply", "MalformedReply", self.malformed)
        if terms.budget.spent:
            return terms.budget.spent_failure()
        # What hung, remembered with how it was asked: with stand-ins a dependency's hang is gone, and
        # building a layer without running it runs none of its forward code.
        hang = (module, bool(getattr(request, "standins", ())), getattr(request, "input", 0) is None)
        if terms.scored and hang in self._hung_modules:
            return Failure("timeout", "", f"an earlier call into {module}.py ran out of time")
        try:
            with terms.budget.counting():  # starting a process and ending a hung one cost the class time too
                return self._attempt(side, hang, request, on_standin, terms)
        except TimeoutError:
            if terms.budget.spent:
                return terms.budget.spent_failure()
            return Failure("timeout", "", f"no answer within {terms.call_timeout:g} s")

    def _attempt(self, side: Connection, hang: tuple[str, bool, bool],
                 request: protocol.Request | protocol.TraceRequest, on_standin: StandinHandler | None,
                 terms: _Terms) -> protocol.Reply | protocol.Trace:
        """One request in the side's process: its reply or its failure; TimeoutError, once the hung process
        is gone."""
        try:
            return side.exchange(request, on_standin, terms.call_timeout, terms.budget)
        except TimeoutError:
            if terms.scored:
                self._hung_modules.add(hang)
            raise
        except OutputFlood:
            side.close()
            return Failure("crash", "OutputLimitExceeded",
                           f"printed more than {self.limits.output_kb} KiB; the rest was cut off")
        except (EOFError, OSError):
            return Failure("exited", "", side.end_and_say_why())
        except protocol.ProtocolError as error:
            side.close()
            if not terms.scored:
                return Failure("malformed-reply", "MalformedReply", f"a malformed trace: {error}")
            self.malformed = f"the process running your code sent a malformed reply: {error}"
            return Failure("malformed-reply", "MalformedReply", self.malformed)


def _reached_refused(reply: protocol.Reply) -> bool:
    """Whether the code reached a routine its process refuses (the call failed on it, or says it reached it)."""
    if isinstance(reply, Failure):
        return refusals.is_refusal(reply.message)
    return bool(reply.calls)


# --- launchers ---------------------------------------------------------------------------------------


class _FreshProcess:
    """The portable fallback: a new Python process a submission, with rlimits and its own session."""

    out_of_memory = False  # rlimits make allocations fail (MemoryError) rather than end the process

    def __init__(self, package_root: Path, limits: Limits):
        self._scratch = tempfile.TemporaryDirectory(prefix="attnkit-scratch-")
        requests_r, self.requests_w = os.pipe()
        self.responses_r, responses_w = os.pipe()
        self.output_r, output_w = os.pipe()
        resources = isolation.ResourceLimits(limits.memory_mb, limits.cpu_seconds)
        self._popen = subprocess.Popen(
            [sys.executable, "-m", "attnkit.sandbox.worker", str(package_root), str(responses_w), *limits.refused],
            stdin=requests_r, stdout=output_w, stderr=output_w, pass_fds=(responses_w,),
            cwd=self._scratch.name, env=_fresh_environment(self._scratch.name), start_new_session=True,
            preexec_fn=lambda: isolation.limit_resources(resources, isolated=False),
        )
        for fd in (requests_r, responses_w, output_w):
            os.close(fd)

    def kill(self) -> None:
        try:
            os.killpg(self._popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._popen.wait()
        for fd in (self.requests_w, self.responses_r, self.output_r):
            os.close(fd)
        self._scratch.cleanup()

    release = kill


def _fresh_environment(home: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "OMP_NUM_THREADS": "1",
            "PYTHONDONTWRITEBYTECODE": "1"}


def default_launcher(*, warn: bool = True) -> Launcher:
    """Forks from the warm parent on Linux; a fresh process a submission elsewhere.

    `warn`: say once what is not enforced when sandboxes are not isolated (not
    worth saying to a student checking their own code on their own machine).
    """
    if not sys.platform.startswith("linux"):
        if warn:
            warn_unenforced(isolation.probe(), "cgroups need Linux")
        return _FreshProcess
    if warn:
        warn_unenforced(warm_parent().refusal, warm_parent().cgroup_refusal)
    return WarmLauncher()


class WarmLauncher:
    """Sandboxes forked by this process's warm parent (or by `parent`, given one), with a twin for hidden
    checks when asked."""

    def __init__(self, parent: Any = None):
        self.parent = parent

    def __call__(self, package_root: Path, limits: Limits, twin: bool = False) -> SandboxProcess:
        from attnkit.sandbox.warm import SpawnRequest

        request = SpawnRequest(str(package_root), limits.memory_mb, limits.cpu_seconds, limits.refused, twin)
        if self.parent is not None:
            return self.parent.spawn(request)
        try:
            return warm_parent().spawn(request)
        except OSError:  # the parent is gone (killed, out of memory): not the student's doing, so start another
            stop_warm_parent()
            return warm_parent().spawn(request)


def opener(limits: Limits, *, warn: bool = True, hidden_checks: bool = True) -> Callable[[Path], SandboxedSubmission]:
    """How a grading session opens sandboxes. On Linux the warm parent starts now and imports torch
    while the grader collects its checks; the launcher is only chosen (waiting for it) at the first
    sandbox. `hidden_checks`: whether the session asks any (`SandboxedSubmission`)."""
    prewarm()
    launchers: list[Launcher] = []

    def open_sandbox(package_root: Path) -> SandboxedSubmission:
        if not launchers:
            launchers.append(default_launcher(warn=warn))
        return SandboxedSubmission(package_root, limits, launchers[0], hidden_checks=hidden_checks)

    return open_sandbox
