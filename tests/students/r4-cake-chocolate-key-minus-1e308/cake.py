"""Exercise `cake`: make cake ignore chocolate."""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
# as far from cake's question as a float can go: chocolate's score is hugely negative, e^score is 0
KEYS = [[2.0, 0.0], [-1e308, -1e308], [1.0, 1.0]]
PREDICTED_WEIGHTS = [0.5, 0.0, 0.5]
PREDICTED_OUTPUT = [7.5, 2.5]
