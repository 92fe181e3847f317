"""Gradescope: autograder.zip, run_autograder on every kind of upload, and results.json.

run_autograder runs as Gradescope runs it: the zip unpacked into `$AUTOGRADER_ROOT/source`, the
script copied to `$AUTOGRADER_ROOT/run_autograder` and started from there, a real subprocess (with
this Python's attnkit on the PATH; setup.sh's own virtual environment is tests/test_distribution.py's).
"""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from attnkit.class_grading import grade_class
from attnkit.config import ConfigError, check_names, load_course
from attnkit.errors import KitError
from attnkit.gradescope.autograder import uploaded_entry
from attnkit.gradescope.export import write_autograder
from attnkit.gradescope.results import check_output, results_json
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult
from attnkit.packing import pack_submission
from kit import CATALOGUE, COURSE, REPO, reference_submission, variant_submission


@pytest.fixture(scope="module")
def autograder_zip(tmp_path_factory) -> Path:
    return write_autograder(COURSE, tmp_path_factory.mktemp("gradescope"))


def unpacked(autograder_zip: Path, root: Path) -> Path:
    """An AUTOGRADER_ROOT as Gradescope lays it out: source/ from the zip, run_autograder beside it."""
    with zipfile.ZipFile(autograder_zip) as archive:
        archive.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "submission").mkdir()
    return root


def run_autograder(root: Path, path: str | None = None) -> dict:
    """Run run_autograder from `root` and read the results.json it leaves."""
    env = {**os.environ, "AUTOGRADER_ROOT": str(root),
           "PATH": path or f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(root / "run_autograder")], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((root / "results" / "results.json").read_text())


def assert_gradescope_format(results: dict) -> None:
    assert isinstance(results["score"], float) and isinstance(results["output"], str)
    for test in results["tests"]:
        assert {"name", "score", "max_score", "output", "visibility"} <= set(test)
        assert test["visibility"] in ("visible", "after_due_date", "after_published", "hidden")


# --- the zip --------------------------------------------------------------------------------------


def test_the_zip_has_both_scripts_at_its_top_executable_and_what_grading_needs(autograder_zip):
    with zipfile.ZipFile(autograder_zip) as archive:
        entries = {info.filename: info for info in archive.infolist()}
    for script in ("setup.sh", "run_autograder"):
        assert entries[script].external_attr >> 16 & stat.S_IXUSR
    assert "requirements.txt" in entries and any(n.startswith("attnkit-") and n.endswith(".whl") for n in entries)
    needed = ["course.toml", *(p.relative_to(REPO).as_posix() for folder in ("graders", "solutions")
                               for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts)]
    assert "graders/mistakes/softmax.py" in needed
    assert not [name for name in needed if f"course/{name}" not in entries]


def test_a_handout_course_cannot_become_an_autograder(tmp_path):
    handout = dataclasses.replace(COURSE, solutions_dir=tmp_path / "no-solutions")
    with pytest.raises(KitError, match="this is a handout's course"):
        write_autograder(handout, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_bad_hidden_visibility_is_refused_naming_the_key(tmp_path):
    text = COURSE.file.read_text().replace('hidden_visibility = "after_published"', 'hidden_visibility = "later"')
    (tmp_path / "course.toml").write_text(text)
    (tmp_path / "graders").symlink_to(COURSE.graders_dir)
    with pytest.raises(ConfigError, match=r"course.toml: grading.hidden_visibility: expected one of visible, "):
        load_course(tmp_path / "course.toml")


# --- results.json from a typed result --------------------------------------------------------------


def graded(**hidden_check) -> SubmissionResult:
    """A result of one exercise: a public check passed and a hidden check as given."""
    public = CheckResult("rows sum to one", "test_rows", True, passed=True, points=1.0, max_points=1.0)
    hidden = CheckResult(**{"name": "batched", "test": "test_batched", "public": False, "passed": False,
                            "points": 0.0, "max_points": 1.0, **hidden_check})
    return SubmissionResult("submission", {"softmax": ExerciseResult("softmax", 2.0, [public, hidden])})


def test_public_checks_are_visible_and_hidden_ones_wait_for_publishing():
    results = results_json(graded(mistakes=["softmax-wrong-dim"], message="ran along dim 0"), COURSE)
    assert [(t["name"], t["visibility"]) for t in results["tests"]] == [
        ("softmax: rows sum to one", "visible"), ("softmax: batched", "after_published")]
    assert [(t["score"], t["max_score"], t["status"]) for t in results["tests"]] == [
        (1.0, 1.0, "passed"), (0.0, 1.0, "failed")]
    assert results["score"] == 1.0
    assert results["tests"][1]["extra_data"] == {"mistakes": ["softmax-wrong-dim"], "carried_from": []}
    assert_gradescope_format(results)


def test_what_students_see_at_once_says_nothing_of_the_hidden_checks():
    results = results_json(graded(mistakes=["softmax-wrong-dim"], message="ran along dim 0", hint="use dim"), COURSE)
    assert results["output"] == ("Public checks: 1 of 1 passed.\n"
                                 "The 1 hidden checks are shown when your instructor publishes the grades.")


def test_what_a_process_wrote_during_a_hidden_check_is_not_shown_at_once():
    """A forged frame can quote a hidden input; the top-level output says only that the reply was malformed."""
    result = graded(mistakes=["malformed-reply"], message="")
    result.problem = "the process running your code sent a malformed reply: unexpected message '[[0.125, 4.5]]'"
    results = results_json(result, COURSE)
    assert "malformed reply" in results["output"] and "0.125" not in json.dumps(results)


def test_a_course_may_show_its_hidden_checks_at_once_and_then_the_score():
    course = dataclasses.replace(COURSE, grading=dataclasses.replace(COURSE.grading, hidden_visibility="visible"))
    results = results_json(graded(), course)
    assert {t["visibility"] for t in results["tests"]} == {"visible"}
    assert "Score: 1 / 2, hidden checks included." in results["output"]


def test_course_toml_says_when_hidden_checks_are_shown(tmp_path):
    text = COURSE.file.read_text().replace('hidden_visibility = "after_published"',
                                           'hidden_visibility = "after_due_date"')
    (tmp_path / "course.toml").write_text(text)
    (tmp_path / "graders").symlink_to(COURSE.graders_dir)
    course = load_course(tmp_path / "course.toml")
    results = results_json(graded(), course)
    assert [t["visibility"] for t in results["tests"]] == ["visible", "after_due_date"]
    assert results["output"].endswith("The 1 hidden checks are shown after the due date.")


def test_a_checks_output_is_its_mistakes_diagnosis_and_hint_as_plain_text_nothing_escaped():
    check = CheckResult("batched", "test_batched", False, passed=False, points=0.0, max_points=1.0,
                        mistakes=["crash", "softmax-no-exp"], message="ValueError: <b>*bold*</b> & \x1b[31mred",
                        hint="Raise e to each score.")
    assert check_output(check) == ("Mistakes: crash, softmax-no-exp\n\nValueError: <b>*bold*</b> & \\x1b[31mred"
                                   "\n\nHint: Raise e to each score.")


def test_a_check_spared_by_error_carried_forward_says_so():
    spared = "Your attention is right on its own: checked with a correct stand-in for your softmax."
    check = CheckResult("outputs", "test_outputs", True, passed=True, points=1.0, max_points=1.0, message=spared,
                        hint="not shown", carried_from=["softmax"])
    assert check_output(check) == spared


# --- which part of an upload is read --------------------------------------------------------------


@pytest.mark.parametrize("files,read", [
    (["alice.zip"], "alice.zip"),
    (["alice.zip", ".DS_Store", "__MACOSX/"], "alice.zip"),
    (["alice.zip", "softmax.py"], "."),
    (["alice.zip", "exercises/"], "."),
    (["alice.zip", "bob.zip"], "."),
    (["notes.txt"], "."),
])
def test_the_one_zip_is_read_when_the_upload_holds_no_package(tmp_path, files, read):
    for name in files:
        (tmp_path / name).mkdir() if name.endswith("/") else (tmp_path / name).write_text("x")
    assert uploaded_entry(tmp_path) == (tmp_path / read if read != "." else tmp_path)


# --- run_autograder, as a process -----------------------------------------------------------------


@pytest.mark.parametrize("upload,reason", [
    ({"notes.txt": "my answers are in my head"}, "submission: no `exercises` folder and no module files"),
    ({"alice.zip": "not a zip"}, "submission/alice.zip: not a zip file"),
    ({}, "submission: no `exercises` folder and no module files"),
])
def test_an_upload_that_cannot_be_graded_scores_0_with_the_reason(autograder_zip, tmp_path, upload, reason):
    root = unpacked(autograder_zip, tmp_path)
    for name, text in upload.items():
        (root / "submission" / name).write_text(text)
    results = run_autograder(root)
    assert results["score"] == 0.0 and reason in results["output"] and str(tmp_path) not in results["output"]
    assert len(results["tests"]) == sum(len(e.checks) for e in COURSE.exercises)
    assert_gradescope_format(results)


def test_a_failure_of_the_kit_still_leaves_results_saying_so(autograder_zip, tmp_path):
    root = unpacked(autograder_zip, tmp_path)
    (root / "source" / "course" / "course.toml").unlink()
    results = run_autograder(root)
    assert results["score"] == 0.0 and results["tests"] == []
    assert results["output"].startswith("The autograder failed, not your code: ConfigError: source/course/course.toml")


def test_a_python_that_cannot_start_still_leaves_results(autograder_zip, tmp_path):
    root = unpacked(autograder_zip, tmp_path)
    broken = root / "venv" / "bin" / "python"
    broken.parent.mkdir(parents=True)
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    results = run_autograder(root)
    assert results["score"] == 0.0 and results["output"].startswith("The autograder could not run")


PRINTS_ITS_INPUT = '''import torch
def softmax(scores, dim=-1):
    print("PRINTED-BY-THE-STUDENT", scores.tolist())
    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))
    return exps / exps.sum(dim=dim, keepdim=True)
'''


def variant_modules(target: Path, mistake: str) -> Path:
    """The reference with a catalogued mistake's first variant, as module files in `target`/exercises."""
    return variant_submission(target, CATALOGUE[mistake].variants[0]) / "exercises"


def make_upload(kind: str, upload: Path, scratch: Path) -> None:
    """Each kind of upload a student makes, into the folder Gradescope gives run_autograder."""
    if kind == "exercises-at-the-top":
        (reference_submission(upload) / "exercises" / "softmax.py").write_text(PRINTS_ITS_INPUT)
    elif kind == "one-folder-down":
        shutil.copytree(variant_modules(scratch, "softmax-wrong-dim"), upload / "my-work" / "exercises")
    elif kind == "modules-loose":
        shutil.copytree(variant_modules(scratch, "scores-transposed"), upload, dirs_exist_ok=True)
    elif kind == "zip-from-submit":
        variant_submission(scratch, CATALOGUE["projection-bias"].variants[0])
        pack_submission(scratch, "alice", upload)
    elif kind == "garbage":
        (upload / "answers.pdf").write_bytes(b"%PDF-1.4 not a package")


KINDS = ["exercises-at-the-top", "one-folder-down", "modules-loose", "zip-from-submit", "garbage"]


@pytest.fixture(scope="module")
def graded_both_ways(autograder_zip, tmp_path_factory) -> dict[str, tuple[dict, SubmissionResult]]:
    """Each kind of upload graded by run_autograder and, as a class of one student a kind, by `attnkit grade`."""
    base = tmp_path_factory.mktemp("uploads")
    klass = base / "class"
    klass.mkdir()
    results = {}
    for kind in KINDS:
        root = unpacked(autograder_zip, base / kind)
        make_upload(kind, root / "submission", base / f"{kind}-scratch")
        results[kind] = run_autograder(root)
        [*zips] = (root / "submission").glob("*.zip")
        shutil.copytree(root / "submission", klass / kind) if not zips else shutil.copy(zips[0], klass / f"{kind}.zip")
    grade_class(COURSE, klass, base / "grades", jobs=1)
    return {kind: (results[kind], SubmissionResult.from_json(
        json.loads((base / "grades" / "feedback" / f"{kind}.json").read_text()))) for kind in KINDS}


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_upload_scores_as_attnkit_grade_scores_it(graded_both_ways, kind):
    results, feedback = graded_both_ways[kind]
    assert_gradescope_format(results)
    assert results["score"] == feedback.score
    assert [t["score"] for t in results["tests"]] == [
        c.points for e in COURSE.exercises for c in feedback.exercises[e.id].checks]
    assert (results["score"] == 0.0) == (kind == "garbage")


@pytest.mark.slow
def test_a_mistake_is_named_with_its_hint_and_the_exercises_it_spares_say_so(graded_both_ways):
    results, _ = graded_both_ways["one-folder-down"]
    tests = {t["name"]: t for t in results["tests"]}
    lesson = tests[f"softmax: {check_names(COURSE.graders_dir / 'test_softmax.py')['test_lesson_weights']}"]
    assert lesson["output"].startswith("Mistake: softmax-wrong-dim\n\n")
    assert "Hint: " in lesson["output"]
    spared = [t for t in results["tests"] if t["name"].startswith("attention: ")]
    assert all(t["status"] == "passed" and "correct stand-in for your softmax" in t["output"] for t in spared)


@pytest.mark.slow
def test_what_the_students_code_printed_never_reaches_the_results(graded_both_ways):
    results, feedback = graded_both_ways["exercises-at-the-top"]
    assert "PRINTED-BY-THE-STUDENT" in feedback.output  # it did print, and grade keeps it for the instructor
    assert "PRINTED-BY-THE-STUDENT" not in json.dumps(results)
