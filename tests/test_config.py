"""course.toml: the registry loads, and every malformed registry is refused naming its key."""
from __future__ import annotations

import shutil
from dataclasses import MISSING, fields

import pytest

from attnkit.config import ConfigError, load_course
from attnkit.sandbox.runner import Limits
from attnkit.settings import Feedback, Grading, Report, Settings
from kit import COURSE, REPO

GOOD = (REPO / "course.toml").read_text()
MINIMAL = """[course]
name = "n"
lesson = "l"

[[exercise]]
id = "one"
title = "t"
module = "one"
points = 1
checks = [{ test = "test_a", points = 1, public = true }]
"""


def test_every_exercise_of_the_registry_has_its_grader_and_points_that_add_up():
    assert COURSE.ids and len(set(COURSE.ids)) == len(COURSE.ids)
    assert all(e.points == sum(c.points for c in e.checks) for e in COURSE.exercises)
    assert all(COURSE.grader_file(e).is_file() for e in COURSE.exercises)


def test_an_exercise_gets_its_graders_declared_settings_with_course_toml_values(tmp_path):
    (tmp_path / "graders").mkdir()
    (tmp_path / "graders" / "test_one.py").write_text('SETTINGS = {"threshold": 0.5, "tries": 3}\n')
    (tmp_path / "course.toml").write_text(MINIMAL + 'settings = { threshold = 0.25 }\n')
    [exercise] = load_course(tmp_path / "course.toml").exercises
    assert exercise.settings == {"threshold": 0.25, "tries": 3}


def test_the_lessons_numbers_become_arrays(tmp_path):
    (tmp_path / "graders").mkdir()
    data_table = '[data]\nq = [[1, 0], [0, 1]]\nname = "x"\n\n[[exercise]]'
    (tmp_path / "course.toml").write_text(MINIMAL.replace("[[exercise]]", data_table))
    data = load_course(tmp_path / "course.toml").data
    assert data["q"].shape == (2, 2) and data["q"].dtype.kind == "f" and data["name"] == "x"


@pytest.mark.parametrize("edit,key", [
    (("[course]", "[coarse]"), "course"),
    (('id = "attention"', 'id = "softmax"'), "exercise[2].id"),
    (("points = 4\n", "points = 5\n"), "exercise[0].points"),
    (('depends_on = ["softmax", "scaled_scores"]', 'depends_on = ["projection"]'), "exercise[2].depends_on"),
    (("call_timeout = 10.0", "call_timeout = -1"), "settings.call_timeout"),
    (("call_timeout = 10.0", "call_timout = 10.0"), "settings.call_timout"),
    (("rtol = 1e-3", 'rtol = "small"'), "settings.rtol"),
    (("memory_limit_mb = 2048", "memory_limit_mb = 20.5"), "settings.memory_limit_mb"),
    (("carry_forward = true", 'carry_forward = "yes"'), "grading.carry_forward"),
    (("carry_forward = true", "carry_forwards = true"), "grading.carry_forwards"),
    (("[data]", "[dta]"), "dta"),
    (("chocolate_threshold = 0.05", "chocolate_treshold = 0.05"), "exercise[4].settings.chocolate_treshold"),
    (('functions = ["softmax"]', 'functions = ["soft max"]'), "exercise[0].functions"),
    (('{ test = "test_lesson_weights", points = 1, public = true }',
      '{ test = "test_lesson_weights", points = 1, public = "yes" }'), "exercise[0].checks[0].public"),
    (('title = "Softmax', 'titel = "Softmax'), "exercise[0].titel"),
    (("[settings]", "[settings"), "not valid TOML"),
    (('module = "softmax"', 'module = "softmax"\nmodul = "softmax"'), "exercise[0].modul"),
])
def test_a_malformed_registry_is_refused_naming_the_key(tmp_path, edit, key):
    old, new = edit
    assert old in GOOD
    shutil.copytree(COURSE.graders_dir, tmp_path / "graders")
    path = tmp_path / "course.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError) as error:
        load_course(path)
    message = str(error.value)
    assert str(path) in message and key in message and "\n" not in message


@pytest.mark.parametrize("table", [Settings, Grading, Feedback, Report])
def test_every_engine_setting_is_declared_with_a_default_and_a_description(table):
    for spec in fields(table):
        assert spec.default is not MISSING and spec.metadata.get("description"), spec.name


def test_the_sandbox_limits_default_to_the_settings_defaults():
    limits, settings = Limits(), Settings()
    assert (limits.call_timeout, limits.memory_mb, limits.output_kb, limits.time_budget) == \
           (settings.call_timeout, settings.memory_limit_mb, settings.output_limit_kb, settings.time_budget)


@pytest.mark.parametrize("table", [Settings, Grading, Feedback, Report])
def test_docs_contract_lists_every_engine_setting_with_its_default(table):
    rows = {}
    for line in (REPO / "docs" / "contract.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells[1]
    for spec in fields(table):
        written = rows[spec.name]
        default = spec.default
        assert (written == str(default).lower() if isinstance(default, bool) else
                float(written) == default if isinstance(default, (int, float)) else written == default), spec.name
