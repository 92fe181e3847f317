"""Exercise `projection`: SelfAttention1H from STICKER1998/AI-in-Finance notebooks/Topic1.md, as written."""
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_key):
        """
        Initialize the self-attention module.

        Parameters:
        - d_model (int): Dimensionality of the input feature space.
        - d_key (int): Dimensionality of the key and query vectors.
        """
        super(SelfAttention, self).__init__()
        self.d_model = d_model
        self.d_key = d_key

        # Linear transformations for query, key, and value vectors
        self.W_q = nn.Linear(in_features=d_model, out_features=d_key, bias=False)
        self.W_k = nn.Linear(in_features=d_model, out_features=d_key, bias=False)
        self.W_v = nn.Linear(in_features=d_model, out_features=d_key, bias=False)

    def forward(self, x):
        """
        Parameters:
        - x (Tensor): Input tensor of shape (Batch_size, Sequence_length, d_model).
        """
        # Generate query, key, and value tensor
        queries = self.W_q(x)  # Shape: (Batch_size, Sequence_length, d_key)
        keys = self.W_k(x)     # Shape: (Batch_size, Sequence_length, d_key)
        values = self.W_v(x)   # Shape: (Batch_size, Sequence_length, d_value)

        # Calculate attention scores
        score = torch.einsum("bqd, bkd->bqk", [queries, keys])  # Shape: (Batch_size, Sequence_length, Sequence_length)

        # Apply softmax to normalize the scores
        attention = torch.softmax(score / (self.d_key ** 0.5), dim=2)

        # Weighted sum of values based on the attention scores
        out = torch.einsum("bqk, bkd->bqd", [attention, values])  # Shape: (Batch_size, Sequence_length, d_value)

        return out, attention
