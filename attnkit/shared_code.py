"""Submissions whose code of one exercise is the same once comments, formatting and local names are set aside.

Read from the module files in the trusted process (parsed, never run). A module's code is reduced to its
syntax tree with docstrings dropped, every name it binds itself (parameters, local variables, loop and
comprehension variables, nested functions) renamed in the order they first appear, and import aliases
read as the module they stand for; what stays is what the code does with which library calls. Two
submissions with the same reduced tree share their code.

Not counted as shared: code that reduces to the stub's or to the reference's (the lesson prints that
code: students who copy it from the lesson copy it from the same page), code too short to be told
apart from what honest students write independently (`MIN_NODES`), and a module of constants alone
(an exercise answered with numbers: honest students pick the same ones). It is a list for the instructor to
look at, never a penalty, and never in a student's feedback.
"""
from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnkit.config import Course

MIN_NODES = 60  # syntax nodes below which two independently written answers may well coincide


@dataclass
class SharedCode:
    """Students whose code of one exercise reduces to the same tree."""

    exercise: str
    students: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"exercise": self.exercise, "students": self.students}


class CodeDigests:
    """Each exercise's reduced-code digest in a submission's `exercises/` folder, for one course ("" where it
    is not to be compared: missing, unparseable, too short, or the stub's or the reference's own).

    About 2 ms a submission; a file met before (the same bytes: an untouched module, a shared file) is
    not parsed again."""

    def __init__(self, course: Course):
        self.modules = {e.id: f"{e.module}.py" for e in course.exercises}
        self.known: dict[bytes, str] = {}  # a file's bytes' digest -> its reduced digest
        self.own = {e_id: {self._digest(course.exercises_dir / m), self._digest(course.solutions_dir / m)}
                    for e_id, m in self.modules.items()}

    def of(self, package: Path) -> dict[str, str]:
        digests = {}
        for e_id, module in self.modules.items():
            digest = self._digest(package / module)
            digests[e_id] = "" if digest in self.own[e_id] else digest
        return digests

    def _digest(self, path: Path) -> str:
        try:
            data = path.read_bytes()
        except OSError:
            return ""
        key = hashlib.sha256(data).digest()
        if key not in self.known:
            self.known[key] = reduced_digest(data)
        return self.known[key]


def reduced_digest(source: bytes) -> str:
    """The digest of a module's reduced tree, or "" for one that does not parse or is short."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ""
    reduced = _Reducer().visit(tree)
    nodes = list(ast.walk(reduced))
    if len(nodes) < MIN_NODES or not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in nodes):
        return ""  # short, or numbers alone (an exercise answered by constants): honest answers coincide there
    return hashlib.sha256(ast.dump(reduced, annotate_fields=False).encode()).hexdigest()[:24]


class _Reducer(ast.NodeTransformer):
    """Docstrings out, bound names renamed `v0`, `v1`... in order of first appearance, import aliases undone.

    Top-level functions and classes keep their names (they are the exercise's API), as do attributes and
    every name read but not bound (modules, builtins)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}    # a name the code binds -> its canonical name
        self.aliases: dict[str, str] = {}  # `import torch as t`: t -> torch
        self.top_level: set[str] = set()

    def visit_Module(self, node: ast.Module) -> Any:
        self.top_level = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.ClassDef,
                                                                         ast.AsyncFunctionDef))}
        for statement in node.body:
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                for alias in statement.names:
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    alias.asname = None
        for inner in ast.walk(node):  # every name the code binds, in one order whatever the order of use
            if isinstance(inner, ast.arg):
                self._rename(inner.arg)
            elif isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
                self._rename(inner.id)
            elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._rename(inner.name)
        return self.generic_visit(node)

    def _rename(self, name: str) -> str:
        if name in self.top_level:
            return name
        return self.names.setdefault(name, f"v{len(self.names)}")

    def _drop_docstring(self, node: Any) -> Any:
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> Any:
        self._drop_docstring(node)
        if node.name not in self.top_level:
            node.name = self._rename(node.name)
        node.returns = None
        return self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> Any:
        self._drop_docstring(node)
        return self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> Any:
        node.arg, node.annotation = self._rename(node.arg), None
        return node

    def visit_Name(self, node: ast.Name) -> Any:
        if isinstance(node.ctx, ast.Load):
            node.id = self.aliases.get(node.id) or self.names.get(node.id) or node.id  # globals read kept
        else:
            node.id = self._rename(node.id)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Any:
        if node.value is None:
            return None
        return self.generic_visit(ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno))

    def visit_Expr(self, node: ast.Expr) -> Any:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # a string standing alone: a comment in all but name
        return self.generic_visit(node)


def shared_code(exercises: Iterable[str], digests: dict[str, dict[str, str]]) -> list[SharedCode]:
    """Groups of two or more students, per exercise, with one reduced digest; `digests`: student -> exercise ->
    digest. In course order, then largest first."""
    groups = []
    for exercise in exercises:
        by_digest: dict[str, list[str]] = {}
        for student, theirs in digests.items():
            if theirs.get(exercise):
                by_digest.setdefault(theirs[exercise], []).append(student)
        found = [sorted(s, key=str.casefold) for s in by_digest.values() if len(s) > 1]
        groups += [SharedCode(exercise, s) for s in sorted(found, key=lambda s: (-len(s), s[0].casefold()))]
    return groups
