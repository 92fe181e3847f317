"""The reference solutions of the causal course: the same modules as `exercises/`, filled in.

Instructors only. `attnkit handout` never copies this folder, and the grading
sandbox cannot see it.
"""
