"""What the student handout holds: public checks and what they reach, the kit's wheel and its pins.

And what it never holds, the wheel included: a statement of the solutions, a hidden check, a mistake
model (the reference computation in torch). Installing the handout in a fresh environment is
tests/test_distribution.py's.
"""
from __future__ import annotations

import ast
import base64
import hashlib
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from attnkit.config import Check, Exercise
from attnkit.distribution import build_wheel, pinned_requirements
from attnkit.handout import INSTALL, KEEP_TORCH, REQUIREMENTS, public_only, write_handout
from attnkit.sandbox import warmup
from kit import COURSE


@pytest.fixture(scope="module")
def handout(tmp_path_factory) -> Path:
    return write_handout(COURSE, tmp_path_factory.mktemp("handout") / "handout")


@pytest.fixture(scope="module")
def handed_out(handout) -> dict[str, str]:
    """Every text handed out, by name: the folder's files and, as `<wheel>/<member>`, the wheel's."""
    texts = {}
    for path in sorted(handout.rglob("*")):
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as wheel:
                texts |= {f"{path.name}/{name}": wheel.read(name).decode("utf-8", "replace")
                          for name in wheel.namelist()}
        elif path.is_file():
            texts[path.relative_to(handout).as_posix()] = path.read_text(encoding="utf-8", errors="replace")
    return texts


def flat(text: str) -> str:
    return " ".join(text.split())


def statements(paths: list[Path]) -> set[str]:
    """The simple statements of these modules (assignments, returns, calls), as written, spaces collapsed."""
    found = set()
    for path in paths:
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.stmt) and not hasattr(node, "body") and not isinstance(
                    node, (ast.Import, ast.ImportFrom, ast.Expr, ast.Pass, ast.Raise)):
                found.add(flat(ast.get_source_segment(source, node)))
    return found


def found_in(texts: dict[str, str], fragments: set[str]) -> dict[str, list[str]]:
    """The fragments each text holds (spaces collapsed on both sides), for the texts holding any."""
    flats = {name: flat(text) for name, text in texts.items()}
    return {name: hits for name, text in flats.items() if (hits := sorted(f for f in fragments if f in text))}


def test_no_statement_of_the_solutions_is_handed_out(handed_out):
    solution = (statements(sorted(COURSE.solutions_dir.glob("*.py")))
                - statements(sorted(COURSE.exercises_dir.glob("*.py"))))
    assert len(solution) >= 8  # the test has something to find: every module's own work
    assert found_in(handed_out, solution) == {}


def test_no_hidden_check_is_handed_out(handed_out):
    hidden = {check.test for exercise in COURSE.exercises for check in exercise.checks if not check.public}
    assert found_in(handed_out, hidden) == {}


def test_no_mistake_model_is_handed_out(handed_out):
    models = sorted(COURSE.mistakes_dir.glob("*.py"))
    assert models
    assert not [name for name in handed_out if name.endswith(tuple(f"/{model.name}" for model in models))
                and not name.startswith(("exercises/", "attnkit"))]
    assert found_in(handed_out, {s for s in statements(models) if len(s) > 15}) == {}


def test_a_public_check_keeps_what_it_reaches_and_loses_the_rest():
    grader = '''"""Hidden checks use a 5x7 grid and seed 99."""
from __future__ import annotations

import numpy as np
import pytest
from attnkit.grading.api import call, layer

SETTINGS = {"threshold": 0.5}
SHAPE = (3, 4)  # the public grid
HIDDEN_SHAPE = (5, 7)


def helper(x):
    """Scales like the hidden check's 5x7 grid."""
    return call("softmax", "softmax", x)


def hidden_only(rng):
    return layer("projection", "SelfAttention", (5, 7))


@pytest.fixture
def grid(rng):
    return rng.normal(size=SHAPE)


def test_public(attempt, grid):
    """rows sum to one"""
    attempt.expect(helper(grid))


def test_hidden(attempt, rng):
    attempt.expect(hidden_only(rng))
'''
    exercise = Exercise("softmax", "Softmax", "softmax", (), 2.0,
                        (Check("test_public", 1.0, True), Check("test_hidden", 1.0, False)))
    kept = public_only(grader, exercise)
    assert "def test_public" in kept and '"""rows sum to one"""' in kept  # a check's docstring is its name
    assert "def helper" in kept and "def grid" in kept and "SHAPE = (3, 4)" in kept and "SETTINGS" in kept
    assert kept.startswith('"""Public checks of exercise `softmax`, run by `attnkit check`; hidden checks run at '
                           'grading."""\nfrom __future__ import annotations\nimport pytest\n')
    assert "from attnkit.grading.api import call\n" in kept and "import numpy" not in kept
    for gone in ("test_hidden", "hidden_only", "HIDDEN_SHAPE", "5x7", "layer"):
        assert gone not in kept
    compile(kept, "test_softmax.py", "exec")


def test_the_requirements_name_the_wheel_and_pin_what_a_student_needs(handout):
    lines = [line for line in (handout / "requirements.txt").read_text().splitlines() if not line.startswith("#")]
    [wheel] = handout.glob("attnkit-*-py3-none-any.whl")
    assert lines == [f"./{wheel.name}", *pinned_requirements()]
    assert sorted(line.split("==")[0] for line in lines[1:]) == ["click", "numpy", "pytest", "torch"]  # not nbgrader


def test_the_wheel_holds_the_engine_with_its_package_data_and_a_true_record(handout):
    [path] = handout.glob("attnkit-*.whl")
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
        shipped = {"attnkit/grading/pytest.ini", "attnkit/gradescope/scripts/run_autograder", "attnkit/cli.py"}
        assert shipped <= set(names)
        assert all(n.startswith(("attnkit/", f"{info}/")) and "__pycache__" not in n for n in names)
        assert "attnkit = attnkit.cli:main" in wheel.read(f"{info}/entry_points.txt").decode()
        for line in wheel.read(f"{info}/RECORD").decode().splitlines():
            name, digest, size = line.rsplit(",", 2)
            if digest:
                data = wheel.read(name)
                encoded = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert digest == "sha256=" + encoded
                assert int(size) == len(data)


def test_the_readme_gives_the_install_command_and_pytorchs_cpu_route(handout):
    readme = (handout / "README.md").read_text()
    torch = next(pin for pin in pinned_requirements() if pin.startswith("torch=="))
    assert f"    {INSTALL}\n" in readme and "CUDA build" in readme
    assert f"    python3 -m pip install {torch} --index-url https://download.pytorch.org/whl/cpu\n" in readme


@pytest.mark.parametrize("place,command", [
    ("A terminal, with pip", INSTALL),
    ("A terminal, with uv", "uv run attnkit check"),
    ("A notebook on your machine", f"%pip install -r {REQUIREMENTS}"),
    ("A hosted notebook with torch already there", f"%pip install -r {KEEP_TORCH}"),
])
def test_the_readme_leads_with_one_command_for_each_place(handout, place, command):
    """Each place's paragraph comes before the exercises and is followed by its one command, as a code block."""
    readme = (handout / "README.md").read_text()
    install = readme[:readme.index("## Fill in the exercises")]
    paragraph = install[install.index(f"**{place}"):]
    blocks = [line.strip() for line in paragraph.split("\n\n") if line.startswith("    ")]
    assert blocks[0] == command and (handout / command.split()[-1]).is_file() or command.startswith("uv run")


def test_the_readme_shows_the_notebooks_check_and_hint(handout):
    readme = (handout / "README.md").read_text()
    assert "    from attnkit import check, hint\n" in readme and '    check("softmax")' in readme
    assert '    hint("softmax")' in readme


def test_a_self_check_imports_torch_only_in_the_sandbox(handout, tmp_path):
    """The recorded answers are numbers: the checking process needs no torch (its import is most of check's time)."""
    folder = tmp_path / "student"
    shutil.copytree(handout, folder)
    for module in COURSE.solutions_dir.glob("*.py"):
        shutil.copy(module, folder / "exercises" / module.name)
    probe = ("import sys\nfrom pathlib import Path\nfrom attnkit.self_check import check_folder\n"
             "run = check_folder(Path('.'))\nprint(run.total, run.failed, 'torch' in sys.modules)\n")
    run = subprocess.run([sys.executable, "-c", probe], cwd=folder, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    total, failed, torch_imported = run.stdout.split()
    assert int(total) > 0 and failed == "0" and torch_imported == "False"


def computations(source: str) -> set[str]:
    """What a module does that computes attention's numbers: an exponential, a softmax, a matrix product."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            found.add("@")
        elif isinstance(node, ast.Attribute) and node.attr in ("exp", "softmax", "matmul", "einsum", "Linear"):
            found.add(node.attr)
    return found


def test_no_code_that_computes_an_exercises_answer_is_handed_out(handed_out):
    """Not the warm parent's package (a batched attention and a projection layer: the graders'), nor cake's
    weights, which students predict by hand (the check that needs them is hidden)."""
    code = {name: text for name, text in handed_out.items()
            if name.endswith(".py") and not name.startswith("exercises/")}
    assert any(name.startswith("checks/") for name in code) and any(".whl/attnkit/" in name for name in code)
    assert {name: found for name, text in code.items() if (found := computations(text))} == {}
    assert computations((COURSE.graders_dir / "test_cake.py").read_text()) >= {"exp", "@"}  # what would be found
    assert set().union(*map(computations, warmup.MODULES.values())) >= {"@", "softmax", "Linear"}


def test_the_graders_wheel_keeps_the_warm_up(tmp_path):
    with zipfile.ZipFile(build_wheel(tmp_path, for_students=False)) as wheel:
        assert "attnkit/sandbox/warmup.py" in wheel.namelist()


def test_the_keep_torch_requirements_are_the_same_but_for_the_torch_pin(handout):
    def lines(name: str) -> list[str]:
        return [line for line in (handout / name).read_text().splitlines() if not line.startswith("#")]

    assert lines(KEEP_TORCH) == [line for line in lines(REQUIREMENTS) if not line.startswith("torch==")]
    assert len(lines(KEEP_TORCH)) == len(lines(REQUIREMENTS)) - 1


def test_the_uv_project_installs_the_wheel_beside_it_with_the_same_pins(handout):
    project = tomllib.loads((handout / "pyproject.toml").read_text())
    assert project["project"]["dependencies"] == ["attnkit", *pinned_requirements()]
    assert (handout / project["tool"]["uv"]["sources"]["attnkit"]["path"]).is_file()
    [torch] = project["tool"]["uv"]["sources"]["torch"]
    [index] = project["tool"]["uv"]["index"]
    assert torch["index"] == index["name"] and index["url"] == "https://download.pytorch.org/whl/cpu"
    assert index["explicit"] and project["tool"]["uv"]["package"] is False
