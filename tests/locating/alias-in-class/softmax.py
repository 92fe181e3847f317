"""A class keeps each step as an attribute; the powers attribute is the shift itself."""


class Steps:
    def __init__(self, scores, dim):
        self.shift = scores - scores.amax(dim=dim, keepdim=True)
        self.powers = self.shift
        self.weights = self.powers / self.powers.sum(dim=dim, keepdim=True)


def softmax(scores, dim=-1):
    return Steps(scores, dim).weights
