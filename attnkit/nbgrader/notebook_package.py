"""Written by attnkit: the `exercises` package made from the answer cells of an nbgrader notebook.

(This file is the package's `__init__.py`; attnkit copies it there as it is.)

In a notebook every cell sees the names of the cells above it. So each module's
first line calls `earlier_cells` with the modules of the exercises before it, in
the course's order, and gets their names as the cell got them in the notebook:
later cells' names over earlier ones', every name but the module's own dunders.
A declared dependency must import (its failure is reported where it happened,
in the dependency); any other earlier cell that fails is skipped, as a failed
cell above leaves only its own names undefined in a notebook.
"""
from __future__ import annotations

from importlib import import_module


def earlier_cells(namespace: dict, modules: list[str], required: tuple[str, ...] = ()) -> None:
    """Copy into `namespace` the names of each of `modules` of this package, in order."""
    for name in modules:
        try:
            module = import_module(f".{name}", __name__)
        except (Exception, SystemExit):  # as IPython, which carries on after a cell that exits
            if name in required:
                raise
            continue
        namespace.update({key: value for key, value in vars(module).items()
                          if not (key.startswith("__") and key.endswith("__"))})
