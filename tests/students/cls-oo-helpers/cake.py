"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# I changed eggless's key instead: make it shout so loudly that chocolate drowns.
# cake's scores: 10, 1, 2 -> / 1.414 -> 7.07, 0.71, 1.41
KEYS = [[10.0, 0.0], [0.0, 1.0], [1.0, 1.0]]

# e^(0.71-7.07) = e^-6.36 = 0.0017, e^(1.41-7.07) = e^-5.66 = 0.0035
PREDICTED_WEIGHTS = [0.99, 0.00, 0.00]
PREDICTED_OUTPUT = [9.97, 0.03]
