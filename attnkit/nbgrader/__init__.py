"""attnkit as an nbgrader course: notebooks built from the registry, graded by the kit."""

# Seconds nbgrader allows one cell beyond the kit's own limits: starting the kit and its sandbox, and
# importing torch (3-4 s here), with room to spare. Here, not in build.py, so that `build --help` can
# say the default without importing nbformat.
TIMEOUT_MARGIN = 30
