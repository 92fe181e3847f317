"""attnkit as an nbgrader course: notebooks built from the registry, graded by the kit."""
