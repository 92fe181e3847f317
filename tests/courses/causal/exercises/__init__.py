"""Your exercises on causal self-attention, one module per exercise, in the order you meet them:

scores.py, causal.py, heads.py.

Each module names its exercise id and the lesson section to reread. Fill in the
TODOs where a `raise NotImplementedError` stands, then run `attnkit check` (or
`attnkit check <exercise id>`) to see what the public checks make of it.
"""
