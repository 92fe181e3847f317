"""An exercise's answers judged together at its end: an id is named only where no check contradicts it.

A mistake model may give one answer's numbers by coincidence of that input's sizes (on the lesson's 3x2
example n = d_k + 1, so a scale of √(d_k + 1) is the scale by the number of tokens). The student's code is
the same in every check, so the other answers are evidence too: where another answer is one no mistake model
explains, and the suggested mistakes, switched on there, would have changed its numbers (and give none of
the student's), the suggestion is contradicted. A finding whose every explanation is contradicted falls
back to its generic id and the words for what was seen, the honest answer. Answers explained by other
mistakes contradict nothing: a mistake may be invisible on some inputs, and spellings are not matched up
across inputs.
"""
from __future__ import annotations

from collections.abc import Sequence

from attnkit.grading.diagnosis import same
from attnkit.grading.engine_ids import NOT_FINITE, WRONG_SHAPE, WRONG_VALUES
from attnkit.grading.memory import Question
from attnkit.grading.oracle import NotRecorded, Oracle

UNEXPLAINED = {(WRONG_VALUES,), (WRONG_SHAPE,), (NOT_FINITE,)}


def drop_contradicted(questions: Sequence[Question], oracle: Oracle, rtol: float, atol: float) -> None:
    """Take out of each modelled finding the explanations another unexplained answer contradicts."""
    unexplained = [q for q in questions if _unexplained(q)]
    if not unexplained:
        return
    for question in questions:
        for finding in question.findings:
            if not finding.modelled:
                continue
            others = [q for q in unexplained if q is not question]
            kept = [e for e in finding.explanations
                    if not any(_contradicts(other, e, oracle, rtol, atol) for other in others)]
            if kept != finding.explanations:
                finding.explanations = kept or [(question.described[0],)]
                finding.modelled = bool(kept)
                if not kept:
                    finding.fallback, finding.detail = question.described


def _unexplained(question: Question) -> bool:
    """No mistake model gave these numbers: only a generic id describes them."""
    return not any(f.modelled for f in question.findings) and any(
        not f.proven_only and f.explanations and set(f.explanations) <= UNEXPLAINED for f in question.findings)


def _contradicts(question: Question, explanation: tuple[str, ...], oracle: Oracle, rtol: float, atol: float) -> bool:
    """These mistakes would have changed this answer's numbers, and give none of the student's."""
    try:
        answers = [c.answer for c in oracle.candidates(question.request, len(explanation), explanation)
                   if set(c.mistakes) == set(explanation)]
    except NotRecorded:
        return False
    shows = any(not same(a, question.expected, rtol, atol) for a in answers)
    return shows and not any(same(a, question.values, rtol, atol) for a in answers)
