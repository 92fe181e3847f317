"""Exercise `cake`: Try it yourself, make cake ignore chocolate.

Lesson: "Try it yourself", on the table of "Following “cake” through attention,
number by number". Check it with `attnkit check cake`.

Rows are the tokens eggless, chocolate, cake.
"""
# Given: leave the queries and values as the lesson has them.
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]

# TODO(cake): change exactly one key so that cake ignores chocolate almost
# entirely (cake's weight on chocolate below 0.05) while cake still draws on
# eggless. Think about what makes cake's query [1, 1] score low against a key.
KEYS = [[2.0, 0.0], [0.0, 1.0], [1.0, 1.0]]

# TODO(cake): before running anything, predict by hand cake's three weights
# (on eggless, chocolate, cake) for your keys, to two decimals: Steps 1 to 3,
# score, scale by √d_k, softmax. A list of three numbers. Then check your keys
# and your prediction with the lesson's Step 1 code (or your own attention):
# `attnkit check` only sees that they are written in; grading computes them.
PREDICTED_WEIGHTS = None

# TODO(cake): and predict cake's output vector by hand, Step 4: Blend.
# A list of two numbers.
PREDICTED_OUTPUT = None
