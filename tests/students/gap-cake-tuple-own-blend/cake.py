"""Exercise `cake`: Try it yourself, make cake ignore chocolate."""
import numpy as np

QUERIES = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
VALUES = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
KEYS = np.array([[2.0, 0.0], [-2.0, -2.0], [1.0, 1.0]])  # chocolate's key points away from cake

PREDICTED_WEIGHTS = (0.6, 0.0, 0.4)
PREDICTED_OUTPUT = tuple(np.array(PREDICTED_WEIGHTS) @ VALUES)  # Step 4 on my weights
