"""My attention exercises."""
