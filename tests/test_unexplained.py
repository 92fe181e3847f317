"""The instructor's view of a class: uncatalogued mistakes grouped by what they compute, and shared code.

A small class with planted groups is graded once for real (sandboxes, hidden inputs); every test reads
the report it wrote. Six students share one uncatalogued softmax (temperature 2) written three ways,
three share another (one added to the total), two compute wrong things of their own. Two pairs share
their projection layer under other local names, comments and layout; three more wrote theirs
independently (one as the lesson prints it), and two hand in the reference.
"""
from __future__ import annotations

import json
import shutil
import tomllib

import pytest

from attnkit.class_grading import grade_class
from attnkit.config import load_course
from attnkit.gradebook import ANSWERS
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult, WrongAnswer
from attnkit.unexplained import group_unexplained
from kit import COURSE, REPO, overlay_submission, reference_submission

HEADER = "import torch\n\n\ndef softmax(scores, dim=-1):\n"
HALF_TEMPERATURE = [
    "    e = torch.exp(scores / 2)\n    return e / e.sum(dim=dim, keepdim=True)\n",
    "    shifted = 0.5 * (scores - scores.amax(dim=dim, keepdim=True))\n"
    "    weights = shifted.exp()\n    return weights / torch.sum(weights, dim, keepdim=True)\n",
    "    # e to the score, square-rooted\n    root = torch.sqrt(torch.exp(scores))\n"
    "    total = root.sum(dim, keepdim=True)\n    return root / total\n",
]
ONE_MORE = [
    "    e = torch.exp(scores)\n    return e / (1 + e.sum(dim=dim, keepdim=True))\n",
    "    top = torch.exp(scores)\n    bottom = top.sum(dim, keepdim=True) + 1.0\n    return top / bottom\n",
    "    return torch.exp(scores) / (torch.exp(scores).sum(dim=dim, keepdim=True) + torch.ones(1))\n",
]
ALONE = {
    "kim": "    e = torch.exp(3 * scores)\n    return e / e.sum(dim=dim, keepdim=True)\n",
    "lee": "    s = scores ** 2 + 1\n    return s / s.sum(dim=dim, keepdim=True)\n",
}
LAYER_HEAD = "import torch\nfrom torch import nn\n\nfrom .attention import attention\n\n\n" \
    "class SelfAttention(nn.Module):\n    def __init__(self, d_model, d_k):\n        super().__init__()\n" \
    "        self.W_q = nn.Linear(d_model, d_k, bias=False)\n        self.W_k = nn.Linear(d_model, d_k, bias=False)\n" \
    "        self.W_v = nn.Linear(d_model, d_k, bias=False)\n\n"
LAYERS = {
    "sam": """
    def forward(self, x):
        q = self.W_q(x)
        k = self.W_k(x)
        v = self.W_v(x)
        out, w = attention(q, k, v)
        return out, w
""",
    "tom": """
    def forward(self, tokens):
        # project the tokens three ways

        query = self.W_q(tokens)
        key = self.W_k( tokens )
        value = self.W_v(tokens)
        result, weights = attention(query, key, value)  # as in the lesson
        return result, weights
""",
    "uma": """
    def forward(self, x):
        projected = [layer(x) for layer in (self.W_q, self.W_k, self.W_v)]
        return attention(*projected)
""",
    "vic": """
    def forward(self, inputs):
        \"\"\"Queries, keys, values.\"\"\"
        ps = [m(inputs)
              for m in (self.W_q, self.W_k, self.W_v)]
        return attention(*ps)
""",
    "wes": """
    def forward(self, x):
        Q = self.W_q(x)
        K = self.W_k(x)
        return attention(Q, K, self.W_v(x))
""",
    "xia": """
    def forward(self, x):
        Q, K, V = self.W_q(x), self.W_k(x), self.W_v(x)
        return attention(Q, K, V)
""",
    "yan": """
    def forward(self, x):
        out = attention(self.W_q(x), self.W_k(x), self.W_v(x))
        return out[0], out[1]
""",
}
CLASS = {**{f"half{i}": HALF_TEMPERATURE[i % 3] for i in range(6)},
         **{f"more{i}": ONE_MORE[i] for i in range(3)}, **ALONE}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    for student, body in CLASS.items():
        overlay = root / "overlays" / student
        overlay.mkdir(parents=True)
        (overlay / "softmax.py").write_text(HEADER + body)
        overlay_submission(root / "class" / student, overlay)
    for student, body in LAYERS.items():
        overlay = root / "overlays" / student
        overlay.mkdir(parents=True)
        (overlay / "projection.py").write_text(LAYER_HEAD + body)
        overlay_submission(root / "class" / student, overlay)
    for honest in ("ann", "bob"):
        reference_submission(root / "class" / honest)
    out = root / "out"
    grade_class(COURSE, root / "class", out, jobs=2)
    return out


def groups_of(out):
    report = json.loads((out / "report.json").read_text())
    return report["exercises"]["softmax"]["unexplained"]


def test_each_planted_group_is_found_whole_with_no_foreign_member(graded):
    groups = groups_of(graded)
    assert [sorted(g["students"]) for g in groups] == [[f"half{i}" for i in range(6)],
                                                       [f"more{i}" for i in range(3)], ["kim"], ["lee"]]
    assert [g["size"] for g in groups] == [6, 3, 1, 1]
    assert all(g["checks"] for g in groups)
    assert groups[0]["step"] in ("shift", "powers")  # where most of the group first goes wrong (located)


def test_the_numbers_stay_out_of_the_students_feedback(graded):
    feedback = (graded / "feedback" / "half0.json").read_text()
    assert '"answer"' not in feedback and "inputs" not in feedback
    assert "half0" in json.loads((graded / ANSWERS).read_text())


def test_the_page_and_the_exercises_without_groups(graded):
    page = (graded / "report.html").read_text()
    assert "Mistakes nobody catalogued" in page and "half0" in page
    assert groups_of(graded) and json.loads((graded / "report.json").read_text())["exercises"]["cake"][
        "unexplained"] == []


def answer_result(student: str, numbers: list[float | str], inputs: str = "same") -> SubmissionResult:
    check = CheckResult("rows", "test_rows", False, False, 0.0, 1.0, ["wrong-values"],
                        answer=WrongAnswer(inputs, [[len(numbers)]], [list(numbers)], 1e-3, 1e-5))
    return SubmissionResult(student, {"softmax": ExerciseResult("softmax", 1.0, [check])})


def test_answers_within_the_tolerance_group_and_just_outside_do_not():
    groups = group_unexplained("softmax", [answer_result("a", [1.0, 2.0]), answer_result("b", [1.0005, 2.001]),
                                           answer_result("c", [1.01, 2.0])])
    assert [g.students for g in groups] == [["a", "b"], ["c"]]


def test_answers_on_other_inputs_are_never_put_together():
    groups = group_unexplained("softmax", [answer_result("a", [1.0]), answer_result("b", [1.0], inputs="other")])
    assert [g.size for g in groups] == [1, 1]


def test_shared_code_finds_the_two_pairs_and_no_honest_pair(graded):
    shared = json.loads((graded / "report.json").read_text())["shared_code"]
    assert shared == [{"exercise": "projection", "students": ["sam", "tom"]},
                      {"exercise": "projection", "students": ["uma", "vic"]}]
    feedback = json.loads((graded / "feedback" / "sam.json").read_text())
    assert "code" not in feedback and "shared" not in json.dumps(feedback)
    assert "Shared code" in (graded / "report.html").read_text()


def test_shared_code_is_off_when_the_course_says_so(graded):
    from dataclasses import replace

    from attnkit.class_report import build_report
    from attnkit.gradebook import Gradebook
    from attnkit.settings import Report

    course = replace(COURSE, report=Report(shared_code=False))
    assert build_report(course, Gradebook(graded, course).results.values()).to_json()["shared_code"] == []


def draft(graded, *args):
    from test_cli import run

    return run(["catalogue", "draft", str(graded), *args], REPO)


def test_a_group_drafts_a_catalogue_entry_with_its_evidence(graded):
    result = draft(graded, "softmax", "1", "--submissions", str(graded.parent / "class"))
    assert result.exit_code == 0, result.output
    text = result.output
    assert "6 student(s): half0, half1, half2, half3, half4, half5" in text
    assert "# Checks it fails: " in text and "differs from the expected values by up to" in text
    assert "#         e = torch.exp(scores / 2)" in text  # the first student's code, as a comment
    entry = tomllib.loads(text)["mistake"]["softmax-TODO-name-it"]
    assert entry["exercise"] == "softmax" and entry["summary"].startswith("TODO")


def test_a_group_that_is_not_there_is_refused_in_one_line(graded):
    result = draft(graded, "softmax", "9")
    assert result.exit_code == 2 and "no group 9" in result.output and len(result.output.splitlines()) == 1


def test_the_drafted_entry_completed_as_the_guide_says_names_the_group_on_the_next_run(graded, tmp_path):
    course_copy = tmp_path / "course"
    course_copy.mkdir()
    for part in ("graders", "solutions", "exercises"):
        shutil.copytree(REPO / part, course_copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "course.toml", course_copy / "course.toml")
    text = draft(graded, "softmax", "1").output  # step 1: the draft, appended
    text = text.replace("softmax-TODO-name-it", "softmax-half-temperature")  # step 2: the author's fields
    text = text.replace('"TODO: a few words an instructor reads in the report"', '"scores halved before e^score"')
    text = text.replace("  # TODO: { module", "  { module").replace(
        '"<text of solutions/softmax.py>", "<what the group wrote instead>"',
        '"exps = torch.exp(shifted)", "exps = torch.exp(shifted / 2)"')
    catalogue = course_copy / "graders" / "mistakes" / "softmax.toml"
    catalogue.write_text(catalogue.read_text() + "\n" + text)
    model = course_copy / "graders" / "mistakes" / "softmax.py"  # step 3: the switch in the model
    line = '    exps = f.step("powers", shifted if f.on("softmax-no-exp") else torch.exp(shifted))\n'
    assert line in model.read_text()
    model.write_text(model.read_text().replace(
        line, '    shifted = shifted / 2 if f.on("softmax-half-temperature") else shifted\n' + line))
    again = tmp_path / "out"
    group = tmp_path / "group"
    for student in [f"half{i}" for i in range(6)] + ["kim"]:
        shutil.copytree(graded.parent / "class" / student, group / student)
    grade_class(load_course(course_copy / "course.toml"), group, again, jobs=2)  # step 5
    for student in [f"half{i}" for i in range(6)]:
        found = json.loads((again / "feedback" / f"{student}.json").read_text())["exercises"]["softmax"]["mistakes"]
        assert "softmax-half-temperature" in found, (student, found)
    kim = json.loads((again / "feedback" / "kim.json").read_text())["exercises"]["softmax"]["mistakes"]
    assert "softmax-half-temperature" not in kim
    assert [g["students"] for g in groups_of(again)] == [["kim"]]


def test_every_student_string_of_the_new_parts_is_escaped():
    from attnkit.class_report import build_report
    from attnkit.class_report_page import render_html
    from attnkit.grading.results import Location
    from attnkit.shared_code import SharedCode

    hostile = "<script>alert(1)</script>"
    results = [answer_result(hostile, [1.0]), answer_result(hostile + "2", [1.0])]
    for result in results:
        check = result.exercises["softmax"].checks[0]
        check.location = Location("softmax.py", 3, "x = '<img src=x onerror=alert(2)>'", "powers", None)
    report = build_report(COURSE, results)
    report.shared_code = [SharedCode("softmax", [hostile, hostile + "2"])]
    page = render_html(report)
    assert "<script>" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x onerror=alert(2)&gt;" in page


def test_attnkit_report_later_finds_the_same_groups_from_disk(graded, tmp_path):
    from attnkit.class_report import write_report

    copy = tmp_path / "out"
    shutil.copytree(graded, copy)
    (copy / "report.json").unlink()
    write_report(copy, COURSE)
    assert groups_of(copy) == groups_of(graded)


def test_grade_closing_summary_names_the_largest_groups(graded):
    import io

    from attnkit.class_grading import ClassRun
    from attnkit.class_report import build_report
    from attnkit.cli import print_top_mistakes
    from attnkit.console import Console
    from attnkit.gradebook import Gradebook

    run = ClassRun(graded, report=build_report(COURSE, Gradebook(graded, COURSE).results.values()))
    printed = io.StringIO()
    print_top_mistakes(run, Console.from_environment({}, out=printed, err=io.StringIO()))
    lines = printed.getvalue().splitlines()
    at = lines.index("Largest groups computing the same uncatalogued wrong answer (see the report):")
    assert lines[at + 1].split()[:3] == ["6", "students", "softmax:"]
    assert lines[at + 2].split()[:3] == ["3", "students", "softmax:"] and len(lines) == at + 3
