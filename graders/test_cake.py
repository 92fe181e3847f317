"""Grader for exercise `cake`: Try it yourself, make cake ignore chocolate.

The checks read the student's constants and run the lesson's Step 1 to 3 on them here, in the
grader: the answer depends on the keys the student chose, so it cannot be recorded in advance.
Every check names every mistake it sees.
"""
import numpy as np

from attnkit.grading.api import constants

SETTINGS = {
    "chocolate_threshold": 0.05,   # "almost entirely": cake's weight on chocolate below this
    "eggless_minimum": 0.10,       # cake must still draw on eggless
    "prediction_tolerance": 0.02,  # hand predictions are read to two decimals
}
TABLES = {"QUERIES": "queries", "KEYS": "keys", "VALUES": "values"}  # constant -> the lesson's [data] table
PREDICTIONS = {"PREDICTED_WEIGHTS": 3, "PREDICTED_OUTPUT": 2}       # name -> how many numbers
CAKE, EGGLESS, CHOCOLATE = 2, 0, 1                                  # rows of the tables
FOUR_PLACES = 5e-5 + 1e-12  # two numbers equal to four decimal places differ by at most half a unit of the fourth


def read_cake(attempt, data) -> dict:
    """The student's constants as arrays (None stays None); the untouched stub fails as not implemented."""
    cake = attempt.require(attempt.run(constants("cake", [*TABLES, *PREDICTIONS])))
    values = {name: (None if r.kind == "none" else r.array if r.kind == "array" else r.type_name)
              for name, r in cake.constants.items()}
    if all(same(values[name], data[table]) for name, table in TABLES.items()) and all(
            values[name] is None for name in PREDICTIONS):
        attempt.fail("not-implemented",
                     "KEYS and the predictions are still as handed out: change one key, then predict")
    return values


def same(value, table: np.ndarray) -> bool:
    return (isinstance(value, np.ndarray) and value.shape == table.shape
            and bool(np.allclose(value, table, rtol=0, atol=1e-9)))


def table(attempt, cake: dict, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """One of the 3x2 tables (rows eggless, chocolate, cake), or stop the check saying what is wrong with it."""
    value = cake[name]
    if value is None:
        attempt.fail("not-implemented", f"{name} is None")
    if not isinstance(value, np.ndarray):
        attempt.fail("wrong-type", f"{name} is a {value}, not a table of numbers")
    if value.shape != shape:
        attempt.fail("wrong-shape", f"{name} has shape {value.shape}, expected {shape}: "
                                    "one row a token (eggless, chocolate, cake), two numbers a row")
    if not np.isfinite(value).all():
        attempt.fail("not-finite", f"{name} holds nan or inf")
    return value


def cake_weights(queries: np.ndarray, keys: np.ndarray, scaled: bool = True) -> np.ndarray:
    """Cake's weights on (eggless, chocolate, cake), as the lesson's Step 1 code computes them.

    In extended precision where the machine has it: a key of 1e308 is finite, but its dot product with
    cake's query is not in float64, and nan weights would compare false with every threshold."""
    wide = np.longdouble
    scores = queries[CAKE].astype(wide) @ keys.T.astype(wide) / (np.sqrt(wide(keys.shape[-1])) if scaled else 1.0)
    powers = np.exp(scores - scores.max())  # the lesson's Step 3, as its step-by-step writes it
    return (powers / powers.sum()).astype(np.float64)


def finite_weights(attempt, weights: np.ndarray) -> np.ndarray:
    """The weights, or stop the check: keys this large overflow even the lesson's stable Step 3."""
    if not np.isfinite(weights).all():
        attempt.fail("not-finite", "with your keys cake's scores overflow, so its weights cannot be computed: "
                                   "keep the keys to sensible sizes (the lesson's are 0, 1 and 2)")
    return weights


def numbers(values: np.ndarray) -> str:
    return "[" + ", ".join(f"{v:.2f}" for v in values) + "]"


def test_one_key_changed(attempt, data):
    """exactly one key changed; queries and values as in the lesson"""
    cake = read_cake(attempt, data)
    for name, mistake in (("QUERIES", "cake-changed-query"), ("VALUES", "cake-changed-values")):
        if not same(table(attempt, cake, name, data[TABLES[name]].shape), data[TABLES[name]]):
            attempt.report(mistake, f"{name} is not the lesson's table any more")
    keys = table(attempt, cake, "KEYS", data["keys"].shape)
    changed = [token for token, key, given in zip(data["tokens"], keys, data["keys"]) if not same(key, given)]
    if not changed and not attempt.record.findings:  # a changed query or value already says what was done instead
        attempt.report("not-implemented", "KEYS is still the lesson's table: no key changed yet")
    if len(changed) > 1:
        attempt.report("cake-changed-several-keys", f"the keys of {' and '.join(changed)} changed")


def test_cake_ignores_chocolate(attempt, data, settings):
    """cake's weight on chocolate is almost zero, and cake still draws on eggless"""
    cake = read_cake(attempt, data)
    weights = finite_weights(attempt, cake_weights(table(attempt, cake, "QUERIES", data["queries"].shape),
                                                   table(attempt, cake, "KEYS", data["keys"].shape)))
    chocolate, eggless = weights[CHOCOLATE], weights[EGGLESS]
    if chocolate >= settings["chocolate_threshold"]:
        attempt.report("cake-still-attends-chocolate", f"with your keys cake's weight on chocolate is {chocolate:.3f}, "
                                                       f"not below {settings['chocolate_threshold']}")
    if eggless < settings["eggless_minimum"]:
        attempt.report("cake-ignores-eggless-too", f"with your keys cake's weight on eggless is {eggless:.3f}, "
                                                   f"below {settings['eggless_minimum']}")


def prediction(attempt, cake: dict, name: str) -> np.ndarray | None:
    """A hand prediction as a flat vector of the expected length; None (reported) when it is missing or malformed."""
    value = cake[name]
    if value is None:
        attempt.report("cake-prediction-missing", f"{name} is still None: predict it by hand before running anything")
        return None
    if not isinstance(value, np.ndarray) or value.size != PREDICTIONS[name]:
        size = value.size if isinstance(value, np.ndarray) else "no"
        attempt.report("wrong-shape", f"{name} holds {size} numbers, expected {PREDICTIONS[name]}")
        return None
    return value.reshape(-1)


def test_written_predictions(attempt, data):
    """your predictions of cake's weights and output are written in (numbers, not None)"""
    cake = read_cake(attempt, data)
    for name in PREDICTIONS:
        prediction(attempt, cake, name)


def test_predictions(attempt, data, settings):
    """the hand-predicted weights and output match what the Step 1 code gives for your keys"""
    cake = read_cake(attempt, data)
    predicted_weights = prediction(attempt, cake, "PREDICTED_WEIGHTS")
    predicted_output = prediction(attempt, cake, "PREDICTED_OUTPUT")
    queries, keys, values = (table(attempt, cake, name, data[t].shape) for name, t in TABLES.items())
    weights = finite_weights(attempt, cake_weights(queries, keys))
    unscaled = cake_weights(queries, keys, scaled=False)
    tolerance = settings["prediction_tolerance"]
    # Weights each within the tolerance move the blend by at most tolerance x the column's total |value|.
    output_tolerance = tolerance * np.abs(values).sum(axis=0)

    def near(predicted: np.ndarray, actual: np.ndarray, within) -> bool:
        return bool(np.all(np.abs(predicted - actual) <= within))

    def unscaled_exactly(predicted: np.ndarray, unscaled_value: np.ndarray, scaled_value: np.ndarray) -> bool:
        """The computation without √d_k to four places (and that is not also the right one to four places):
        the unscaled numbers, even where they fall within the tolerance of the right ones."""
        return near(predicted, unscaled_value, FOUR_PLACES) and not near(unscaled_value, scaled_value, FOUR_PLACES)

    weights_off = False
    if predicted_weights is not None:
        if unscaled_exactly(predicted_weights, unscaled, weights) or (
                not near(predicted_weights, weights, tolerance) and near(predicted_weights, unscaled, tolerance)):
            attempt.report("cake-prediction-unscaled", f"you predicted cake's weights {numbers(predicted_weights)}, "
                                                       "which is what the scores give without dividing by √d_k")
            weights_off = True
        elif not near(predicted_weights, weights, tolerance):
            attempt.report("cake-prediction-off", f"you predicted cake's weights {numbers(predicted_weights)}; "
                                                  f"your keys give {numbers(weights)}")
            weights_off = True
    if predicted_output is None:
        return
    output, unscaled_output = weights @ values, unscaled @ values
    if unscaled_exactly(predicted_output, unscaled_output, output) or (
            not near(predicted_output, output, output_tolerance)
            and near(predicted_output, unscaled_output, output_tolerance)):
        attempt.report("cake-prediction-unscaled", f"you predicted cake's output {numbers(predicted_output)}, "
                                                   "which is the blend without dividing by √d_k")
    elif not near(predicted_output, output, output_tolerance):
        if weights_off and near(predicted_output, predicted_weights @ values, output_tolerance):
            return  # the blend of the student's own weights: Step 4 done right on them, no second mistake
        attempt.report("cake-output-off", f"you predicted cake's output {numbers(predicted_output)}; "
                                          f"your keys give {numbers(output)}")
