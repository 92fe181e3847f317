"""Courses the kit's tests grade, not tests of their own.

A course's graders are pytest files (`graders/test_<exercise>.py`) that only the kit can run (it
provides their `attempt`, `data` and `settings` fixtures), so the kit's own test run must not
collect them.
"""
collect_ignore_glob = ["*"]
