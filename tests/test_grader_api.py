"""Graders import the kit only through attnkit.grading.api, and only the names it declares."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from attnkit.grading import api
from kit import REPO

GRADERS = sorted([*(REPO / "graders").glob("test_*.py"), *(REPO / "tests" / "courses").glob("*/graders/test_*.py")])


def kit_imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Each import of attnkit in a grader: the module, and the names taken from it."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "attnkit":
            found.append((node.module or "", tuple(alias.name for alias in node.names)))
        elif isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names if alias.name.split(".")[0] == "attnkit"]
    return found


def test_every_course_has_graders():
    courses = {REPO, *(REPO / "tests" / "courses" / name for name in ("causal", "layernorm"))}
    assert {p.parent.parent for p in GRADERS} >= courses


@pytest.mark.parametrize("grader", GRADERS, ids=lambda p: str(p.relative_to(REPO)))
def test_a_grader_imports_only_the_grader_api(grader):
    imports = kit_imports(grader)
    assert imports, f"{grader} imports nothing of the kit"
    for module, names in imports:
        assert module == "attnkit.grading.api", f"{grader} imports {module}"
        assert set(names) <= set(api.__all__), f"{grader} imports {set(names) - set(api.__all__)}"


def test_the_guide_documents_exactly_the_grader_api():
    guide = (REPO / "docs" / "writing-an-exercise.md").read_text()
    assert set(re.findall(r"attnkit\.grading\.\w+", guide)) == {"attnkit.grading.api"}
    for name in api.__all__:
        assert f"`{name}" in guide, f"docs/writing-an-exercise.md does not document {name}"


def test_the_api_exports_what_it_declares():
    assert all(hasattr(api, name) for name in api.__all__)


def test_the_guide_documents_every_public_method_of_the_attempt():
    guide = (REPO / "docs" / "writing-an-exercise.md").read_text()
    public = [name for name in vars(api.Attempt) if not name.startswith("_")]
    assert [name for name in public if f"`{name}" not in guide] == []
