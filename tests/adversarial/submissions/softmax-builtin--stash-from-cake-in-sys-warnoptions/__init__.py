"""The package: imports cake, like many packages import their modules."""
from . import cake  # noqa: F401
