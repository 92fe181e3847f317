"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# chocolate's key points the other way: cake . chocolate = 1*0 + 1*(-4) = -4
KEYS = [[2.0, 0.0], [0.0, -4.0], [1.0, 1.0]]

# scores 2, -4, 2 -> /1.414 -> 1.41, -2.83, 1.41
# e^1.41 = 4.1, e^-2.83 = 0.059, e^1.41 = 4.1, total 8.26
PREDICTED_WEIGHTS = [0.50, 0.01, 0.50]
# 0.5*[10,0] + 0.01*[0,10] + 0.5*[5,5]
PREDICTED_OUTPUT = [7.45, 2.55]
