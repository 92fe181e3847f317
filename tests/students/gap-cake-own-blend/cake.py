"""Exercise `cake`: Try it yourself, make cake ignore chocolate."""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]

PREDICTED_WEIGHTS = [0.45, 0.10, 0.45]   # my guess from the scores
PREDICTED_OUTPUT = [6.75, 3.25]          # 0.45*[10,0] + 0.10*[0,10] + 0.45*[5,5]
