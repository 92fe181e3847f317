"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# make cake's own key huge so cake listens to itself and not to chocolate
KEYS = [[2.0, 0.0], [0.0, 1.0], [6.0, 6.0]]

# cake: 2, 1, 12 -> 1.41, 0.71, 8.49: everything goes to cake itself
PREDICTED_WEIGHTS = [0.00, 0.00, 1.00]
PREDICTED_OUTPUT = [5.00, 5.00]
