"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
from typing import Tuple

Row = Tuple[float, float]

QUERIES: Tuple[Row, Row, Row] = ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0))
VALUES: Tuple[Row, Row, Row] = ((10.0, 0.0), (0.0, 10.0), (5.0, 5.0))

# chocolate's key turned to face the other way along the first axis
KEYS: Tuple[Row, Row, Row] = ((2.0, 0.0), (-5.0, 0.0), (1.0, 1.0))

# cake: 2, -5, 2 -> 1.41, -3.54, 1.41 -> e^-4.95 = 0.007 relative -> 0.498, 0.0035, 0.498
PREDICTED_WEIGHTS: Tuple[float, float, float] = (0.50, 0.00, 0.50)
PREDICTED_OUTPUT: Tuple[float, float] = (7.47, 2.53)
