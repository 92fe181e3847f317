"""Exercise `cake`: Try it yourself, make cake ignore chocolate."""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]

# cake . keys = 2, -3, 2  ->  e^2, e^-3, e^2 over their total
PREDICTED_WEIGHTS = [0.4983, 0.0034, 0.4983]
PREDICTED_OUTPUT = [7.4748, 2.5252]
