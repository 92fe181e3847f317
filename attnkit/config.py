"""course.toml: the registry of exercises, checks, points and settings.

`load_course` refuses a malformed or inconsistent registry with a one-line
reason that names the file and the key, before any grading starts.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attnkit.errors import KitError

COURSE_FILE = "course.toml"

DEFAULT_SETTINGS: dict[str, float] = {
    "cake_chocolate_threshold": 0.05,
    "cake_eggless_minimum": 0.10,
    "prediction_tolerance": 0.02,
    "rtol": 1e-4,
    "atol": 1e-5,
    "call_timeout": 10.0,
    "memory_limit_mb": 2048,
    "output_limit_kb": 64,
}


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
    settings: dict[str, float]
    exercises: tuple[Exercise, ...] = field(default_factory=tuple)

    def exercise(self, exercise_id: str) -> Exercise:
        for exercise in self.exercises:
            if exercise.id == exercise_id:
                return exercise
        raise KeyError(exercise_id)

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.exercises]

    @property
    def max_total(self) -> float:
        return sum(e.points for e in self.exercises)

    def grader_file(self, exercise: Exercise) -> Path:
        return self.graders_dir / f"test_{exercise.id}.py"

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


class _Reader:
    """Typed access to a TOML table that names the key in every complaint."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.path}: {key}: {problem}")

    def get(self, table: dict[str, Any], key: str, where: str, kind: type | tuple, default: Any = ...) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(f"{where}{key}", "missing")
            return default
        value = table[key]
        if isinstance(value, bool) and kind is not bool:
            raise self.fail(f"{where}{key}", f"expected {_kind_name(kind)}, got {value!r}")
        if not isinstance(value, kind):
            raise self.fail(f"{where}{key}", f"expected {_kind_name(kind)}, got {value!r}")
        return value


def _kind_name(kind: type | tuple) -> str:
    names = {str: "a string", bool: "true or false", list: "a list", dict: "a table"}
    if kind == (int, float):
        return "a number"
    return names.get(kind, getattr(kind, "__name__", str(kind)))


def find_course_file(start: Path) -> Path:
    """course.toml in `start` or the nearest folder above it."""
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / COURSE_FILE
        if candidate.is_file():
            return candidate
    raise ConfigError(f"{start}: no {COURSE_FILE} here or in any folder above (run this in the course repo)")


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
    course = reader.get(data, "course", "", dict)
    root = path.parent
    name = reader.get(course, "name", "course.", str)
    lesson = reader.get(course, "lesson", "course.", str)
    settings = _read_settings(reader, reader.get(data, "settings", "", dict, {}))
    exercises = _read_exercises(reader, reader.get(data, "exercise", "", list))
    result = Course(
        root=root,
        name=name,
        lesson=lesson,
        exercises_dir=root / reader.get(course, "exercises", "course.", str, "exercises"),
        solutions_dir=root / reader.get(course, "solutions", "course.", str, "solutions"),
        graders_dir=root / reader.get(course, "graders", "course.", str, "graders"),
        mistakes_dir=root / reader.get(course, "mistakes", "course.", str, "graders/mistakes"),
        settings=settings,
        exercises=exercises,
    )
    _check_consistency(reader, result)
    return result


def _read_settings(reader: _Reader, table: dict[str, Any]) -> dict[str, float]:
    settings = dict(DEFAULT_SETTINGS)
    for key in table:
        if key not in DEFAULT_SETTINGS:
            raise reader.fail(f"settings.{key}", f"unknown setting (known: {', '.join(DEFAULT_SETTINGS)})")
        value = reader.get(table, key, "settings.", (int, float))
        if value <= 0:
            raise reader.fail(f"settings.{key}", f"must be positive, got {value!r}")
        settings[key] = float(value)
    return settings


def _read_exercises(reader: _Reader, tables: list[Any]) -> tuple[Exercise, ...]:
    if not tables:
        raise reader.fail("exercise", "no exercises listed")
    exercises = []
    for index, table in enumerate(tables):
        where = f"exercise[{index}]."
        if not isinstance(table, dict):
            raise reader.fail(where[:-1], "expected a table")
        checks = []
        for check_index, check in enumerate(reader.get(table, "checks", where, list)):
            check_where = f"{where}checks[{check_index}]."
            if not isinstance(check, dict):
                raise reader.fail(check_where[:-1], "expected a table")
            checks.append(Check(
                test=reader.get(check, "test", check_where, str),
                points=float(reader.get(check, "points", check_where, (int, float))),
                public=reader.get(check, "public", check_where, bool),
            ))
        exercises.append(Exercise(
            id=reader.get(table, "id", where, str),
            title=reader.get(table, "title", where, str),
            module=reader.get(table, "module", where, str),
            depends_on=tuple(reader.get(table, "depends_on", where, list, [])),
            points=float(reader.get(table, "points", where, (int, float))),
            checks=tuple(checks),
        ))
    return tuple(exercises)


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
