import torch
QUERIES = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
KEYS = torch.tensor([[6.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
PREDICTED_WEIGHTS = torch.tensor([[0.92, 0.03, 0.05]])
PREDICTED_OUTPUT = (9.5, 0.55)
