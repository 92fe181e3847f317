"""Where namespaces are refused (a container), grading refuses when student code could reach the course.

Fast tests: what the sandbox's uid can reach is found by trying, as that uid (a readable file in a folder
it cannot list, a folder it can only write, a folder on the way it cannot traverse), and each route's
refusal is one line naming the path and what to do. Slow tests: hostile and honest students graded as a
container grades them (CAP_SYS_ADMIN dropped from the bounding set, so no namespaces), through `attnkit
grade` and Gradescope's run_autograder, on a world-readable course copy (refused: exit 2, one line) and on
a private one (the copier scores 0 on what it copied, the honest student full marks).
"""
from __future__ import annotations

import csv
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from attnkit.config import Course, load_course
from attnkit.errors import KitError
from attnkit.sandbox import exposure, isolation
from kit import COURSE, REPO, overlay_submission, reference_submission

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="a uid of the sandboxes' own needs root")
REFUSAL = "namespaces refused for this test"
MODULES = [exercise.module for exercise in COURSE.exercises]


@pytest.fixture
def open_place() -> Iterator[Path]:
    """A folder every uid can traverse (pytest's own are private to this user), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="attnkit-exposure-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def course_copy(target: Path, token: str = "") -> Course:
    """The course's hidden parts and course.toml in `target`, readable by all as a clone with umask 022 is."""
    for part in ("solutions", "exercises", "graders"):
        shutil.copytree(REPO / part, target / part, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "course.toml").write_text((REPO / "course.toml").read_text() + f"# {token}\n")
    subprocess.run(["chmod", "-R", "u=rwX,go=rX", str(target)], check=True)
    return load_course(target / "course.toml")


def make_private(folder: Path) -> None:
    subprocess.run(["chmod", "-R", "o-rwx", str(folder)], check=True)


@pytest.fixture
def namespaces_refused(monkeypatch):
    """Namespaces refused, and the kit installed with no course beside it (not from this repository)."""
    monkeypatch.setattr(isolation, "probe", lambda: REFUSAL)
    monkeypatch.setattr(exposure, "kit_checkout_secrets", lambda: (None, []))


# --- what the sandbox's uid reaches, found by trying --------------------------------------------


@as_root
def test_a_world_readable_course_is_reached_by_the_sandboxes_uid(open_place):
    course = course_copy(open_place / "course")
    found = exposure.first_exposure(exposure.course_secrets(course), exposure.PROBE_UID)
    assert found == exposure.Exposure(course.file, "read")


@as_root
def test_a_private_course_is_not(open_place):
    course = course_copy(open_place / "course")
    make_private(course.root)
    assert exposure.first_exposure(exposure.course_secrets(course), exposure.PROBE_UID) is None


@as_root
def test_the_course_repositorys_history_counts_as_the_course(open_place):
    """Private folders do not hide a reference that git still holds, readable by all."""
    course = course_copy(open_place / "course")
    make_private(course.root)
    course.root.chmod(0o755)
    (course.root / ".git" / "objects").mkdir(parents=True, mode=0o755)
    (course.root / ".git").chmod(0o755)
    found = exposure.first_exposure(exposure.course_secrets(course), exposure.PROBE_UID)
    assert found == exposure.Exposure(course.root / ".git", "listed")


@as_root
def test_a_folder_on_the_way_it_cannot_traverse_hides_a_readable_course(open_place):
    course = course_copy(open_place / "closed" / "course")
    (open_place / "closed").chmod(0o700)
    assert exposure.first_exposure(exposure.course_secrets(course), exposure.PROBE_UID) is None


@as_root
def test_a_readable_reference_in_a_folder_it_cannot_list_is_found(open_place):
    """The exercises' module names are public: a file is opened by name, listing or not."""
    course = course_copy(open_place / "course")
    course.file.chmod(0o600)
    course.graders_dir.chmod(0o700)
    course.solutions_dir.chmod(0o711)
    found = exposure.first_exposure(exposure.course_secrets(course), exposure.PROBE_UID)
    assert found is not None and found.how == "read" and found.path.parent == course.solutions_dir


@as_root
def test_an_output_folder_it_can_write_but_not_list_is_found(open_place):
    out = open_place / "out"
    out.mkdir()
    out.chmod(0o733)
    assert exposure.first_exposure([out], exposure.PROBE_UID) == exposure.Exposure(out, "written to")


def test_as_this_user_the_course_is_always_reached(open_place):
    course = course_copy(open_place / "course")
    make_private(course.root)
    assert exposure.first_exposure(exposure.course_secrets(course), None) == exposure.Exposure(course.file, "read")


# --- each route's refusal -------------------------------------------------------------------------


@as_root
def test_grading_is_refused_in_one_line_naming_the_path_and_what_to_do(open_place, namespaces_refused):
    course = course_copy(open_place / "course")
    with pytest.raises(KitError) as refused:
        exposure.refuse_if_exposed(course, [], unisolated=False, accept="pass --unisolated")
    message = str(refused.value)
    assert "\n" not in message and REFUSAL in message and str(course.file) in message
    assert f"chmod -R o-rwx {course.root}" in message and "--unisolated" in message


@as_root
def test_an_exposed_output_folder_is_named_as_the_folder_to_make_private(open_place, namespaces_refused):
    course = course_copy(open_place / "course")
    make_private(course.root)
    out = open_place / "out"
    out.mkdir(mode=0o755)
    with pytest.raises(KitError, match=f"chmod -R o-rwx {out}"):
        exposure.refuse_if_exposed(course, [out], unisolated=False, accept="pass --unisolated")


@as_root
def test_a_readable_course_beside_the_kits_own_code_is_refused_too(open_place, namespaces_refused, monkeypatch):
    """A kit run from a course repository's checkout: student code finds that course through attnkit.__file__."""
    graded = course_copy(open_place / "graded")
    make_private(graded.root)
    checkout = course_copy(open_place / "checkout")
    monkeypatch.setattr(exposure, "kit_checkout_secrets", lambda: (checkout.root, exposure.course_secrets(checkout)))
    expected = f"{checkout.file} can be read: make it private \\(chmod -R o-rwx {checkout.root}"
    with pytest.raises(KitError, match=expected):
        exposure.refuse_if_exposed(graded, [], unisolated=False, accept="pass --unisolated")


@pytest.mark.skipif(not Path(exposure.__file__).resolve().is_relative_to(REPO), reason="the kit is not run from here")
def test_this_repository_is_a_course_beside_the_kit_when_installed_from_it():
    root, secrets_beside = exposure.kit_checkout_secrets()
    assert root == REPO and REPO / "solutions" in secrets_beside and REPO / "course.toml" in secrets_beside


def test_accepting_the_risk_grades_and_returns_what_is_exposed(open_place, namespaces_refused):
    course = course_copy(open_place / "course")
    found = exposure.refuse_if_exposed(course, [], unisolated=True, accept="pass --unisolated")
    assert found is not None and str(found.path) in exposure.unisolated_warning(found)


@as_root
def test_a_private_course_is_graded(open_place, namespaces_refused):
    course = course_copy(open_place / "course")
    make_private(course.root)
    assert exposure.refuse_if_exposed(course, [], unisolated=False, accept="pass --unisolated") is None


def test_where_namespaces_are_allowed_nothing_is_asked(open_place, monkeypatch):
    monkeypatch.setattr(isolation, "probe", lambda: None)
    course = course_copy(open_place / "course")
    assert exposure.refuse_if_exposed(course, [], unisolated=False, accept="pass --unisolated") is None


def test_nbgraders_unconfined_kernel_runs_as_this_user_so_even_a_private_course_is_refused(
        open_place, namespaces_refused):
    from attnkit.nbgrader.autograde import KitExecute

    course = course_copy(open_place / "course")
    make_private(course.root)
    with pytest.raises(KitError, match="c.KitExecute.unisolated = True"):
        KitExecute(course=str(course.file)).preprocess({"cells": []}, {})


def test_check_says_once_that_it_does_not_refuse(namespaces_refused):
    from attnkit.cli import unchecked_exposure_note

    note = unchecked_exposure_note(COURSE)
    assert "\n" not in note and REFUSAL in note and "your own work" in note


def test_check_says_nothing_where_namespaces_are_allowed(monkeypatch):
    from attnkit.cli import unchecked_exposure_note

    monkeypatch.setattr(isolation, "probe", lambda: None)
    assert unchecked_exposure_note(COURSE) == ""


def test_check_says_nothing_in_a_handout_which_has_nothing_to_hide(open_place, namespaces_refused):
    from attnkit.cli import unchecked_exposure_note

    course = course_copy(open_place / "handout")
    shutil.rmtree(course.solutions_dir)
    assert unchecked_exposure_note(course) == ""


def test_the_output_folder_is_made_private_to_this_user_and_group(tmp_path):
    from attnkit.class_grading import make_output_folder

    make_output_folder(tmp_path / "out")
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o750


# --- as a container grades: CAP_SYS_ADMIN dropped, hostile and honest students --------------------

SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"


def in_a_container(test):
    """Slow, and only as root where setpriv is (util-linux)."""
    for mark in (pytest.mark.slow, as_root,
                 pytest.mark.skipif(not os.path.exists(SETPRIV), reason="setpriv (util-linux) is not here")):
        test = mark(test)
    return test


FINDER = '''"""Walks the file system at import time for the course (its course.toml holds {token!r})."""
import os

SKIP = {{"proc", "sys", "dev", "usr", "lib", "lib64", "bin", "sbin", "etc", "var", "site-packages", ".git"}}


def _find():
    for top, folders, files in os.walk("/"):
        folders[:] = [f for f in folders if f not in SKIP]
        if "course.toml" in files:
            try:
                with open(os.path.join(top, "course.toml")) as toml:
                    if {token!r} in toml.read():
                        return os.path.join(top, "solutions")
            except OSError:
                pass
    return None


SOLUTIONS = _find()
'''

COPIER = '''"""Runs the reference's {module} here, once the walk found the course."""
import os

from exercises import SOLUTIONS

if SOLUTIONS:
    path = os.path.join(SOLUTIONS, "{module}.py")
    with open(path) as source:
        exec(compile(source.read(), path, "exec"), globals())
'''


def copier_submission(target: Path, token: str) -> Path:
    """A student who wrote nothing, and finds the course and executes the reference of every exercise."""
    package = target / "exercises"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(FINDER.format(token=token))
    for module in MODULES:
        (package / f"{module}.py").write_text(COPIER.format(module=module))
    return target


# This repository is a course, and the kit runs from it (an editable install): a container's kit, installed
# from a wheel, has no course beside it. So the container is started in a mount namespace where this
# repository's course is hidden (empty folders, course.toml /dev/null), its code left as it is.
HIDE_THE_REPOSITORYS_COURSE = (
    'for part in "$0"/solutions "$0"/graders; do mount -t tmpfs -o ro,size=1m none "$part"; done; '
    'mount --bind /dev/null "$0"/course.toml; exec "$@"')


def as_a_container(command: list[str], **options) -> subprocess.CompletedProcess:
    """`command` as in a default container: CAP_SYS_ADMIN is not in the bounding set, so no namespaces."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    hide = ["unshare", "--mount", "--propagation", "private", "sh", "-c", HIDE_THE_REPOSITORYS_COURSE, str(REPO)]
    return subprocess.run([*hide, SETPRIV, "--bounding-set", "-sys_admin", *command], capture_output=True,
                          text=True, timeout=300, env={**env, **options.pop("env", {})}, **options)


# The kit's first hostile class, as graded in a container too: those that reach for the course, the
# grader, its output, other sandboxes or the network. Not the memory bomb and the flood of output (the
# limits are the same rlimits with or without namespaces, tested in test_sandbox.py), to keep this
# short; nor the one that walks the file system for any solutions/softmax.py: on a machine holding this
# repository it finds the repository's own copy, which no check of the graded course can hide (the
# copier looks for the graded course itself).
LEFT_OUT = {"crash--walks-filesystem-for-solutions", "crash--memory-bomb", "crash--prints-gigabytes"}
HOSTILE = sorted(p for p in (REPO / "tests" / "adversarial" / "submissions").glob("crash--*")
                 if p.name not in LEFT_OUT)


def attacked(overlay: Path) -> list[str]:
    """The exercises whose modules a hostile overlay replaces: each must score 0."""
    modules = {p.stem for p in overlay.glob("*.py")}
    return [exercise.id for exercise in COURSE.exercises if exercise.module in modules]


@pytest.fixture
def container_class(open_place) -> tuple[Course, Path]:
    """A course copy, readable by all, and a class of an honest student and a copier who knows the course."""
    token = f"course-{secrets.token_hex(6)}"
    course = course_copy(open_place / "course", token)
    reference_submission(open_place / "class" / "honest")
    copier_submission(open_place / "class" / "copier", token)
    return course, open_place / "class"


def digest(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@in_a_container
def test_grade_in_a_container_refuses_a_world_readable_course_in_one_line(container_class):
    course, students = container_class
    done = as_a_container(["attnkit", "grade", str(students), "--out", str(students.parent / "out")],
                          cwd=course.root)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("attnkit: error: ") and f"chmod -R o-rwx {course.root}" in line
    assert not (students.parent / "out" / "grades.csv").exists()


@in_a_container
def test_grade_in_a_container_on_a_private_course_gives_the_copier_nothing(container_class):
    """And the kit's first hostile class: each attack scores 0 on what it attacked, and the course is intact."""
    course, students = container_class
    for overlay in HOSTILE:
        overlay_submission(students / overlay.name, overlay)
    make_private(course.root)
    before = digest(course.root)
    out = students.parent / "out"
    done = as_a_container(["attnkit", "grade", str(students), "--out", str(out), "--jobs", "2"], cwd=course.root)
    assert done.returncode == 0, done.stderr
    assert "not isolated" in done.stderr and "a uid of its own" in done.stderr  # really the fallback
    with open(out / "grades.csv", newline="") as grades:
        rows = {row["student"]: row for row in csv.DictReader(grades)}
    assert float(rows["honest"]["total"]) == COURSE.max_total and float(rows["copier"]["total"]) == 0
    scored = {overlay.name: {e: float(rows[overlay.name][e]) for e in attacked(overlay)} for overlay in HOSTILE}
    assert scored == {overlay.name: dict.fromkeys(attacked(overlay), 0.0) for overlay in HOSTILE}
    assert digest(course.root) == before and out.stat().st_mode & 0o777 == 0o750


def gradescope_root(place: Path, course: Course, submission: Path) -> Path:
    """An AUTOGRADER_ROOT as Gradescope lays it out, with `course` (moved there: no other copy for the
    copier to find) as its course and `submission` uploaded."""
    root = place / "autograder"
    (root / "source").mkdir(parents=True)
    shutil.move(course.root, root / "source" / "course")
    shutil.copy(REPO / "attnkit" / "gradescope" / "scripts" / "run_autograder", root / "run_autograder")
    shutil.copytree(submission, root / "submission")
    return root


def run_autograder(root: Path) -> tuple[subprocess.CompletedProcess, dict]:
    done = as_a_container(["bash", str(root / "run_autograder")], cwd=root, env={"AUTOGRADER_ROOT": str(root)})
    return done, json.loads((root / "results" / "results.json").read_text())


@in_a_container
def test_run_autograder_in_a_container_refuses_a_world_readable_course(container_class):
    course, students = container_class
    done, results = run_autograder(gradescope_root(students.parent, course, students / "copier"))
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = [text for text in done.stdout.splitlines() if text.startswith("attnkit: error: ")]
    assert "chmod -R o-rwx" in line and "--unisolated" in line
    assert results["score"] == 0 and results["tests"] == []


@in_a_container
@pytest.mark.parametrize("student", ["honest", "copier"])
def test_run_autograder_in_a_container_on_a_private_course(container_class, student):
    course, students = container_class
    root = gradescope_root(students.parent, course, students / student)
    make_private(root / "source")
    done, results = run_autograder(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert results["score"] == (COURSE.max_total if student == "honest" else 0), results
