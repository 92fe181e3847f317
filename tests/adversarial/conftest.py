# The hostile submissions are data: one of them ships a conftest.py meant to hijack pytest.
collect_ignore = ["submissions"]
