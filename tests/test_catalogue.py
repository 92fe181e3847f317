"""The mistake catalogue: complete against the contract, every variant real, the README in step."""
from __future__ import annotations

import re

import pytest

from attnkit.grading.catalogue import markdown_table
from attnkit.grading.variants import apply_variant
from kit import CATALOGUE, COURSE, REPO

CONTRACT_IDS = """
not-implemented crash timeout exited wrong-shape not-finite mutates-input hard-coded
softmax-wrong-dim softmax-global-sum softmax-missing-keepdim softmax-no-exp softmax-unstable softmax-builtin
scores-missing-scale scores-scale-by-dk scores-scale-by-n-tokens scores-transposed scores-batch-transpose
attention-softmax-dim0 attention-uniform attention-hard-argmax attention-weights-transposed
attention-returns-scores attention-scale-after-softmax attention-missing-scale
projection-shared-qk projection-bias projection-no-projection projection-wrong-size projection-scale-by-d-model
projection-not-registered projection-breaks-gradient projection-softmax-dim0
cake-changed-query cake-changed-values cake-changed-several-keys cake-still-attends-chocolate
cake-ignores-eggless-too cake-prediction-missing cake-prediction-off cake-prediction-unscaled cake-output-off
""".split()
VARIANTS = [(m.id, i, v) for m in CATALOGUE.with_variants() for i, v in enumerate(m.variants)]


@pytest.mark.parametrize("mistake_id", CONTRACT_IDS)
def test_every_contract_id_is_catalogued_with_words_for_the_student(mistake_id):
    mistake = CATALOGUE[mistake_id]
    assert mistake.exercise in ("*", *COURSE.ids)
    assert len(re.findall(r"[.!?](\s|$)", mistake.explanation)) >= 2, "two or three sentences"
    assert mistake.hint and mistake.hint != mistake.explanation


@pytest.mark.parametrize("mistake_id,index,variant", VARIANTS, ids=[f"{m}-{i}" for m, i, _ in VARIANTS])
def test_every_variant_applies_to_the_reference_and_changes_it(mistake_id, index, variant):
    reference = (COURSE.solutions_dir / f"{variant.module}.py").read_text()
    assert apply_variant(COURSE.solutions_dir, variant) != reference


def test_every_mistake_can_be_found():
    """By a variant, a forbidden call, or a grader that names it (checked by the class grading tests)."""
    graders = " ".join(COURSE.grader_file(e).read_text() for e in COURSE.exercises)
    hand_written = {p.name.split("--")[0] for p in (REPO / "tests" / "submissions" / "mistakes").iterdir()}
    for mistake in CATALOGUE.mistakes.values():
        assert mistake.variants or mistake.calls or mistake.generic or f'"{mistake.id}"' in graders, mistake.id
        if not mistake.variants:
            covered_elsewhere = {"not-implemented", "wrong-values"}  # the stubs; every unexplained answer
            assert mistake.id in hand_written | covered_elsewhere, f"{mistake.id} needs a test submission"


def test_the_readme_lists_every_mistake():
    table = markdown_table(CATALOGUE, COURSE.ids)
    assert table in (REPO / "README.md").read_text(), (
        "README's mistake table is stale: paste the output of `python -m attnkit.grading.catalogue`")
