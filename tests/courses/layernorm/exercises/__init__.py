"""Your exercises on layer normalisation, one module per exercise, in the order you meet them:

normalise.py, layernorm.py.

Each module names its exercise id. Fill in the TODOs where a `raise NotImplementedError` stands,
then run `attnkit check` (or `attnkit check <exercise id>`) to see what the public checks make of it.
"""
