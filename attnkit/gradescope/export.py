"""autograder.zip for Gradescope: its two scripts, the kit's wheel and pins, and what grading needs.

    setup.sh, run_autograder       at the top, as Gradescope requires (scripts/ beside this file)
    requirements.txt, attnkit-*.whl  the kit and its pinned dependencies (attnkit.distribution)
    course/                        course.toml and its graders (with the mistake models) and solutions

The zip is for Gradescope's servers only: it holds the reference and the hidden checks, unlike a handout.
"""
from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

from attnkit.config import Course
from attnkit.distribution import LEFT_OUT, build_wheel, requirements_text, write_entry
from attnkit.errors import KitError
from attnkit.gradescope.autograder import COURSE_FOLDER

AUTOGRADER_ZIP = "autograder.zip"
SCRIPTS = Path(__file__).with_name("scripts")
SCRIPT_NAMES = ("setup.sh", "run_autograder")


def write_autograder(course: Course, out: Path) -> Path:
    """Write `out`/autograder.zip (replacing an earlier one); its path."""
    if not course.solutions_dir.is_dir():
        raise KitError(f"{course.file}: this is a handout's course (no {course.solutions_dir.name}/ folder, so no "
                       "hidden checks); build the autograder in the course repository")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    target = out / AUTOGRADER_ZIP
    partial = out / f".{AUTOGRADER_ZIP}.partial"
    with tempfile.TemporaryDirectory(prefix="attnkit-gradescope-") as scratch:
        wheel = build_wheel(Path(scratch), for_students=False)
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in SCRIPT_NAMES:
                write_entry(archive, name, (SCRIPTS / name).read_bytes(), executable=True)
            write_entry(archive, "requirements.txt",
                 requirements_text(wheel, "Installed by setup.sh on Gradescope (torch first, from PyTorch's CPU index)")
                 .encode())
            write_entry(archive, wheel.name, wheel.read_bytes())
            for path, name in course_files(course).items():
                write_entry(archive, f"{COURSE_FOLDER}/{name}", path.read_bytes())
    os.replace(partial, target)
    return target


def course_files(course: Course) -> dict[Path, str]:
    """course.toml and every file of the folders grading reads (graders, mistakes, solutions), by name in the course."""
    files = {course.file: course.file.name}
    for folder in (course.graders_dir, course.mistakes_dir, course.solutions_dir):
        if course.root.resolve() not in folder.resolve().parents:
            raise KitError(f"{course.file}: {folder} is outside the course folder; the autograder carries only "
                           "what lies inside it")
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink() and not any(part in LEFT_OUT for part in path.parts):
                files[path] = path.relative_to(course.root).as_posix()
    return files
