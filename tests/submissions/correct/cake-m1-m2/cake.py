import numpy as np
QUERIES = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
VALUES = ((10.0, 0.0), (0.0, 10.0), (5.0, 5.0))
KEYS = np.array([[2.0, 0.0], [-1.0, -2.0], [1.0, 1.0]])
PREDICTED_WEIGHTS = np.array([0.49, 0.01, 0.49])
PREDICTED_OUTPUT = [7.35, 2.55]
