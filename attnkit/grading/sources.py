"""The student's files as the grader reads them: their lines, and which statement each line belongs to.

Read in the grader, never taken from the student's process: a trace's bindings are believed only where
they name a file read here and a line holding a statement in it (attnkit/grading/locating.py).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

MAX_CODE = 200      # characters of a line quoted in the feedback
MAX_SOURCE_BYTES = 1 << 20


@dataclass(frozen=True)
class Source:
    """One of the student's files as the grader read it: its lines, and each line's statement."""

    name: str
    lines: list[str]
    statements: dict[int, int]   # line -> the first line of the innermost statement holding it
    def_lines: set[int]           # lines where a function's arguments are bound (def and decorators)
    ends: dict[int, int]          # a statement's first line -> its last (a compound statement's header)
    loops: frozenset[int] = frozenset()  # lines of `for` headers: the numbers they bind are counters, not steps
    headers: dict[int, tuple[int, ...]] = field(default_factory=dict)  # line -> the loop headers around it

    @classmethod
    def parse(cls, name: str, text: str) -> Source | None:
        """None for a file that does not parse (a module that does not compile is located by its SyntaxError)."""
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return None
        spans: dict[int, tuple[int, int]] = {}  # line -> (span length, first line) of the innermost statement
        ends: dict[int, int] = {}
        def_lines: set[int] = set()
        loops: set[int] = set()
        headers: dict[int, tuple[int, ...]] = {}
        for node in ast.walk(tree):  # outer loops before inner ones: a line's headers, outermost first
            if isinstance(node, (ast.For, ast.AsyncFor)):
                loops.add(node.lineno)
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and node.body:
                for line in range(node.body[0].lineno, (node.end_lineno or node.lineno) + 1):
                    headers[line] = (*headers.get(line, ()), node.lineno)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                def_lines.add(node.lineno)
                def_lines.update(d.lineno for d in getattr(node, "decorator_list", []))
            if not isinstance(node, ast.stmt):
                continue
            body = getattr(node, "body", None)
            last = body[0].lineno - 1 if isinstance(body, list) and body else (node.end_lineno or node.lineno)
            ends[node.lineno] = max(last, node.lineno)
            for line in range(node.lineno, max(last, node.lineno) + 1):
                if line not in spans or spans[line][0] > last - node.lineno:
                    spans[line] = (last - node.lineno, node.lineno)
        return cls(name, text.splitlines(), {line: first for line, (_, first) in spans.items()}, def_lines, ends,
                   frozenset(loops), headers)

    def code(self, line: int) -> str:
        return self.lines[line - 1].strip()[:MAX_CODE] if 0 < line <= len(self.lines) else ""

    def statement(self, line: int) -> str:
        """The statement starting on `line`, whole where it is simple; a compound one's header as `if x: pass`."""
        text = "\n".join(self.lines[line - 1:self.ends.get(line, line)]).strip()
        return text + " pass" if text.endswith(":") else text


def read_sources(package: Path) -> dict[str, Source]:
    """The student's modules that parse, by file name (read here, never taken from the student's process)."""
    sources: dict[str, Source] = {}
    for path in sorted(package.glob("*.py")) if package.is_dir() else []:
        try:
            if path.is_symlink() or path.stat().st_size > MAX_SOURCE_BYTES:
                continue
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        source = Source.parse(path.name, text)
        if source is not None:
            sources[path.name] = source
    return sources


def names_read(source: Source, line: int) -> list[str]:
    """The names a statement reads, in order (its first line, where it does not parse whole)."""
    try:
        tree = ast.parse(source.statement(line))
    except SyntaxError:
        return []
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.append(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.append(f"self.{node.attr}")
    return list(dict.fromkeys(names))
