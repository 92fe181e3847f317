"""Test-suite settings shared by every test module."""
from hypothesis import settings

# Property tests draw the same examples on every run (derandomized, no example database): a suite that
# decides whether a change lands must not pass or fail by the luck of the draw. To explore afresh while
# working, run `pytest --hypothesis-profile=explore`.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile("repeatable")


def pytest_collection_modifyitems(items):
    """Run slow end-to-end tests last, so a quick failure shows first."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is not None)
