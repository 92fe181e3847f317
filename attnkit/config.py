"""course.toml: the registry of exercises, checks, points, settings and the lesson's numbers.

`load_course` refuses a malformed, misspelt or inconsistent registry with a one-line reason that
names the file and the key, before any grading starts. The engine's own settings have a fixed,
documented schema (`attnkit.settings`: each setting's default and description); an exercise's settings
are declared by its grader (`SETTINGS = {...}` at the top of `graders/test_<id>.py`, name: default)
and checked against that declaration, so a second course brings its own settings with no engine change.
"""
from __future__ import annotations

import ast
import functools
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from attnkit.errors import KitError
from attnkit.settings import Feedback, Grading, Report, Settings

COURSE_FILE = "course.toml"
PACKAGE = "exercises"  # the package every handout and submission holds


GRADER_PREFIX = "test_"  # graders/test_<exercise id>.py: pytest collects it by that name


def grader_file_name(exercise_id: str) -> str:
    return f"{GRADER_PREFIX}{exercise_id}.py"


def exercise_of_grader(path: str | Path) -> str:
    """The exercise id a grader file is named for (the inverse of `grader_file_name`)."""
    return Path(path).stem.removeprefix(GRADER_PREFIX)


class ConfigError(KitError):
    """course.toml is missing, malformed or inconsistent."""


@dataclass(frozen=True)
class Check:
    """One grader test: its function name, its points, and whether students see it."""

    test: str
    points: float
    public: bool


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    module: str
    depends_on: tuple[str, ...]
    points: float
    checks: tuple[Check, ...]
    functions: tuple[str, ...] = ()  # what later exercises call: stood in for under error carried forward
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def public_checks(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.public)


@dataclass(frozen=True)
class Course:
    root: Path
    name: str
    lesson: str
    exercises_dir: Path
    solutions_dir: Path
    graders_dir: Path
    mistakes_dir: Path
    settings: Settings
    grading: Grading
    data: dict[str, Any]
    exercises: tuple[Exercise, ...]
    feedback: Feedback = Feedback()
    report: Report = Report()

    def exercise(self, exercise_id: str) -> Exercise:
        for exercise in self.exercises:
            if exercise.id == exercise_id:
                return exercise
        raise KeyError(exercise_id)

    @property
    def file(self) -> Path:
        return self.root / COURSE_FILE

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.exercises]

    @property
    def max_total(self) -> float:
        return sum(e.points for e in self.exercises)

    def grader_file(self, exercise: Exercise) -> Path:
        return self.graders_dir / grader_file_name(exercise.id)

    def dependencies(self, exercise_id: str) -> list[str]:
        """Every exercise this one builds on, nearest first."""
        seen: list[str] = []
        pending = list(self.exercise(exercise_id).depends_on)
        while pending:
            current = pending.pop(0)
            if current not in seen:
                seen.append(current)
                pending.extend(self.exercise(current).depends_on)
        return seen


TOP_KEYS = {"course", "settings", "grading", "feedback", "report", "data", "exercise"}
COURSE_KEYS = {"name", "lesson", "exercises", "solutions", "graders", "mistakes"}
EXERCISE_KEYS = {"id", "title", "module", "depends_on", "points", "checks", "functions", "settings"}
CHECK_KEYS = {"test", "points", "public"}


class _Reader:
    """Typed access to a TOML table that names the key in every complaint."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.path}: {key}: {problem}")

    def known(self, table: dict[str, Any], keys: set[str], where: str) -> None:
        unknown = sorted(set(table) - keys)
        if unknown:
            raise self.fail(f"{where}{unknown[0]}", f"unknown key (known: {', '.join(sorted(keys))})")

    def get(self, table: dict[str, Any], key: str, where: str, kind: type | tuple, default: Any = ...) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(f"{where}{key}", "missing")
            return default
        value = table[key]
        if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise self.fail(f"{where}{key}", f"expected {_kind_name(kind)}, got {value!r}")
        return value


def _kind_name(kind: type | tuple) -> str:
    names: dict[type | tuple, str] = {str: "a string", bool: "true or false", list: "a list", dict: "a table",
                                      int: "a whole number"}
    if kind == (int, float):
        return "a number"
    return names.get(kind, getattr(kind, "__name__", str(kind)))


def find_course_file(start: Path, where: str = "run this in the course repo") -> Path:
    """course.toml in `start` or the nearest folder above it; `where` says where to run instead (a student
    has no course repo: their course.toml is the handout's)."""
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / COURSE_FILE
        if candidate.is_file():
            return candidate
    raise ConfigError(f"{start}: no {COURSE_FILE} here or in any folder above ({where})")


def course_here() -> Course:
    """The course of the current folder (its course.toml or the nearest above)."""
    return load_course(find_course_file(Path.cwd()))


def read_toml(path: Path, error: type[KitError] = KitError) -> dict[str, Any]:
    """A TOML file's tables, or `error` with a one-line reason naming the file."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as problem:
        raise error(f"{path}: cannot read: {problem.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as problem:
        raise error(f"{path}: not valid TOML: {problem}") from None


def load_course(path: Path) -> Course:
    """Read and validate course.toml."""
    path = Path(path).resolve()
    data = read_toml(path, ConfigError)
    reader = _Reader(path)
    reader.known(data, TOP_KEYS, "")
    course = reader.get(data, "course", "", dict)
    reader.known(course, COURSE_KEYS, "course.")
    root = path.parent
    graders_dir = root / reader.get(course, "graders", "course.", str, "graders")
    result = Course(
        root=root,
        name=reader.get(course, "name", "course.", str),
        lesson=reader.get(course, "lesson", "course.", str),
        exercises_dir=root / reader.get(course, "exercises", "course.", str, PACKAGE),
        solutions_dir=root / reader.get(course, "solutions", "course.", str, "solutions"),
        graders_dir=graders_dir,
        mistakes_dir=root / reader.get(course, "mistakes", "course.", str, "graders/mistakes"),
        settings=_read_typed(reader, Settings, reader.get(data, "settings", "", dict, {}), "settings."),
        grading=_read_typed(reader, Grading, reader.get(data, "grading", "", dict, {}), "grading."),
        feedback=_read_typed(reader, Feedback, reader.get(data, "feedback", "", dict, {}), "feedback."),
        data=_read_data(reader, reader.get(data, "data", "", dict, {})),
        exercises=_read_exercises(reader, reader.get(data, "exercise", "", list), graders_dir),
        report=_read_typed(reader, Report, reader.get(data, "report", "", dict, {}), "report."),
    )
    _check_consistency(reader, result)
    return result


def _read_typed(reader: _Reader, cls: type, table: dict[str, Any], where: str) -> Any:
    """A table read into the dataclass `cls`: known keys only, each of its field's type; numbers positive;
    a value among its field's `choices`, where the field's metadata lists them."""
    specs = {f.name: f for f in fields(cls)}
    reader.known(table, set(specs), where)
    values = {}
    for key, value in table.items():
        default = specs[key].default
        kind = (int, float) if isinstance(default, float) else type(default)
        value = reader.get(table, key, where, kind)
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            if value <= 0:
                raise reader.fail(f"{where}{key}", f"must be positive, got {value!r}")
            if isinstance(default, int) and value != int(value):
                raise reader.fail(f"{where}{key}", f"expected a whole number, got {value!r}")
            value = type(default)(value)
        choices = specs[key].metadata.get("choices")
        if choices and value not in choices:
            raise reader.fail(f"{where}{key}", f"expected one of {', '.join(choices)}, got {value!r}")
        values[key] = value
    return cls(**values)


def _read_data(reader: _Reader, table: dict[str, Any]) -> dict[str, Any]:
    """The lesson's numbers: lists of numbers become float64 arrays; anything else stays as written."""
    data = {}
    for key, value in table.items():
        if isinstance(value, list) and _numeric(value):
            try:
                data[key] = np.array(value, dtype=np.float64)
            except ValueError:
                raise reader.fail(f"data.{key}", "rows of different lengths") from None
        else:
            data[key] = value
    return data


def _numeric(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value) and all(_numeric(v) for v in value)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _read_exercises(reader: _Reader, tables: list[Any], graders_dir: Path) -> tuple[Exercise, ...]:
    if not tables:
        raise reader.fail("exercise", "no exercises listed")
    exercises = []
    for index, table in enumerate(tables):
        where = f"exercise[{index}]."
        if not isinstance(table, dict):
            raise reader.fail(where[:-1], "expected a table")
        reader.known(table, EXERCISE_KEYS, where)
        checks = []
        for check_index, check in enumerate(reader.get(table, "checks", where, list)):
            check_where = f"{where}checks[{check_index}]."
            if not isinstance(check, dict):
                raise reader.fail(check_where[:-1], "expected a table")
            reader.known(check, CHECK_KEYS, check_where)
            checks.append(Check(
                test=reader.get(check, "test", check_where, str),
                points=float(reader.get(check, "points", check_where, (int, float))),
                public=reader.get(check, "public", check_where, bool),
            ))
        exercise_id = reader.get(table, "id", where, str)
        exercises.append(Exercise(
            id=exercise_id,
            title=reader.get(table, "title", where, str),
            module=reader.get(table, "module", where, str),
            depends_on=tuple(_names(reader, table, "depends_on", where)),
            points=float(reader.get(table, "points", where, (int, float))),
            checks=tuple(checks),
            functions=tuple(_names(reader, table, "functions", where)),
            settings=_exercise_settings(reader, reader.get(table, "settings", where, dict, {}), where,
                                        graders_dir / grader_file_name(exercise_id)),
        ))
    return tuple(exercises)


def _names(reader: _Reader, table: dict[str, Any], key: str, where: str) -> list[str]:
    names = reader.get(table, key, where, list, [])
    if not all(isinstance(n, str) and n.isidentifier() for n in names):
        raise reader.fail(f"{where}{key}", f"expected a list of Python names, got {names!r}")
    return names


def declared_settings(grader: Path) -> dict[str, Any]:
    """The settings a grader declares (`SETTINGS = {name: default, ...}` at its top level), read without running it."""
    try:
        tree = ast.parse(grader.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SETTINGS" for t in node.targets):
            try:
                declared = ast.literal_eval(node.value)
            except ValueError:
                raise ConfigError(f"{grader}: SETTINGS: must be a literal {{name: default}} table") from None
            return dict(declared)
    return {}


def check_names(grader: Path) -> dict[str, str]:
    """Each check's display name, the first line of its test function's docstring, read without running it
    (parsed once while the file is unchanged: every broken submission of a class asks again)."""
    try:
        source = grader.read_bytes()
    except OSError:
        return {}
    return dict(_check_names(source))


@functools.lru_cache(maxsize=64)
def _check_names(source: bytes) -> tuple[tuple[str, str], ...]:
    try:
        tree = ast.parse(source.decode("utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return ()
    return tuple((node.name, check_name(ast.get_docstring(node), node.name))
                 for node in tree.body if isinstance(node, ast.FunctionDef))


def check_name(docstring: str | None, test: str) -> str:
    """The name students see for a check: the first line of its test function's docstring, else the test's name.

    The one rule: the plugin names the checks it runs by it, and zero results (a broken submission, a
    malformed reply) name theirs by it too, read from the grader's source."""
    lines = (docstring or "").strip().splitlines()
    return lines[0].strip() if lines else test


def _exercise_settings(reader: _Reader, table: dict[str, Any], where: str, grader: Path) -> dict[str, Any]:
    """The grader's declared settings, with course.toml's values for those it sets."""
    declared = declared_settings(grader)
    settings = dict(declared)
    for key in table:
        if key not in declared:
            known = ", ".join(declared) or "none"
            raise reader.fail(f"{where}settings.{key}", f"unknown setting (its grader {grader.name} declares: {known})")
        default = declared[key]
        kind = (int, float) if isinstance(default, float) else type(default)
        settings[key] = type(default)(reader.get(table, key, f"{where}settings.", kind))
    return settings


def _check_consistency(reader: _Reader, course: Course) -> None:
    """Ids unique, dependencies earlier in the list, points adding up, folders present."""
    seen: set[str] = set()
    for index, exercise in enumerate(course.exercises):
        where = f"exercise[{index}]"
        if exercise.id in seen:
            raise reader.fail(f"{where}.id", f"duplicate exercise id {exercise.id!r}")
        if not exercise.id.replace("_", "").isalnum() or not exercise.module.isidentifier():
            raise reader.fail(f"{where}.id", f"ids and modules must be Python names, got {exercise.id!r}")
        for dependency in exercise.depends_on:
            if dependency not in seen:
                raise reader.fail(f"{where}.depends_on", f"{dependency!r} is not an earlier exercise")
        if not exercise.checks:
            raise reader.fail(f"{where}.checks", "an exercise needs at least one check")
        tests = [c.test for c in exercise.checks]
        if len(set(tests)) != len(tests):
            raise reader.fail(f"{where}.checks", "a test is listed twice")
        if any(c.points < 0 for c in exercise.checks):
            raise reader.fail(f"{where}.checks", "points cannot be negative")
        total = sum(c.points for c in exercise.checks)
        if abs(total - exercise.points) > 1e-9:
            raise reader.fail(f"{where}.points", f"is {exercise.points:g} but its checks add up to {total:g}")
        seen.add(exercise.id)
    if not course.graders_dir.is_dir():
        raise reader.fail("course.graders", f"folder {course.graders_dir} does not exist")
