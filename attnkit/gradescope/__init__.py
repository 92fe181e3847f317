"""Grading on Gradescope: `attnkit gradescope --out DIR` writes DIR/autograder.zip.

The zip holds Gradescope's two scripts (`scripts/setup.sh`, `scripts/run_autograder`), the kit's
wheel with its pinned requirements, and the course (`course.toml`, the graders with their mistake
models, the solutions). `export` writes it; `autograder` is what `run_autograder` runs for each
upload; `results` turns the kit's typed result into Gradescope's results.json.
"""
