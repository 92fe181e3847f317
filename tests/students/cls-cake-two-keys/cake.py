"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# push chocolate away AND pull eggless closer, to be extra sure
KEYS = [[3.0, 0.0], [0.0, -3.0], [1.0, 1.0]]

# cake: 3, -3, 2 -> 2.12, -2.12, 1.41 -> e^0 = 1, e^-4.24 = 0.014, e^-0.71 = 0.49 (relative)
PREDICTED_WEIGHTS = [0.66, 0.01, 0.33]
PREDICTED_OUTPUT = [8.27, 1.73]
