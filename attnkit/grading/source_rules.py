"""Interim: names used in a module's source (replaced by the source-rules engineer's analysis)."""
from __future__ import annotations

import ast
from typing import Collection, Mapping


def forbidden_uses(sources: Mapping[str, str], module: str, forbidden: Collection[str]) -> list[str]:
    names = {n.lower() for n in forbidden}
    try:
        tree = ast.parse(sources.get(f"{module}.py", ""))
    except SyntaxError:
        return []
    uses = []
    for node in ast.walk(tree):
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if name and name.lower() in names and not (isinstance(node, ast.Name) and name == module):
            uses.append(f"{module}.py, line {node.lineno}: uses {name}")
    return uses
