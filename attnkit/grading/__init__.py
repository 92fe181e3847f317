"""Grading: pytest graders call the student's code through the sandbox, compare
with the reference, and name the catalogued mistake that explains a difference.

Modules: `catalogue` (mistakes as data), `variants` (the buggy packages made
from the reference), `oracle` (reference and variant answers), `diagnosis`
(what a wrong answer means), `attempt` (the API graders use), `plugin` (the
pytest plugin), `session` (grading one or many submissions), `results`.
"""
