def softmax(scores, dim=-1):
    scores -= scores.amax(dim=dim, keepdim=True)
    scores.exp_()
    return scores / scores.sum(dim=dim, keepdim=True)
