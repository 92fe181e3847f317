"""The self-check from a notebook cell: `from attnkit import check, hint`.

The same public checks as `attnkit check`, run afresh in a process of its own each time; shown as an
escaped HTML table in Jupyter and as text elsewhere; `hint` shows only the failed checks' hints. The
end-to-end test runs it in a real Jupyter kernel (nbclient) on a handout, an endless loop included.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from attnkit.handout import write_handout
from attnkit.notebook import Report, Row
from kit import COURSE

HOSTILE = "<script>alert(1)</script>\x1b[2J\u202e"
LOOPS_FOREVER = "def softmax(scores, dim=-1):\n    while True:\n        pass\n"


def report(**kwargs) -> Report:
    rows = (Row("softmax", "rows sum to 1", True, "", "", ""),
            Row("softmax", f"weights {HOSTILE}", False, "softmax-wrong-dim", f"you said {HOSTILE}", f"try {HOSTILE}"))
    return Report(rows, output=f"printed {HOSTILE}", **kwargs)


@pytest.mark.parametrize("shown", ["html", "text"])
def test_student_text_stays_escaped(shown):
    text = report()._repr_html_() if shown == "html" else str(report())
    assert "\x1b" not in text and "\u202e" not in text and "\\x1b" in text and "\\u202e" in text
    if shown == "html":
        assert "<script>" not in text and "&lt;script&gt;" in text


def test_the_table_names_each_check_and_the_summary_counts_failures():
    html = report()._repr_html_()
    assert html.count("<tr>") == 3 and "softmax-wrong-dim" in html and "1 of 2 public checks failed." in html
    assert "printed" in html


def test_a_failed_check_says_where_it_goes_wrong_escaped_as_the_rest():
    import json

    from attnkit.grading.results import CheckResult, ExerciseResult, Location, SubmissionResult
    from attnkit.notebook import _parsed
    from attnkit.self_check import SelfCheck

    where = Location("softmax.py", 7, f"total = e.sum(0)  # {HOSTILE}", "totals", "powers")
    checked = CheckResult("rows", "test_rows", True, False, 0.0, 1.0, ["softmax-wrong-dim"], "m", "h", location=where)
    record = SelfCheck(SubmissionResult("you", {"softmax": ExerciseResult("softmax", 1.0, [checked])})).to_json()
    shown = _parsed(json.dumps(record))
    assert "where: softmax.py, line 7: `total = e.sum(0)" in str(shown) and "\x1b" not in str(shown)
    assert "Where it goes wrong: softmax.py, line 7" in shown._repr_html_() and "<script>" not in shown._repr_html_()


def test_a_hint_shows_the_failed_checks_hints_only():
    hints = Report(report().rows, hints_only=True)
    assert "try" in str(hints) and "rows sum to 1" not in str(hints) and "you said" not in str(hints)
    assert "rows sum to 1" not in hints._repr_html_() and hints._repr_html_().count("<tr>") == 2
    passed = Report(report().rows[:1], hints_only=True)
    assert str(passed) == "No hints: every public check passed."


def test_a_problem_is_the_one_line_the_command_prints(tmp_path):
    from attnkit import check

    found = check(folder=tmp_path)
    assert found.problem and "course.toml" in found.problem and not found.rows
    assert str(found).startswith("attnkit: ") and "\n" not in str(found)


@pytest.fixture(scope="module")
def handout(tmp_path_factory) -> Path:
    return write_handout(COURSE, tmp_path_factory.mktemp("handout") / "handout")


def outputs(cell) -> str:
    """Everything a cell showed: its HTML, its text, its stream output and any error."""
    shown = []
    for output in cell.outputs:
        data = output.get("data", {})
        shown += [data.get("text/html", ""), data.get("text/plain", ""), output.get("text", ""),
                  output.get("ename", "")]
    return "\n".join(shown)


@pytest.mark.slow
def test_in_a_jupyter_kernel_an_endless_loop_times_out_and_an_edit_is_read_afresh(handout, tmp_path):
    folder = tmp_path / "handout"
    shutil.copytree(handout, folder)
    softmax = folder / "exercises" / "softmax.py"
    reference = (COURSE.solutions_dir / "softmax.py").read_text()
    cells = [
        "from attnkit import check, hint\nimport os\nkernel = os.getpid()",
        "check('softmax')",
        f"open({str(softmax)!r}, 'w').write({LOOPS_FOREVER!r})\ncheck('softmax', timeout=5)",
        f"open({str(softmax)!r}, 'w').write({reference!r})\ncheck('softmax')",
        "hint('softmax')",
        "print(os.getpid() == kernel)",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    stub, looping, fixed, hints, alive = (outputs(cell) for cell in notebook.cells[1:])
    assert "<table>" in stub and "not-implemented" in stub and "2 of 2 public checks failed." in stub
    assert "longer than 5 s and was stopped" in looping and "Your kernel is fine" in looping
    assert "All 2 public checks passed" in fixed and "<table>" in fixed
    assert "No hints: every public check passed." in hints
    assert alive.strip() == "True"
