"""The oracle: the reference's and the variants' answers, independent of other oracles in the process."""
from __future__ import annotations

import numpy as np

from attnkit.grading.attempt import call
from attnkit.grading.oracle import ReferenceOracle
from attnkit.grading.lesson import KEYS, QUERIES, VALUES
from kit import CATALOGUE, COURSE


def test_a_second_oracle_runs_its_own_variants_after_the_first_is_gone():
    first = ReferenceOracle(COURSE.solutions_dir, CATALOGUE)
    softmax = call("softmax", "softmax", np.eye(3))
    assert all(r["status"] == "ok" for r in first.evaluate(softmax, ["softmax-wrong-dim"]).variants["softmax-wrong-dim"])
    del first  # its folder is deleted; its packages stay in sys.modules
    second = ReferenceOracle(COURSE.solutions_dir, CATALOGUE)
    attention = call("attention", "attention", QUERIES, KEYS, VALUES, outputs=2)
    answers = second.evaluate(attention, ["softmax-wrong-dim"]).variants["softmax-wrong-dim"]
    assert [r["status"] for r in answers] == ["ok"] * len(answers)


def test_variants_run_only_when_looked_at():
    oracle = ReferenceOracle(COURSE.solutions_dir, CATALOGUE)
    evaluation = oracle.evaluate(call("softmax", "softmax", np.eye(3)), ["softmax-wrong-dim", "softmax-no-exp"])
    assert list(evaluation.variants) == ["softmax-wrong-dim", "softmax-no-exp"]
    assert len(oracle._cache) == 1  # the reference's answer only
    evaluation.variants["softmax-no-exp"]
    assert len(oracle._cache) == 1 + len(CATALOGUE["softmax-no-exp"].variants)
