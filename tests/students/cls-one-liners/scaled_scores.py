scaled_scores = lambda Q, K: Q @ K.transpose(-1, -2) * K.shape[-1] ** -0.5
