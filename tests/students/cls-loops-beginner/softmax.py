"""Exercise `softmax`: raise e to each score and divide by the total."""
import torch


def softmax(scores, dim=-1):
    # I find loops easier to read than the fancy tensor stuff.
    # Put the dimension we normalise over last, so every "row" is just a list of numbers.
    moved = scores.movedim(dim, -1)
    rows = moved.reshape(-1, moved.shape[-1])

    result = []
    for row in rows:
        # find the biggest score (the trick from the short lesson, so exp never overflows)
        biggest = row[0]
        for value in row:
            if value > biggest:
                biggest = value

        exps = []
        for value in row:
            exps.append(torch.exp(value - biggest))

        total = 0
        for e in exps:
            total = total + e

        new_row = []
        for e in exps:
            new_row.append(e / total)
        result.append(torch.stack(new_row))

    out = torch.stack(result).reshape(moved.shape)
    return out.movedim(-1, dim)
