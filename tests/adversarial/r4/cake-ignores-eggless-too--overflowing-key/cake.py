"""One key changed (cake's own) to numbers so large that cake's score overflows: cake then attends to
itself alone, eggless gets no weight. The grader's weights come out nan, and every comparison with nan
is false: neither "cake still attends chocolate" nor "cake ignores eggless too" is reported.
"""
QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
KEYS = [[2.0, 0.0], [0.0, 1.0], [1e308, 1e308]]
PREDICTED_WEIGHTS = [0.0, 0.0, 1.0]
PREDICTED_OUTPUT = [5.0, 5.0]
