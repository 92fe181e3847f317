"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# chocolate's key now points a bit away from cake's query [1, 1]
KEYS = [[2.0, 0.0], [-1.0, 0.0], [1.0, 1.0]]

# cake's scores: 2, -1, 2 -> / 1.41 -> 1.41, -0.71, 1.41
# e^1.41 = 4.10, e^-0.71 = 0.49, total 8.69
PREDICTED_WEIGHTS = [0.47, 0.06, 0.47]
# 0.47 * [10, 0] + 0.06 * [0, 10] + 0.47 * [5, 5]
PREDICTED_OUTPUT = [7.05, 2.95]
