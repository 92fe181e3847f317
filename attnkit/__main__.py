"""`python -m attnkit`: the command line, run with this interpreter (the notebook's self-check uses it)."""
from attnkit.cli import main

main()
