"""A sandbox's first moments, in the process the warm parent has just forked: before any student code runs.

It joins its cgroup, takes exactly the fds it is given (the control socket above all must go: a sandbox
must not order sandboxes), settles what it refuses (`refusals.settle`), forks its twin if asked (the
process that answers the submission's hidden checks: `runner.SandboxedSubmission`), then each of the two
confines itself (its own root, uid and limits, no sockets) and serves the grader's requests.
"""
from __future__ import annotations

import fcntl
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from attnkit.sandbox import cgroups, isolation, refusals

if TYPE_CHECKING:
    from attnkit.sandbox.warm import SpawnRequest

REQUESTS_FD, RESPONSES_FD = 3, 4  # in the sandbox; 0 is /dev/null, 1 and 2 the output pipe
TWIN_FDS = (5, 6, 7)  # in the sandbox until its twin is forked: the twin's requests, responses and output
FIRST_FREE_FD = 10


def start(request: SpawnRequest, pipes: list[int], template: str | None, roots: list[str],
             cgroup: cgroups.Cgroup | None) -> None:
    """In the sandbox: join its cgroup, fork its twin if asked, confine this process, then serve the grader's
    requests. The twin is forked before anything else happens here, so it starts as pristine as its
    sandbox: no student code has run in either, and it goes through the same confinement (own root,
    scratch folder and uid, as `isolation.sandbox_uid` gives each process of its own pid)."""
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        isolation.die_with_parent()
        if cgroup is not None:
            cgroup.join()
        os.setsid()
        requests_r, responses_w, output_w = pipes[:3]
        twin = dict(zip(TWIN_FDS, pipes[3:]))
        _arrange_fds({0: os.open(os.devnull, os.O_RDONLY), 1: output_w, 2: output_w, REQUESTS_FD: requests_r,
                      RESPONSES_FD: responses_w, **twin})
        refusals.settle(request.refused)  # before the twin is forked: neither has run student code yet
        copy = isolation.fallback_copy_dir(os.getpid())  # where namespaces are refused (named by this pid)
        if twin and os.fork() == 0:
            _arrange_fds({0: 0, 1: TWIN_FDS[2], 2: TWIN_FDS[2], REQUESTS_FD: TWIN_FDS[0], RESPONSES_FD: TWIN_FDS[1]})
            isolation.die_with_parent()  # with its sandbox (pid 1 of their namespace: then with all of it anyway)
            copy = isolation.fallback_copy_dir(os.getppid(), twin=True)
        else:
            for fd in twin:
                os.close(fd)
        _confine_and_serve(request, template, roots, copy)
    except BaseException:  # a failure to set up shows in the captured output, not as a silent exit
        traceback.print_exc()
    finally:
        os._exit(0)


def _confine_and_serve(request: SpawnRequest, template: str | None, roots: list[str], copy: Path) -> None:
    """Lock this sandbox process down (its own root and uid, its limits, no sockets), then serve; `copy`:
    where its copy of the package goes where namespaces are refused."""
    package_root = request.package_root
    if template is not None:
        uid = isolation.sandbox_uid()
        isolation.enter_own_root(template, package_root, roots, uid)
        package_root = isolation.SUBMISSION
    limits = isolation.ResourceLimits(request.memory_mb, request.cpu_seconds)
    isolation.limit_resources(limits, isolated=template is not None or os.geteuid() == 0)  # a uid of its own
    if template is not None:
        isolation.drop_privileges(uid)
        isolation.deny_sockets()  # the network namespace is shared with every other sandbox
    else:
        package_root = isolation.confine_without_namespaces(package_root, copy)
    _forget_the_course(roots)
    from attnkit.sandbox import worker

    worker.serve_forked(Path(package_root), os.fdopen(REQUESTS_FD, "rb"), os.fdopen(RESPONSES_FD, "wb"))


def _arrange_fds(wanted: dict[int, int]) -> None:
    """Give the sandbox exactly these fds (target: source) and close every other.

    stdin is /dev/null, so a stray input() fails at once instead of eating requests;
    the control socket above all must go: a sandbox must not order sandboxes.
    """
    high = {target: fcntl.fcntl(source, fcntl.F_DUPFD, FIRST_FREE_FD) for target, source in wanted.items()}
    for target, source in high.items():
        os.dup2(source, target)
    os.closerange(max(wanted) + 1, 1 << 16)


def _forget_the_course(roots: list[str]) -> None:
    """Drop import paths that lead back to the course repo (the editable install's)."""
    sys.path[:] = [p for p in sys.path if p.startswith(tuple(roots))]
    sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith("__editable__")]
    sys.argv[:] = ["sandbox"]
