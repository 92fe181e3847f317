"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Rows are the tokens eggless, chocolate, cake.
"""
import torch

QUERIES = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
VALUES = torch.tensor([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])

# chocolate's key pointed hard away from cake's query [1, 1]
KEYS = torch.tensor([[2.0, 0.0], [0.0, -5.0], [1.0, 1.0]])

# by hand: cake's scores 2, -5, 2 -> /1.414 -> 1.414, -3.536, 1.414
# e^1.414 = 4.11, e^-3.536 = 0.029, total 8.25
PREDICTED_WEIGHTS = torch.tensor([0.498, 0.004, 0.498])
# 0.498*[10,0] + 0.004*[0,10] + 0.498*[5,5]
PREDICTED_OUTPUT = torch.tensor([7.47, 2.53])
