"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# Chocolate's key now points away from cake's query [1, 1].
KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]

# Cake's scores 2, -3, 2, divided by √2: 1.414, -2.121, 1.414.
PREDICTED_WEIGHTS = [0.49, 0.01, 0.49]
PREDICTED_OUTPUT = [7.4, 2.6]
