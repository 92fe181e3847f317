"""Grading: pytest graders call the student's code through the sandbox, compare
with the reference, and name the catalogued mistake that explains a difference.

Modules: `api` (all that graders import), `catalogue` (mistakes as data), `variants`
(the buggy packages made from the reference), `oracle` (reference and variant answers),
`probe` (asking the sandbox and the oracle, with or without stand-ins), `memory` (what a
check found; what grading one student has learnt so far), `steps` (the declared order of
diagnosis, one module per step), `diagnosis` (comparing and explaining numbers), `attempt`
(the object a check is given), `plugin` (the pytest plugin), `session` (grading one or
many submissions), `results`.
"""
