"""The one exception type the CLI turns into a one-line message and exit status 2."""


class KitError(Exception):
    """Bad usage or bad input: the message names the file and the problem."""
