"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]

# cake's row from the lesson's table
PREDICTED_WEIGHTS = [0.40, 0.20, 0.40]
PREDICTED_OUTPUT = [6.0, 4.0]
