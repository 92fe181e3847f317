"""Running untrusted student code in a process of its own.

Only plain data crosses the boundary: requests go in as JSON, results come
back as JSON with arrays as raw float64 bytes (see `protocol`). Nothing the
student's code returns is ever unpickled or called in the grader's process.
"""
