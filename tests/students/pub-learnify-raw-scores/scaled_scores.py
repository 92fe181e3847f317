"""Exercise `scaled_scores`, step 2 of the Learnify notebook "Self-Attention from Scratch".

    # 2. Calculate Attention Scores (Q @ K_transpose)
    scores = np.dot(Q, K.T)
"""
import torch


def scaled_scores(Q, K):
    # 2. Calculate Attention Scores (Q @ K_transpose)
    scores = torch.matmul(Q, K.T)
    return scores
