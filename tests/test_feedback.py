"""A check's feedback says each thing once, in the catalogue's words (attnkit/grading/feedback.py)."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.feedback import check_feedback
from attnkit.grading.memory import CheckRecord
from kit import CATALOGUE, COURSE

SOFTMAX = COURSE.exercise("softmax")


def test_two_requests_failing_alike_are_told_once():
    detail = "RuntimeError: The size of tensor a (5) must match the size of tensor b (3)"
    record = CheckRecord([Finding.named("crash", detail=detail), Finding.named("crash", detail=detail)])
    message, hint = check_feedback(record, SOFTMAX, COURSE, CATALOGUE)
    assert message.count("The size of tensor a") == 1
    assert message.count(CATALOGUE["crash"].explanation.split(".")[0]) == 1


def test_different_details_are_each_told():
    record = CheckRecord([Finding.named("wrong-values", detail="`weights` differs by up to 0.5"),
                          Finding.named("wrong-values", detail="`weights` differs by up to 0.25")])
    message, _ = check_feedback(record, SOFTMAX, COURSE, CATALOGUE)
    assert "0.5." in message and "0.25." in message


def test_a_detail_starting_with_the_students_file_keeps_its_spelling():
    record = CheckRecord([Finding.named("softmax-builtin", detail="softmax.py, line 7: `torch.softmax(x, -1)`")])
    message, _ = check_feedback(record, SOFTMAX, COURSE, CATALOGUE)
    assert message.startswith("softmax.py, line 7: `torch.softmax(x, -1)`.")


def test_a_detail_in_words_starts_with_a_capital():
    record = CheckRecord([Finding.named("wrong-values", detail="your weights differ by up to 0.5")])
    message, _ = check_feedback(record, SOFTMAX, COURSE, CATALOGUE)
    assert message.startswith("Your weights differ by up to 0.5.")
