"""The kit installed as its users install it, each time into a fresh virtual environment of its own.

- a student's handout, with its README's command, on a machine with no course repository;
- a wheel built from the course repo (pip wheel), grading a class as the editable install does;
- Gradescope's setup.sh, then run_autograder with the environment it made.

No network is needed here: torch 2.13.0's CPU wheel lies on this machine's disk, where pip's own
configuration finds it, so a fresh install takes half a minute. PIP_NO_COMPILE only saves the time of
compiling torch's files ahead of use. Each environment (about 1 GB) is removed once its tests end.

The handout's install runs once, from nothing, in a fresh environment of the module's (its own test
checks it), side by side with Gradescope's setup.sh (each is one pip process, most of it unpacking torch
on one core, and the machine has two). The two pip tests that need the dependencies present and attnkit
absent (the built wheel; a torch already installed) start from an environment of their own holding hard
links to that one's packages but attnkit (`venv_like`): torch is unpacked once for the three, not three
times, and each test still installs attnkit its own way into its own environment.
"""
from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from attnkit.distribution import DISTRIBUTION, pinned_requirements
from attnkit.gradescope.export import write_autograder
from attnkit.handout import INSTALL, KEEP_TORCH, REQUIREMENTS, write_handout
from kit import CATALOGUE, COURSE, REPO, course_copy, reference_submission, variant_submission

pytestmark = pytest.mark.slow


def new_venv(venv: Path) -> Path:
    """A new virtual environment with nothing of this one's (no system site-packages)."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    return venv


def site_packages(venv: Path) -> Path:
    [folder] = (venv / "lib").glob("python3*/site-packages")
    return folder


def venv_like(installed: Path, venv: Path) -> Path:
    """A new virtual environment holding what `installed` has in its site-packages, attnkit left out.

    Hard links: the same files at no cost of time or disk. pip replaces or removes an installed file,
    never writes into one, and so does `relabel_torch`, so nothing done here reaches `installed`."""
    new_venv(venv)
    site = site_packages(venv)
    for entry in site_packages(installed).iterdir():
        if entry.name.startswith(DISTRIBUTION) or (site / entry.name).exists():  # attnkit; the new venv's pip
            continue
        if entry.is_dir():
            shutil.copytree(entry, site / entry.name, copy_function=os.link)
        else:
            os.link(entry, site / entry.name)
    return venv


@dataclass
class Handout:
    venv: Path
    student: Path  # the handout, copied far from the course as a student keeps it
    installed: subprocess.CompletedProcess  # its README's install command, run in `venv`


@dataclass
class Autograder:
    root: Path  # AUTOGRADER_ROOT, the zip unpacked in source/ as Gradescope lays it out
    env: dict[str, str]
    setup: subprocess.CompletedProcess  # source/setup.sh, which made root/venv


@dataclass
class Installs:
    handout: Handout
    autograder: Autograder


@pytest.fixture(scope="module")
def installs(tmp_path_factory) -> Iterator[Installs]:
    """The two installs from nothing, side by side: a handout's README command in a fresh virtual
    environment, and Gradescope's setup.sh; each test checks its own. Both removed afterwards."""
    folder = tmp_path_factory.mktemp("handout")
    venv = new_venv(folder / "venv")
    student = shutil.copytree(write_handout(COURSE, folder / "handout"), folder / "far" / "from" / "the" / "course")
    scratch = tmp_path_factory.mktemp("gradescope")
    root = scratch / "autograder"
    with zipfile.ZipFile(write_autograder(COURSE, scratch)) as archive:
        archive.extractall(root / "source")
    empty_index = scratch / "no-index"
    empty_index.mkdir()
    env = {**inside(None), "AUTOGRADER_ROOT": str(root),
           # PyTorch's CPU index cannot be reached from here: an empty index stands in for it, and pip's
           # configuration on this machine finds the same CPU wheel on disk.
           "TORCH_INDEX_URL": empty_index.as_uri()}
    with ThreadPoolExecutor(2) as pool:
        handout_install = pool.submit(sh, INSTALL, student, inside(venv))
        setup = pool.submit(sh, ["bash", "source/setup.sh"], root, env, 900)
    yield Installs(Handout(venv, student, handout_install.result()), Autograder(root, env, setup.result()))
    shutil.rmtree(venv, ignore_errors=True)
    shutil.rmtree(root / "venv", ignore_errors=True)


@pytest.fixture(scope="module")
def handout(installs) -> Handout:
    return installs.handout


@pytest.fixture
def venv_with_the_dependencies(handout, tmp_path):
    """A new virtual environment holding the handout's dependencies (torch among them), not attnkit."""
    assert handout.installed.returncode == 0, handout.installed.stderr
    venv = venv_like(handout.venv, tmp_path / "venv")
    yield venv
    shutil.rmtree(venv, ignore_errors=True)


def inside(venv: Path | None) -> dict[str, str]:
    """The environment of a shell where `venv` is activated (or none is), far from this test's own."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    path = [p for p in env["PATH"].split(os.pathsep) if Path(p) != Path(sys.executable).parent]
    env["PATH"] = os.pathsep.join(([str(venv / "bin")] if venv else []) + path)
    env["PIP_NO_COMPILE"] = "1"
    return env


def sh(command: str | list[str], cwd: Path, env: dict[str, str], timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=env, shell=isinstance(command, str), capture_output=True, text=True,
                          timeout=timeout)


def test_the_handout_installs_on_its_own_then_checks_and_submits(handout, tmp_path):
    student, env = handout.student, inside(handout.venv)
    assert f"    {INSTALL}\n" in (student / "README.md").read_text()
    assert handout.installed.returncode == 0, handout.installed.stderr
    where = sh(["python3", "-c", "import attnkit; print(attnkit.__file__)"], tmp_path, env)
    assert where.stdout.startswith(str(handout.venv)), where.stdout + where.stderr

    stubs = sh(["attnkit", "check"], student, env)
    lines = [line for line in stubs.stdout.splitlines() if line.startswith(("✓", "✗"))]
    assert stubs.returncode == 1 and lines and all("[not-implemented]" in line for line in lines), \
        stubs.stdout + stubs.stderr
    shutil.rmtree(student / "exercises")
    shutil.copytree(COURSE.solutions_dir, student / "exercises")
    reference = sh(["attnkit", "check", "--json"], student, env)
    assert reference.returncode == 0 and json.loads(reference.stdout)["failed"] == 0, \
        reference.stdout + reference.stderr
    submitted = sh(["attnkit", "submit", "--student", "alice"], student, env)
    assert submitted.returncode == 0, submitted.stderr
    assert sorted(zipfile.ZipFile(student / "alice.zip").namelist()) == sorted(
        f"exercises/{p.name}" for p in COURSE.solutions_dir.glob("*.py"))


def grades(csv_path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(csv_path.open()))


def test_a_built_wheel_grades_a_class_as_the_editable_install_does(venv_with_the_dependencies, tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source)
    shutil.copytree(REPO / "attnkit", source / "attnkit", ignore=shutil.ignore_patterns("__pycache__"))
    env = inside(venv_with_the_dependencies)
    built = sh(["python3", "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(tmp_path / "dist")], tmp_path, env)
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp_path / "dist").glob("attnkit-*.whl")
    installed = sh(["python3", "-m", "pip", "install", str(wheel), *pinned_requirements()], tmp_path, env)
    assert installed.returncode == 0, installed.stderr

    klass = tmp_path / "class"
    reference_submission(klass / "ada")
    variant_submission(klass / "bob", CATALOGUE["softmax-wrong-dim"].variants[0])
    (klass / "eve.zip").write_text("not a zip")
    course = course_copy(tmp_path / "course")
    with_wheel = sh(["attnkit", "grade", str(klass), "--out", str(tmp_path / "wheel-grades")], course, env)
    assert with_wheel.returncode == 0, with_wheel.stderr
    editable = sh([shutil.which("attnkit"), "grade", str(klass), "--out", str(tmp_path / "editable-grades")], course,
                  os.environ)
    assert editable.returncode == 0, editable.stderr
    rows = grades(tmp_path / "wheel-grades" / "grades.csv")
    assert rows == grades(tmp_path / "editable-grades" / "grades.csv")
    assert [(r["student"], float(r["total"])) for r in rows] == [("ada", COURSE.max_total), ("bob", 13.0), ("eve", 0.0)]


def test_setup_sh_installs_the_autograder_and_run_autograder_grades_with_it(installs, tmp_path):
    root, env, setup = installs.autograder.root, installs.autograder.env, installs.autograder.setup
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    where = sh([str(root / "venv" / "bin" / "python"), "-c", "import attnkit, torch; print(attnkit.__file__)"],
               tmp_path, env)
    assert where.stdout.startswith(str(root / "venv")), where.stdout + where.stderr
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    reference_submission(root / "submission")
    graded = sh(["bash", "run_autograder"], root, env)
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == COURSE.max_total, graded.stdout + graded.stderr


def relabel_torch(venv: Path, version: str) -> None:
    """Make the venv's torch say it is `version`: another torch 2.2 or later, as a hosted notebook has one,
    with the one torch wheel this machine keeps (its code is the real one; only its version is told apart)."""
    [info] = site_packages(venv).glob("torch-*.dist-info")
    metadata_file = info / "METADATA"
    lines = [f"Version: {version}" if line.startswith("Version: ") else line
             for line in metadata_file.read_text().splitlines()]
    metadata_file.unlink()  # a hard link (venv_like): replaced, never written into
    metadata_file.write_text("\n".join(lines) + "\n")
    info.rename(info.with_name(f"torch-{version}.dist-info"))


def test_a_torch_already_installed_is_kept_and_check_notes_it_once(venv_with_the_dependencies, tmp_path):
    handout = write_handout(COURSE, tmp_path / "handout")
    env = inside(venv_with_the_dependencies)
    torch_pin = next(pin for pin in pinned_requirements() if pin.startswith("torch=="))
    relabel_torch(venv_with_the_dependencies, "2.5.1")
    replaced = sh(f"python3 -m pip install --dry-run -r {REQUIREMENTS}", handout, env)
    recorded = torch_pin.split("==")[1]
    assert f"torch-{recorded}" in replaced.stdout  # the pinned route would replace it: what the second file is for

    kept = sh(f"python3 -m pip install -r {KEEP_TORCH}", handout, env)
    assert kept.returncode == 0, kept.stderr
    [installing] = [line for line in kept.stdout.splitlines() if line.startswith("Installing collected packages")]
    assert "attnkit" in installing and "torch" not in installing
    version = sh(["python3", "-c", "from importlib.metadata import version; print(version('torch'))"], tmp_path, env)
    assert version.stdout.strip() == "2.5.1"

    shutil.rmtree(handout / "exercises")
    shutil.copytree(COURSE.solutions_dir, handout / "exercises")
    checked = sh(["attnkit", "check"], handout, env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(f"Note: your torch is 2.5.1; these checks were recorded with torch {recorded}.") == 1


def simple_index(folder: Path, wheels: Path) -> Path:
    """A package index (PEP 503) of the wheels in `wheels`: how the test points uv's CPU-torch index here."""
    for wheel in wheels.glob("*.whl"):
        project = folder / wheel.name.split("-")[0].lower()
        project.mkdir(parents=True, exist_ok=True)
        with (project / "index.html").open("a") as page:
            page.write(f'<a href="{wheel.resolve().as_uri()}">{wheel.name}</a>\n')
    return folder


def test_the_handout_is_a_uv_project_that_checks_and_submits(tmp_path):
    """`uv run` in a fresh copy: a .venv of its own, from the handout's pyproject.toml, with uv from PyPI.
    Pointed at this machine's wheels as pip is (PIP_FIND_LINKS), and its CPU-torch index at an index of them."""
    uv = shutil.which("uv", path=str(Path(sys.executable).parent))
    assert uv, "uv is in requirements.txt"
    student = write_handout(COURSE, tmp_path / "far" / "handout")
    wheels = Path(os.environ.get("PIP_FIND_LINKS", "/opt/wheels"))
    env = inside(None) | {"UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_PYTHON_DOWNLOADS": "never",
                          "UV_FIND_LINKS": str(wheels),
                          "UV_INDEX": f"pytorch-cpu={simple_index(tmp_path / 'index', wheels).as_uri()}"}
    try:
        stubs = sh([uv, "run", "attnkit", "check"], student, env)
        lines = [line for line in stubs.stdout.splitlines() if line.startswith(("✓", "✗"))]
        assert stubs.returncode == 1 and lines and all("[not-implemented]" in line for line in lines), \
            stubs.stdout + stubs.stderr
        assert (student / ".venv").is_dir() and (student / "uv.lock").is_file()
        shutil.rmtree(student / "exercises")
        shutil.copytree(COURSE.solutions_dir, student / "exercises")
        reference = sh([uv, "run", "attnkit", "check", "--json"], student, env)
        assert reference.returncode == 0 and json.loads(reference.stdout)["failed"] == 0, reference.stderr
        submitted = sh([uv, "run", "attnkit", "submit", "--student", "alice"], student, env)
        assert submitted.returncode == 0, submitted.stderr
        assert sorted(zipfile.ZipFile(student / "alice.zip").namelist()) == sorted(
            f"exercises/{p.name}" for p in COURSE.solutions_dir.glob("*.py"))

        own = tmp_path / "uv-venv"  # the README's other uv route: a uv venv of the student's own
        assert sh([uv, "venv", str(own)], student, env).returncode == 0
        installed = sh([uv, "pip", "install", "--python", str(own), "-r", REQUIREMENTS], student, env)
        assert installed.returncode == 0, installed.stderr
        assert sh([str(own / "bin" / "attnkit"), "check"], student, env).returncode == 0
    finally:
        shutil.rmtree(tmp_path / "uv-cache", ignore_errors=True)
        shutil.rmtree(student / ".venv", ignore_errors=True)
