"""Packing a student's work for upload: `./exercises` into `<student>.zip`.

What `attnkit submit` does, below the command line. It always packs, and warns about a module that
would score nothing: one that does not parse, or one still the stub as handed out. A module is taken
for a stub while it still holds a stub's TODO markers, read from its source (never run): a
`raise NotImplementedError` anywhere, or a module constant in capitals still set to `None` (the
unfilled predictions of a stub). No copy of the original stubs is needed for this, so it works in
any folder a student copied their work to.
"""
from __future__ import annotations

import ast
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from attnkit.config import PACKAGE
from attnkit.errors import KitError
from attnkit.submissions import is_module_file

STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


@dataclass
class Packed:
    """The zip written, the files in it, and what the student should know before uploading it."""

    path: Path
    files: list[str]
    warnings: list[str] = field(default_factory=list)


def pack_submission(folder: Path, student: str, out: Path) -> Packed:
    """Write `out/<student>.zip` from `folder/exercises`'s module files."""
    if not STUDENT_ID.fullmatch(student):
        raise KitError(f"--student {student!r}: use letters, digits, '.', '_' or '-' (at most 64)")
    package = Path(folder) / PACKAGE
    sources = sorted(p for p in package.glob("*.py") if is_module_file(p.name) and p.is_file()
                     and not p.is_symlink()) if package.is_dir() else []
    if not sources:
        raise KitError(f"{package}: no `{PACKAGE}` folder with .py files here (run this in your handout folder)")
    target = Path(out) / f"{student}.zip"
    packed = Packed(target, [f"{PACKAGE}/{p.name}" for p in sources])
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            for path, name in zip(sources, packed.files, strict=True):
                source = path.read_bytes()
                archive.writestr(name, source)
                packed.warnings += [f"{name}: {problem}" for problem in module_problems(source)]
    except OSError as error:
        raise KitError(f"{target}: cannot write: {error.strerror}") from None
    return packed


def module_problems(source: bytes) -> list[str]:
    """Why a module would score nothing as it stands: it does not parse, or it is still a stub."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return [f"does not parse (line {error.lineno}: {error.msg}); it will score nothing as it is"]
    except ValueError as error:  # a null byte, before Python 3.12
        return [f"does not parse ({error}); it will score nothing as it is"]
    return [f"still the stub: {marker}" for marker in stub_markers(tree)]


def stub_markers(tree: ast.Module) -> list[str]:
    """The stub's TODO markers still in a module: each `raise NotImplementedError`, each capital constant = None."""
    markers = [f"line {node.lineno} raises NotImplementedError" for node in ast.walk(tree)
               if isinstance(node, ast.Raise) and _names_not_implemented(node.exc)]
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is None:
            markers += [f"{target.id} is still None" for target in node.targets
                        if isinstance(target, ast.Name) and target.id.isupper()]
    return markers


def _names_not_implemented(exception: ast.expr | None) -> bool:
    call = exception.func if isinstance(exception, ast.Call) else exception
    return isinstance(call, ast.Name) and call.id == "NotImplementedError"
