"""Answer cells from the two single sources, and modules back from answer cells.

An answer cell is the stub (`exercises/<module>.py`) where it matches the
reference, and the reference (`solutions/<module>.py`) between nbgrader's
solution markers where they differ (after the stub's own statement, for a
constant the student edits): the stub's signatures, docstrings and
TODO comments stay visible in the release, and nbgrader replaces each marked
region with its `raise NotImplementedError()`. Nothing here is per exercise,
so a new exercise gets its cell from its stub and solution alone.

The way back, `module_source`, turns a student's cell into the package module
the kit grades: the cell defines its functions at top level and uses names of
earlier cells (attention calls softmax; any cell may call a helper defined
above it), which in the package are the names of every earlier exercise's
module.
"""
from __future__ import annotations

import ast
import re

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"  # what the release has between them (nbgrader_config.py)
MARKER = "# attnkit exercise: {exercise}"
MARKER_PATTERN = re.compile(r"^#\s*attnkit exercise:\s*(\w+)")
MAGIC_LINE = re.compile(r"^[%!].*$", re.MULTILINE)  # top-level only: an indented `%` may continue an expression

Node = ast.stmt
Function = ast.FunctionDef | ast.AsyncFunctionDef


def answer_cell_source(exercise_id: str, stub: str, solution: str) -> str:
    """The instructor's answer cell: marker line, then the merged module body."""
    text = "\n".join([MARKER.format(exercise=exercise_id), *_Merge(stub, solution).module()])
    return re.sub(r"\n{4,}", "\n\n\n", text).rstrip() + "\n"


def marked_exercise(cell_source: str) -> str | None:
    """The exercise id named by a cell's first line, if it is an answer cell's marker."""
    match = MARKER_PATTERN.match(cell_source.lstrip("\n"))
    return match.group(1) if match else None


def module_source(cell_source: str, earlier_modules: list[str], required: list[str]) -> str:
    """The package module for a student's cell; its line numbers stay the cell's.

    The cell sees the names of every earlier exercise's module, as it saw the
    earlier cells' names in the notebook (`notebook_package.earlier_cells`);
    `required` are its declared dependencies, whose failure to import is its
    own. That one call takes the place of the marker line (or comes first when
    the student removed it), so a crash reported at line 7 of the module is
    line 7 of the cell in every other case.
    """
    cell_source = without_magics(cell_source)
    if not earlier_modules:
        return cell_source
    call = f"from . import earlier_cells; earlier_cells(globals(), {earlier_modules!r}, {tuple(required)!r})"
    first, _, rest = cell_source.partition("\n")
    if first.lstrip().startswith("#"):
        return f"{call}  {first.strip()}\n{rest}"
    return f"{call}\n{cell_source}"


def without_magics(cell_source: str) -> str:
    """IPython's top-level `%magic` and `!shell` lines become `pass`: plain Python, same line numbers."""
    return MAGIC_LINE.sub(lambda m: f"pass  # {m.group(0).strip()}", cell_source)


def _name(node: Node) -> str | None:
    """What a top-level statement defines, to pair the stub's with the reference's."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return ",".join(ast.unparse(t) for t in targets)
    return None


def _docstring_end(node: ast.Module | ast.ClassDef | Function) -> int:
    """How many leading statements of the body are the docstring (0 or 1)."""
    body = node.body
    first = body[0] if body else None
    is_doc = (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
              and isinstance(first.value.value, str))
    return 1 if is_doc else 0


def _header_end(node: ast.ClassDef | Function) -> int:
    """The last line of a definition's signature and docstring."""
    first = node.body[0]
    return _end(first) if _docstring_end(node) else first.lineno - 1


def _end(node: Node) -> int:
    """A parsed statement's last line (ast.parse always sets it; the stubs allow None for nodes built by hand)."""
    assert node.end_lineno is not None
    return node.end_lineno


def _start(node: Node) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


class _Merge:
    """Walks the stub, taking the reference's code wherever the two differ."""

    def __init__(self, stub: str, solution: str):
        self.stub_lines = stub.splitlines()
        self.solution_lines = solution.splitlines()
        self.stub_tree = ast.parse(stub)
        self.solution_tree = ast.parse(solution)

    def module(self) -> list[str]:
        """The stub's module body, after its docstring (the task text of the notebook)."""
        skip = _docstring_end(self.stub_tree)
        start = _end(self.stub_tree.body[0]) + 1 if skip else 1
        imports = [] if self._last_import(self.stub_tree) else self._missing_imports()
        body = self._block(self.stub_tree.body[skip:], self.solution_tree.body, start, len(self.stub_lines))
        return imports + body

    def _block(self, stub_body: list[Node], solution_body: list[Node], first_line: int, last_line: int) -> list[str]:
        """Module or class statements, paired by the name they define."""
        counterparts = {_name(n): n for n in solution_body if _name(n)}
        own = self._reference_only(stub_body, solution_body)
        out: list[str] = []
        cursor = first_line
        for node in stub_body:
            out += self._stub(cursor, _start(node) - 1)
            cursor = _end(node) + 1
            counterpart = counterparts.get(_name(node))
            out += own.pop(_name(node), [])
            if node is self._last_import(self.stub_tree):
                out += self._stub(_start(node), _end(node)) + self._missing_imports()
                continue
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                continue  # in the notebook, earlier cells' names are already defined
            if counterpart is None or self._same(node, counterpart):
                out += self._stub(_start(node), _end(node))
            elif isinstance(node, ast.ClassDef) and isinstance(counterpart, ast.ClassDef):
                out += self._class(node, counterpart)
            elif isinstance(node, Function) and isinstance(counterpart, Function):
                out += self._function(node, counterpart)
            else:
                out += self._replaced(node, counterpart)
        return out + self._stub(cursor, last_line) + [line for lines in own.values() for line in lines]

    def _reference_only(self, stub_body: list[Node], solution_body: list[Node]) -> dict[str | None, list[str]]:
        """The reference's definitions the stub lacks (a helper function, a constant), each marked as
        solution and placed before the stub's first definition that follows it in the reference (None:
        at the end), so the answer cell holds everything the reference needs to run."""
        stub_names = {_name(n) for n in stub_body}
        placed: dict[str | None, list[str]] = {}
        waiting: list[Node] = []
        for node in solution_body:
            name = _name(node)
            if name in stub_names:
                if waiting:
                    placed[name] = self._marked_nodes(waiting)
                    waiting = []
            elif name is not None:
                waiting.append(node)
        if waiting:
            placed[None] = self._marked_nodes(waiting)
        return placed

    def _marked_nodes(self, nodes: list[Node]) -> list[str]:
        lines = [line for node in nodes for line in [*self._solution(self._comments_above(node), _end(node)), ""]]
        indent = self.solution_lines[nodes[0].lineno - 1][: nodes[0].col_offset]
        return _marked(lines[:-1], indent) + [""]

    @staticmethod
    def _last_import(tree: ast.Module) -> Node | None:
        imports = [n for n in tree.body if isinstance(n, ast.Import) or (isinstance(n, ast.ImportFrom) and not n.level)]
        return imports[-1] if imports else None

    def _missing_imports(self) -> list[str]:
        """The reference's imports the stub lacks (`import math`): the answer needs them to run."""
        present = {ast.dump(n) for n in self.stub_tree.body}
        return [ast.unparse(n) for n in self.solution_tree.body
                if isinstance(n, (ast.Import, ast.ImportFrom)) and not getattr(n, "level", 0)
                and ast.dump(n) not in present]

    def _class(self, stub: ast.ClassDef, solution: ast.ClassDef) -> list[str]:
        skip = _docstring_end(stub)
        header_end = _header_end(stub)
        out = self._stub(_start(stub), header_end)
        return out + self._block(stub.body[skip:], solution.body[_docstring_end(solution):], header_end + 1,
                                 _end(stub))

    def _function(self, stub: Function, solution: Function) -> list[str]:
        """Signature, docstring and the statements both share from the stub; the rest marked."""
        stub_body = stub.body[_docstring_end(stub):]
        solution_body = solution.body[_docstring_end(solution):]
        shared = 0
        while (shared < min(len(stub_body), len(solution_body))
               and self._same(stub_body[shared], solution_body[shared])):
            shared += 1
        kept_end = _end(stub_body[shared - 1]) if shared else _header_end(stub)
        out = self._stub(_start(stub), kept_end)
        out += [line for line in self._stub(kept_end + 1, _end(stub)) if line.strip().startswith("#")]
        if shared == len(solution_body):
            return out
        region_start = _end(solution_body[shared - 1]) + 1 if shared else solution_body[0].lineno
        first = solution_body[shared]
        indent = self.solution_lines[first.lineno - 1][: first.col_offset]
        region = self._solution(region_start, _end(solution))
        return out + _marked(region, indent)

    def _replaced(self, stub: Node, solution: Node) -> list[str]:
        """A constant the student changes: the handed-out statement kept as it is, the reference's marked after it.

        nbgrader replaces the marked region with its stub, so the release shows
        the handed-out value (cake's KEYS, to change one key of) as live code.
        """
        indent = self.stub_lines[stub.lineno - 1][: stub.col_offset]
        given = self._stub(_start(stub), _end(stub))
        return given + _marked(self._solution(self._comments_above(solution), _end(solution)), indent)

    def _comments_above(self, node: Node) -> int:
        """The first line of the comment block directly above a reference statement."""
        line = _start(node)
        while line > 1 and self.solution_lines[line - 2].strip().startswith("#"):
            line -= 1
        return line

    def _same(self, stub: Node, solution: Node) -> bool:
        return ast.dump(stub) == ast.dump(solution)

    def _stub(self, first: int, last: int) -> list[str]:
        return self.stub_lines[first - 1:last]

    def _solution(self, first: int, last: int) -> list[str]:
        lines = self.solution_lines[first - 1:last]
        while lines and not lines[0].strip():
            lines.pop(0)
        return lines


def _marked(lines: list[str], indent: str) -> list[str]:
    return [f"{indent}{BEGIN}", *lines, f"{indent}{END}"]
