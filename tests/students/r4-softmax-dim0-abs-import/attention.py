"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import exercises.scaled_scores as ss
import exercises.softmax as sm


def attention(Q, K, V):
    w = sm.softmax(ss.scaled_scores(Q, K), -1)
    out = w @ V
    return out, w
