"""Grader for exercise `cake`: Try it yourself, make cake ignore chocolate.

The checks read the student's constants and run the lesson's Step 1 on them
here, in numpy: the answer depends on the keys the student chose, so it cannot
be recorded in advance, and the oracle is not needed.
"""
import numpy as np

from attnkit.grading import lesson
from attnkit.grading.attempt import constants

TABLES = {"QUERIES": lesson.QUERIES, "KEYS": lesson.KEYS, "VALUES": lesson.VALUES}
PREDICTIONS = {"PREDICTED_WEIGHTS": 3, "PREDICTED_OUTPUT": 2}  # name -> how many numbers


def read_cake(attempt) -> dict:
    """The student's constants as numbers; the untouched stub fails every check as not implemented."""
    cake = attempt.run(constants("cake", [*TABLES, *PREDICTIONS]))
    attempt.require_ok(cake)
    values = cake["value"]
    if all(same(values[name], table) for name, table in TABLES.items()) and all(
            values[name] is None for name in PREDICTIONS):
        attempt.fail("not-implemented", "KEYS and the predictions are still as handed out: change one key, then predict")
    return values


def same(value: np.ndarray | None, table: np.ndarray) -> bool:
    return value is not None and value.shape == table.shape and bool(np.allclose(value, table, rtol=0, atol=1e-9))


def table(attempt, cake: dict, name: str) -> np.ndarray:
    """One of the 3x2 tables (rows eggless, chocolate, cake), checked for shape and finiteness."""
    value = cake[name]
    if value is None:
        attempt.fail("not-implemented", f"{name} is None")
    if value.shape != TABLES[name].shape:
        attempt.fail("wrong-shape", f"{name} has shape {value.shape}, expected {TABLES[name].shape}: "
                                    "one row a token (eggless, chocolate, cake), two numbers a row")
    if not np.isfinite(value).all():
        attempt.fail("not-finite", f"{name} holds nan or inf")
    return value


def cake_weights(queries: np.ndarray, keys: np.ndarray, scaled: bool = True) -> np.ndarray:
    """Cake's weights on (eggless, chocolate, cake), as the lesson's Step 1 code computes them."""
    return lesson.attention_weights(queries, keys, scaled)[lesson.CAKE]


def numbers(values: np.ndarray) -> str:
    return "[" + ", ".join(f"{v:.2f}" for v in values) + "]"


def test_one_key_changed(attempt):
    """exactly one key changed; queries and values as in the lesson"""
    cake = read_cake(attempt)
    for name, mistake in (("QUERIES", "cake-changed-query"), ("VALUES", "cake-changed-values")):
        if not same(table(attempt, cake, name), TABLES[name]):
            attempt.fail(mistake, f"{name} is not the lesson's table any more")
    keys = table(attempt, cake, "KEYS")
    changed = [token for token, key, given in zip(lesson.TOKENS, keys, lesson.KEYS) if not same(key, given)]
    if not changed:
        attempt.fail("not-implemented", "KEYS is still the lesson's table: no key changed yet")
    if len(changed) > 1:
        attempt.fail("cake-changed-several-keys", f"the keys of {' and '.join(changed)} changed")


def test_cake_ignores_chocolate(attempt, settings):
    """cake's weight on chocolate is almost zero, and cake still draws on eggless"""
    cake = read_cake(attempt)
    weights = cake_weights(table(attempt, cake, "QUERIES"), table(attempt, cake, "KEYS"))
    chocolate, eggless = weights[lesson.CHOCOLATE], weights[lesson.EGGLESS]
    if chocolate >= settings["cake_chocolate_threshold"]:
        attempt.fail("cake-still-attends-chocolate", f"with your keys cake's weight on chocolate is {chocolate:.3f}, "
                                                     f"not below {settings['cake_chocolate_threshold']}")
    if eggless < settings["cake_eggless_minimum"]:
        attempt.fail("cake-ignores-eggless-too", f"with your keys cake's weight on eggless is {eggless:.3f}, "
                                                 f"below {settings['cake_eggless_minimum']}")


def prediction(attempt, cake: dict, name: str) -> np.ndarray:
    """A hand prediction as a flat vector of the expected length."""
    value = cake[name]
    if value is None:
        attempt.fail("cake-prediction-missing", f"{name} is still None: predict it by hand before running anything")
    if value.size != PREDICTIONS[name]:
        attempt.fail("wrong-shape", f"{name} holds {value.size} numbers, expected {PREDICTIONS[name]}")
    return value.reshape(-1)


def test_predictions(attempt, settings):
    """the hand-predicted weights and output match what the Step 1 code gives for your keys"""
    cake = read_cake(attempt)
    predicted_weights = prediction(attempt, cake, "PREDICTED_WEIGHTS")
    predicted_output = prediction(attempt, cake, "PREDICTED_OUTPUT")
    queries, keys, values = (table(attempt, cake, name) for name in TABLES)
    weights, unscaled = cake_weights(queries, keys), cake_weights(queries, keys, scaled=False)
    tolerance = settings["prediction_tolerance"]
    # Weights each within the tolerance move the blend by at most tolerance x the column's total |value|.
    output_tolerance = tolerance * np.abs(values).sum(axis=0)

    def near(predicted: np.ndarray, actual: np.ndarray, within) -> bool:
        return bool(np.all(np.abs(predicted - actual) <= within))

    if not near(predicted_weights, weights, tolerance):
        if near(predicted_weights, unscaled, tolerance):
            attempt.fail("cake-prediction-unscaled", f"you predicted cake's weights {numbers(predicted_weights)}, "
                                                     f"which is what the scores give without dividing by √d_k")
        attempt.fail("cake-prediction-off", f"you predicted cake's weights {numbers(predicted_weights)}; "
                                            f"your keys give {numbers(weights)}")
    if not near(predicted_output, weights @ values, output_tolerance):
        if near(predicted_output, unscaled @ values, output_tolerance):
            attempt.fail("cake-prediction-unscaled", f"you predicted cake's output {numbers(predicted_output)}, "
                                                     f"which is the blend without dividing by √d_k")
        attempt.fail("cake-output-off", f"you predicted cake's output {numbers(predicted_output)}; "
                                        f"your keys give {numbers(weights @ values)}")
