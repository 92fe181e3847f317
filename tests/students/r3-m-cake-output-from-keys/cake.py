"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]

# scores 2, -3, 2 -> /1.414 -> 1.414, -2.121, 1.414 -> softmax
PREDICTED_WEIGHTS = [0.49, 0.01, 0.49]
# blend: 0.49*[2, 0] + 0.01*[0, -3] + 0.49*[1, 1]
PREDICTED_OUTPUT = [1.47, 0.46]
