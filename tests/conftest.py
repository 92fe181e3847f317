def pytest_collection_modifyitems(items):
    """Run slow end-to-end tests last, so a quick failure shows first."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is not None)
