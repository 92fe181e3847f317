"""What `run_autograder` runs on Gradescope for each upload: grade it, and always leave a results.json.

Gradescope unpacks autograder.zip into `$AUTOGRADER_ROOT/source` (the course is its `course/`
folder), puts the student's upload in `$AUTOGRADER_ROOT/submission/` and reads
`$AUTOGRADER_ROOT/results/results.json`; AUTOGRADER_ROOT defaults to /autograder. The upload is read
as `attnkit grade` reads a submission (an `exercises/` folder at the top or one folder down, or the
module files loose), or, when that is all it holds, the one zip `attnkit submit` wrote. It is graded
by the call `attnkit grade` makes, in the kit's sandbox, so it gets the same score. An upload that
cannot be graded gets zeros and the reason; a failure of the kit itself still writes a results.json.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

from attnkit.config import COURSE_FILE, PACKAGE, Course, load_course
from attnkit.gradebook import broken_result, write_atomically
from attnkit.gradescope.results import failed_run, results_json
from attnkit.grading.results import SubmissionResult
from attnkit.redaction import SCRATCH_PREFIX, PathScrubber
from attnkit.sandbox.exposure import UNISOLATED_FLAG, CourseExposed, refuse_if_exposed, unisolated_warning
from attnkit.submissions import ZIP_SUFFIX, is_module_file, prepare

ROOT_VARIABLE = "AUTOGRADER_ROOT"
DEFAULT_ROOT = "/autograder"
COURSE_FOLDER = "course"  # in the zip, so in $AUTOGRADER_ROOT/source
UNISOLATED_VARIABLE = "ATTNKIT_UNISOLATED"
REFUSED = 2  # the exit status when grading is refused (run_autograder passes it on)
STUDENT = "submission"    # Gradescope grades one upload at a time; its student is Gradescope's business


def main() -> None:
    """Grade $AUTOGRADER_ROOT/submission into $AUTOGRADER_ROOT/results/results.json; a summary for the instructor.

    Where namespaces are refused and student code could reach the course, the upload is not graded (a
    results.json that says the autograder could not run, and why in its output), unless the instructor
    accepted the risk: `run_autograder --unisolated`, or ATTNKIT_UNISOLATED=1 in its environment."""
    root = Path(os.environ.get(ROOT_VARIABLE) or DEFAULT_ROOT)
    unisolated = UNISOLATED_FLAG in sys.argv[1:] or os.environ.get(UNISOLATED_VARIABLE) == "1"
    try:
        course = load_course(root / "source" / COURSE_FOLDER / COURSE_FILE)
        found = refuse_if_exposed(course, [root / "results"], unisolated=unisolated,
                                  accept=f"run run_autograder {UNISOLATED_FLAG} (or set {UNISOLATED_VARIABLE}=1)")
        if found is not None:
            print(f"attnkit: {unisolated_warning(found)}")
        result = grade_upload(course, root / "submission", root)
        record = results_json(result, course)
        print(f"{result.score:g} / {result.max_score:g}" + (f": {result.problem}" if result.problem else ""))
    except CourseExposed as error:  # the course is exposed: no grade, the instructor is told why, and exit 2
        print(f"attnkit: error: {error}")
        write_atomically(root / "results" / "results.json",
                         json.dumps(failed_run(PathScrubber([root]).text(str(error))), indent=2) + "\n")
        sys.exit(REFUSED)
    except Exception as error:  # the kit's own failure: the student still gets a results.json that says so
        traceback.print_exc(file=sys.stdout)
        record = failed_run(PathScrubber([root]).text(f"{type(error).__name__}: {error}"))
    write_atomically(root / "results" / "results.json", json.dumps(record, indent=2) + "\n")


def grade_upload(course: Course, upload: Path, root: Path) -> SubmissionResult:
    """The upload graded as `attnkit grade` grades a submission, with no path of this machine in the texts."""
    from attnkit.grading.parallel import grade_all
    from attnkit.grading.plugin import Submission

    if not upload.is_dir():
        return broken_result(course, STUDENT, f"{upload.name}: nothing was uploaded")
    with tempfile.TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}gradescope-") as scratch:
        scrubber = PathScrubber([course.root, root], parents=[scratch])
        prepared = prepare(uploaded_entry(upload), Path(scratch) / "upload")
        if prepared.root is None:
            return scrubber.result(broken_result(course, STUDENT, prepared.problem))
        results: list[SubmissionResult] = []
        grade_all(course, [Submission(STUDENT, prepared.root)], jobs=1, on_result=results.append)
        return scrubber.result(results[0])


def uploaded_entry(upload: Path) -> Path:
    """What to read of the upload folder: its one zip when it holds no package and no module files, else itself."""
    entries = [p for p in upload.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    zips = [p for p in entries if p.is_file() and p.name.lower().endswith(ZIP_SUFFIX)]
    holds_package = any(is_module_file(p.name) or p.name == PACKAGE or (p.is_dir() and (p / PACKAGE).is_dir())
                        for p in entries)
    return zips[0] if len(zips) == 1 and not holds_package else upload


if __name__ == "__main__":
    main()
