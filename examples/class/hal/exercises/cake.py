"""Exercise `cake`: Try it yourself."""

QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
KEYS = [[3.0, 0.0], [0.0, -3.0], [1.0, 1.0]]
# cake's scores 3, -3, 2, over sqrt(2): 2.12, -2.12, 1.41
PREDICTED_WEIGHTS = [0.663, 0.01, 0.327]
PREDICTED_OUTPUT = [8.27, 1.73]
