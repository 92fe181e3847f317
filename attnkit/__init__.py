"""attnkit: auto-graded exercises for the self-attention lesson.

The engine's layers, one module a concern:
config (course.toml), sandbox (running untrusted student code), grading
(pytest graders, the mistake catalogue, diagnosis), scoring and reports,
submissions (folders and zips), handout, the click CLI, and the notebook's
self-check (`from attnkit import check, hint`).
"""
__version__ = "0.1.0"

from attnkit.notebook import check, hint  # noqa: E402  (a notebook cell's `from attnkit import check`)

__all__ = ["check", "hint"]
