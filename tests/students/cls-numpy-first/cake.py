"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
import numpy as np

QUERIES = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
VALUES = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])

# chocolate's key now points straight away from cake's query [1, 1]
KEYS = np.array([[2.0, 0.0], [-3.0, -3.0], [1.0, 1.0]])

# scores 2, -6, 2; / sqrt(2): 1.41, -4.24, 1.41; e^-5.66 = 0.0035 relative to the others
PREDICTED_WEIGHTS = np.array([0.50, 0.00, 0.50])
PREDICTED_OUTPUT = np.array([7.49, 2.51])
