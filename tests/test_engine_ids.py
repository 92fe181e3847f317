"""The engine's own mistake ids have one home (attnkit/grading/engine_ids.py) that grading reads them from."""
from __future__ import annotations

import ast

import pytest

from attnkit.grading import engine_ids
from attnkit.sandbox.protocol import FAILURE_STATUSES
from kit import REPO

GRADING = sorted((REPO / "attnkit" / "grading").rglob("*.py"))


def test_the_sandboxs_failure_statuses_are_engine_ids():
    assert set(FAILURE_STATUSES) <= set(engine_ids.ENGINE_IDS)


@pytest.mark.parametrize("module", [m for m in GRADING if m.name != "engine_ids.py"],
                         ids=lambda m: str(m.relative_to(REPO)))
def test_grading_spells_no_engine_id_out(module):
    spelt = [node.lineno for node in ast.walk(ast.parse(module.read_text()))
             if isinstance(node, ast.Constant) and node.value in engine_ids.ENGINE_IDS]
    assert not spelt, f"{module.name} writes an engine id as a string on line(s) {spelt}: use engine_ids"


def test_docs_contract_names_every_engine_id():
    contract = (REPO / "docs" / "contract.md").read_text()
    assert [i for i in engine_ids.ENGINE_IDS if f"`{i}`" not in contract] == []


def test_every_contract_citation_points_at_the_repositorys_own_page():
    outside = "CONTRACT" + ".md"  # the team's copy outside the repository, which a newcomer cannot open
    cited = [p for p in REPO.rglob("*") if p.suffix in {".py", ".md", ".toml"} and ".git" not in p.parts
             and outside in p.read_text(errors="replace")]
    assert cited == []
