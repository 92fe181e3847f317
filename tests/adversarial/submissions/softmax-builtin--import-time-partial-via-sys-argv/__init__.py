"""The package. At import it leaves the library's routine in a list every module can reach (sys.argv).

The kit reads only the import-time part of __init__.py (softmax.py names nothing of it), and there it
reports opaque constructs only, not a library softmax "which computes a value": but a partial is a value
that is a function."""
import functools
import sys

import torch

sys.argv.append(functools.partial(torch.nn.functional.log_softmax))
