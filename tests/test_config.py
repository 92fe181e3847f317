"""course.toml: the registry loads, and every malformed registry is refused naming its key."""
from __future__ import annotations

import pytest

from attnkit.config import ConfigError, load_course
from kit import COURSE, REPO

GOOD = (REPO / "course.toml").read_text()


def test_the_course_registry_loads_in_order():
    assert COURSE.ids == ["softmax", "scaled_scores", "attention", "projection", "cake"]
    assert COURSE.settings["cake_chocolate_threshold"] == 0.05
    assert all(e.points == sum(c.points for c in e.checks) for e in COURSE.exercises)
    assert all(COURSE.grader_file(e).is_file() for e in COURSE.exercises)


@pytest.mark.parametrize("edit,key", [
    (("[course]", "[coarse]"), "course"),
    (('id = "attention"', 'id = "softmax"'), "exercise[2].id"),
    (("points = 4\n", "points = 5\n"), "exercise[0].points"),
    (('depends_on = ["softmax", "scaled_scores"]', 'depends_on = ["projection"]'), "exercise[2].depends_on"),
    (("cake_chocolate_threshold = 0.05", "cake_chocolate_threshold = -1"), "settings.cake_chocolate_threshold"),
    (("cake_chocolate_threshold = 0.05", "cake_threshold = 0.05"), "settings.cake_threshold"),
    (("rtol = 1e-4", 'rtol = "small"'), "settings.rtol"),
    (('{ test = "test_lesson_weights", points = 1, public = true }',
      '{ test = "test_lesson_weights", points = 1, public = "yes" }'), "exercise[0].checks[0].public"),
    (('title = "Softmax', 'titel = "Softmax'), "exercise[0].title"),
    (("[settings]", "[settings"), "not valid TOML"),
])
def test_a_malformed_registry_is_refused_naming_the_key(tmp_path, edit, key):
    old, new = edit
    assert old in GOOD
    (tmp_path / "graders").mkdir()
    path = tmp_path / "course.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError) as error:
        load_course(path)
    message = str(error.value)
    assert str(path) in message and key in message and "\n" not in message
