"""attnkit: auto-graded exercises for the self-attention lesson.

The engine's layers, one module a concern:
config (course.toml), sandbox (running untrusted student code), grading
(pytest graders, the mistake catalogue, diagnosis), scoring and reports,
submissions (folders and zips), handout, and the click CLI.
"""
__version__ = "0.1.0"
