"""The class report: figures right, every student string escaped, one page that opens offline."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from attnkit.class_report import REPORT_HTML, REPORT_JSON, ClassCounts, build_report, write_report
from attnkit.class_report_page import render_html
from attnkit.gradebook import Gradebook, broken_result
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult
from kit import COURSE

HOSTILE = "<img src=x onerror=alert(1)><script>alert(2)</script>\x1b[31m"


def result_with(student: str, mistakes: dict[str, list[str]]) -> SubmissionResult:
    """Every check passed except, in each exercise named, one failed check naming those mistakes."""
    exercises = {}
    for exercise in COURSE.exercises:
        checks = [CheckResult(c.test, c.test, c.public, True, c.points, c.points) for c in exercise.checks]
        if exercise.id in mistakes:
            checks[0].passed, checks[0].points, checks[0].mistakes = False, 0.0, mistakes[exercise.id]
        exercises[exercise.id] = ExerciseResult(exercise.id, exercise.points, checks)
    return SubmissionResult(student, exercises)


CLASS = [
    result_with("ann", {}),
    result_with("ben", {"softmax": ["softmax-wrong-dim"]}),
    result_with("cat", {"softmax": ["softmax-wrong-dim", "softmax-unstable"], "cake": ["cake-prediction-off"]}),
    result_with(HOSTILE, {"softmax": ["softmax-wrong-dim"]}),
]


def test_each_exercise_has_its_mean_full_marks_and_mistakes_with_who_made_them():
    report = build_report(COURSE, CLASS).to_json()
    softmax = report["exercises"]["softmax"]
    assert softmax["max_score"] == 4 and softmax["full_marks"] == 1 and softmax["mean"] == 3.25
    assert {m["id"]: m["count"] for m in softmax["mistakes"]} == {"softmax-wrong-dim": 3, "softmax-unstable": 1}
    assert softmax["mistakes"][0]["students"] == [HOSTILE, "ben", "cat"]  # sorted by id
    assert report["exercises"]["attention"] == {"title": COURSE.exercise("attention").title, "mean": 3.0,
                                                 "max_score": 3.0, "full_marks": 4, "mistakes": [],
                                                 "unexplained": []}
    assert [s["student"] for s in report["students"]] == [HOSTILE, "ann", "ben", "cat"]


def test_the_most_common_mistakes_come_first():
    top = build_report(COURSE, CLASS).top_mistakes(2)
    assert [(e.id, m.id, m.count) for e, m in top] == [("softmax", "softmax-wrong-dim", 3),
                                                        ("softmax", "softmax-unstable", 1)]


def test_a_broken_submission_counts_as_zero_and_is_listed_with_its_reason():
    broken = broken_result(COURSE, "dan", "dan.zip: not a zip file")
    report = build_report(COURSE, [result_with("ann", {}), broken])
    assert report.to_json()["exercises"]["cake"]["mean"] == 1.5
    page = render_html(report)
    assert "2 students, 1 graded and 1 broken (zeros)" in page and "dan.zip: not a zip file" in page


def test_the_page_escapes_every_student_string_and_needs_nothing_from_outside():
    page = render_html(build_report(COURSE, CLASS))
    assert "<script" not in page and "<img" not in page and "\x1b" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert not re.search(r"""<[^>]*\b(src|href)\s*=|@import|url\(|<link|<iframe""", page)
    assert page.count("<svg") >= 3 and "http://www.w3.org/2000/svg" in page


def test_write_report_reads_the_gradebook_and_writes_both_files(tmp_path):
    book = Gradebook(tmp_path, COURSE)
    for result in CLASS:
        book.record(result)
    book.save()
    write_report(tmp_path, COURSE)
    report = json.loads((tmp_path / REPORT_JSON).read_text())
    assert len(report["students"]) == 4 and report["exercises"]["softmax"]["full_marks"] == 1
    assert (tmp_path / REPORT_HTML).read_text().startswith("<!DOCTYPE html>")


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")
def test_a_real_browser_draws_the_page_offline(tmp_path):
    page = tmp_path / REPORT_HTML
    page.write_text(render_html(build_report(COURSE, CLASS)), encoding="utf-8")
    browser = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--window-size=1100,2000", "--user-data-dir=" + str(tmp_path / "profile")]
    dom = subprocess.run([*browser, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert dom.stdout.count("<svg") >= 3 and "<script" not in dom.stdout
    assert "&lt;img src=x onerror=alert(1)&gt;" in dom.stdout  # shown as text, not run
    shot = subprocess.run([*browser, f"--screenshot={tmp_path / 'page.png'}", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert shot.returncode == 0 and (tmp_path / "page.png").stat().st_size > 20_000  # a drawn page, not a blank


def test_each_check_counts_its_failures_and_the_mistakes_behind_them():
    checks = {(c["exercise"], c["test"]): c for c in build_report(COURSE, CLASS).to_json()["checks"]}
    first = COURSE.exercise("softmax").checks[0].test
    assert checks[("softmax", first)]["failed"] == 3 and checks[("softmax", first)]["graded"] == 4
    assert checks[("softmax", first)]["mistakes"] == [{"id": "softmax-wrong-dim", "count": 3}]
    assert all(c["failed"] == 0 for (e, t), c in checks.items() if (e, t) != ("softmax", first) and e != "cake")
    assert len(checks) == sum(len(e.checks) for e in COURSE.exercises)


def test_the_lowest_scorers_come_with_their_first_mistake():
    lowest = build_report(COURSE, CLASS).to_json()["lowest"]
    assert lowest[0] == {"student": "cat", "score": CLASS[2].score, "first_mistake": "softmax-wrong-dim",
                         "exercise": "softmax"}
    assert lowest[-1]["student"] == "ann" and lowest[-1]["first_mistake"] is None


def test_every_mistake_id_is_shown_with_its_meaning_from_the_catalogue():
    report = build_report(COURSE, CLASS)
    page = render_html(report)
    assert "normalises columns (dim 0) instead of rows" in page
    assert report.to_json()["exercises"]["softmax"]["mistakes"][0]["summary"] == \
        "normalises columns (dim 0) instead of rows"
    assert "Checks the class fails" in page and "Lowest scores" in page


def test_counts_read_a_one_pass_iterable_of_results_once():
    results = [broken_result(COURSE, "ann", "no exercises folder"), broken_result(COURSE, "bob", "")]
    counts = ClassCounts.count(iter(results), {"ann": ["ann", "ANN.zip"]})
    assert (counts.students, counts.graded, counts.broken, counts.duplicates) == (2, 1, 1, 1)
