"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
# I also turned chocolate's value down a little, so even its small share says less chocolate
VALUES = [[10.0, 0.0], [0.0, 9.0], [5.0, 5.0]]

KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]

PREDICTED_WEIGHTS = [0.49, 0.01, 0.49]
PREDICTED_OUTPUT = [7.39, 2.60]
