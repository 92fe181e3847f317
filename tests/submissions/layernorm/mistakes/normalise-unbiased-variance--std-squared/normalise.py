import torch
def normalise(x, eps=1e-5):
    mu = torch.mean(x, -1, keepdim=True)
    sigma = torch.std(x, -1, keepdim=True)
    return (x - mu) / torch.sqrt(sigma ** 2 + eps)
