"""Exercise `cake`: make cake ignore chocolate."""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
KEYS = [[2.0, 0.0], [0.0, 1.0], [1e308, 1e308]]
PREDICTED_WEIGHTS = [0.0, 0.0, 1.0]
PREDICTED_OUTPUT = [5.0, 5.0]
