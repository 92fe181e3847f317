"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

KEYS = [[2.0, 0.0], [0.0, -2.5], [1.0, 1.0]]

# scores 2, -2.5, 2 -> 1.41, -1.77, 1.41
PREDICTED_WEIGHTS = [0.49, 0.02, 0.49]

# TODO(cake): and predict cake's output vector by hand, Step 4: Blend.
# A list of two numbers.
PREDICTED_OUTPUT = None
