"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# make eggless's key longer so it wins cake's attention
KEYS = [[6.0, 0.0], [0.0, 1.0], [1.0, 1.0]]

# by hand: cake's scores 6, 1, 2; e^6 = 403, e^1 = 2.7, e^2 = 7.4, total 413
PREDICTED_WEIGHTS = [0.98, 0.01, 0.02]
# (I ran the Step 1 code for the output)
PREDICTED_OUTPUT = [9.46, 0.54]
