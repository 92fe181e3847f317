"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
# Given: leave the queries and values as the lesson has them.
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# chocolate's key flipped round so it points the opposite way from cake's query (1, 1)
KEYS = ((2, 0), (-1, -1), (1, 1))

# by hand: cake . keys = 2, -2, 2; divided by sqrt(2) = 1.41, -1.41, 1.41
# e^1.41 = 4.11, e^-1.41 = 0.24, total = 8.46
PREDICTED_WEIGHTS = (0.49, 0.03, 0.49)

# 0.49 * (10, 0) + 0.03 * (0, 10) + 0.49 * (5, 5)
PREDICTED_OUTPUT = (7.35, 2.75)
