"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# a zero key matches nothing, so cake should not look at chocolate
KEYS = [[2.0, 0.0], [0.0, 0.0], [1.0, 1.0]]

# cake: 2, 0, 2 -> 1.414, 0, 1.414 -> e: 4.11, 1, 4.11, total 9.23
PREDICTED_WEIGHTS = [0.45, 0.11, 0.45]
PREDICTED_OUTPUT = [6.69, 3.31]
