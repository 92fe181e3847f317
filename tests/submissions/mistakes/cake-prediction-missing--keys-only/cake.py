QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]
PREDICTED_WEIGHTS = None
PREDICTED_OUTPUT = None
