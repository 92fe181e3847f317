"""Exercise `cake`: Try it yourself."""

QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
# chocolate's key turned away from cake's query: cake's scores are 2, -2, 2 before scaling
KEYS = [[2.0, 0.0], [0.0, -2.0], [1.0, 1.0]]
# 1.414, -1.414, 1.414 after dividing by sqrt(2); e^x: 4.11, 0.24, 4.11 of 8.47
PREDICTED_WEIGHTS = [0.486, 0.029, 0.486]
PREDICTED_OUTPUT = [7.28, 2.72]
