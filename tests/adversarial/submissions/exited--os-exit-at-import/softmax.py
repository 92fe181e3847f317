"""Ends the sandbox the moment it is imported."""
import os

os._exit(0)
