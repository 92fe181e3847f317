"""The mistake catalogue: complete against the contract, every variant real, the README in step."""
from __future__ import annotations

import re

import numpy as np
import pytest

from attnkit.errors import KitError
from attnkit.grading.attempt import call
from attnkit.grading.catalogue import load_catalogue, markdown_table
from attnkit.grading.oracle import ReferenceOracle
from attnkit.grading.variants import apply_variant
from kit import CATALOGUE, COURSE, REPO

CONTRACT_IDS = """
not-implemented crash timeout exited wrong-shape not-finite mutates-input hard-coded wrong-values wrong-type
malformed-reply
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


GENERIC = {"not-implemented", "crash", "timeout", "exited", "malformed-reply", "wrong-shape", "not-finite",
           "mutates-input", "hard-coded", "wrong-values", "wrong-type"}  # named by the engine itself


@pytest.mark.parametrize("mistake_id", sorted(CATALOGUE.mistakes))
def test_every_mistake_has_a_way_to_be_found(mistake_id):
    """By the engine, the exercise's model, a forbidden name, a signature, or its grader naming it."""
    mistake = CATALOGUE[mistake_id]
    course_code = " ".join(p.read_text() for p in [*COURSE.graders_dir.glob("*.py"), *COURSE.mistakes_dir.glob("*.py")])
    assert mistake.id in GENERIC or mistake.forbid or mistake.signature or f'"{mistake.id}"' in course_code


@pytest.mark.parametrize("mistake_id", sorted(set(CATALOGUE.mistakes) - GENERIC))
def test_every_specific_mistake_has_test_cases(mistake_id):
    """Its variants, or a hand-written submission named after it."""
    hand_written = {p.name.split("--")[0] for p in (REPO / "tests" / "submissions" / "mistakes").iterdir()}
    assert CATALOGUE[mistake_id].variants or mistake_id in hand_written


def test_the_diagnosis_page_lists_every_mistake():
    table = markdown_table(CATALOGUE, COURSE.ids)
    assert table in (REPO / "docs" / "diagnosis.md").read_text(), (
        "docs/diagnosis.md's mistake table is stale: paste the output of `python -m attnkit.grading.catalogue`")


def test_a_catalogue_without_the_engines_own_ids_is_refused_naming_them(tmp_path):
    (tmp_path / "one.toml").write_text('[mistake.one-wrong]\nexercise = "one"\nsummary = "s"\n'
                                       'explanation = "One. Two."\nhint = "h"\n')
    with pytest.raises(KitError, match="no words for not-implemented, crash"):
        load_catalogue(tmp_path)


def test_a_model_switching_an_id_the_catalogue_lacks_is_refused_naming_it(tmp_path):
    (tmp_path / "softmax.py").write_text("def softmax(flaws, x, dim=-1):\n"
                                         "    return x * 2 if flaws.on('softmax-typo') else x\n")
    oracle = ReferenceOracle(COURSE.solutions_dir, tmp_path, CATALOGUE.mistakes)
    with pytest.raises(KitError, match=r"softmax\.py: the model switches 'softmax-typo'"):
        list(oracle.candidates(call("softmax", "softmax", np.ones((2, 2)), -1), 1))


@pytest.mark.parametrize("exercise", COURSE.exercises, ids=COURSE.ids)
def test_the_not_implemented_words_are_true_of_every_stub(exercise):
    """The words for an untouched stub name only what that stub holds: a raise where it raises, a None where
    it holds one (cake's stub is constants, with no raise at all)."""
    stub = (COURSE.exercises_dir / f"{exercise.module}.py").read_text()
    mistake = CATALOGUE["not-implemented"]
    words = f"{mistake.explanation} {mistake.hint}"
    if re.search(r"\bthe raise\b|\bwhere the raise is\b", words):
        assert "raise NotImplementedError" in stub, f"{exercise.module}.py has no raise, the words say it has"
    assert "raise NotImplementedError" in stub or "None" in stub


@pytest.mark.parametrize("mistake", CATALOGUE.mistakes.values(), ids=list(CATALOGUE.mistakes))
def test_the_words_are_the_lessons_not_jargon(mistake):
    """Feedback speaks the lesson's language: programmers' shorthand it never uses is not in it."""
    jargon = ("negative-index", "index friendly", "broadcast-safe", "idempotent")
    words = f"{mistake.explanation} {mistake.hint}".lower()
    assert not [j for j in jargon if j in words]
