"""The warm parent's warm-up: it runs every kind of request for real, and leaves nothing a sandbox inherits."""
from __future__ import annotations

import json
import subprocess
import sys

from attnkit.sandbox import protocol, warmup
from attnkit.sandbox.warm import _clean_environment


def test_every_warm_up_request_runs_its_path_to_an_answer():
    """A warm-up whose requests fail warms only the failure path: each must end as a sandbox's would."""
    replies = warmup.warm_up()
    requests = warmup.requests()
    assert len(replies) == len(requests)
    for request, reply in zip(requests, replies):
        expected = protocol.Failure if getattr(request, "function", "") == "missing" else protocol.Answer
        assert isinstance(reply, expected), (request, reply)


LEFT_BEHIND = """
import json, os, sys, tempfile
import torch
from attnkit.sandbox import warmup
before = set(os.listdir(tempfile.gettempdir()))
warmup.warm_up()
print(json.dumps({
    "threads": len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 1,
    "modules": [m for m in sys.modules if m.startswith(warmup.PACKAGE)],
    "paths": [p for p in sys.path + list(sys.path_importer_cache) if "attnkit-warmup" in p],
    "files": sorted(set(os.listdir(tempfile.gettempdir())) - before),
}))
"""


def test_the_warm_up_leaves_no_thread_module_path_or_file_behind():
    """Run as the warm parent runs (its environment): a thread would not survive the fork, and its package,
    import path or scratch folder must not reach a sandbox."""
    run = subprocess.run([sys.executable, "-c", LEFT_BEHIND], env=_clean_environment(), capture_output=True,
                         text=True, check=True, cwd="/")
    assert json.loads(run.stdout) == {"threads": 1, "modules": [], "paths": [], "files": []}
