"""Reference and variant answers to a request.

`ReferenceOracle` runs the reference and the mistakes' variant packages in the
grader's own process (they are the kit's code, never the student's).
`RecordedOracle` answers from a table made at handout time, so a student's
self-check can diagnose mistakes on the lesson's examples with no solution
on their machine.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import secrets
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol

from attnkit.errors import KitError
from attnkit.grading.catalogue import Catalogue
from attnkit.grading.variants import variant_name, write_variant_package
from attnkit.sandbox import protocol, worker

REFERENCE_PACKAGE = "attnkit_reference"
Result = dict[str, Any]


@dataclass
class Evaluation:
    """The reference's answer and, per mistake id, the answers of its variants."""

    reference: Result
    variants: Mapping[str, list[Result]] = field(default_factory=dict)


class LazyAnswers(Mapping[str, list[Result]]):
    """Variants' answers computed on first look: a right answer never needs them."""

    def __init__(self, mistake_ids: Iterable[str], compute: Callable[[str], list[Result]]):
        self._ids = list(mistake_ids)
        self._compute = compute
        self._answers: dict[str, list[Result]] = {}

    def __getitem__(self, mistake_id: str) -> list[Result]:
        if mistake_id not in self._ids:
            raise KeyError(mistake_id)
        if mistake_id not in self._answers:
            self._answers[mistake_id] = self._compute(mistake_id)
        return self._answers[mistake_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


def request_key(request: dict[str, Any]) -> str:
    """A stable digest of a request: equal inputs give equal keys."""
    canonical = json.dumps(protocol.to_wire(request), sort_keys=True)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class Oracle(Protocol):
    def evaluate(self, request: dict[str, Any], mistake_ids: Iterable[str]) -> Evaluation: ...


class ReferenceOracle:
    """Runs the reference solutions and the catalogue's variants in this process."""

    def __init__(self, solutions_dir: Path, catalogue: Catalogue):
        self.solutions_dir = Path(solutions_dir)
        self.catalogue = catalogue
        self._workdir = tempfile.TemporaryDirectory(prefix="attnkit-oracle-")
        # Package names of this oracle's own: a second oracle in the process must not
        # find the first one's packages in sys.modules, pointing at a folder since deleted.
        self._prefix = f"o{secrets.token_hex(4)}_"
        self._cache: dict[tuple[str, str], Result] = {}
        sys.path.insert(0, self._workdir.name)

    @cached_property
    def _reference(self) -> tuple[str, Path]:
        name = self._prefix + REFERENCE_PACKAGE
        target = Path(self._workdir.name) / name
        shutil.copytree(self.solutions_dir, target, ignore=shutil.ignore_patterns("__pycache__"))
        return name, target

    def _variant_packages(self, mistake_id: str) -> list[tuple[str, Path]]:
        mistake = self.catalogue[mistake_id]
        packages = []
        for index, variant in enumerate(mistake.variants):
            name = self._prefix + variant_name(mistake, index)
            target = Path(self._workdir.name) / name
            if not target.exists():
                write_variant_package(self.solutions_dir, variant, target)
                importlib.invalidate_caches()
            packages.append((name, target))
        return packages

    def _run(self, package: tuple[str, Path], request: dict[str, Any], key: str) -> Result:
        cache_key = (package[0], key)
        if cache_key not in self._cache:
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[cache_key] = worker.execute(package[0], package[1], request)
        return self._cache[cache_key]

    def evaluate(self, request: dict[str, Any], mistake_ids: Iterable[str]) -> Evaluation:
        key = request_key(request)
        reference = self._run(self._reference, request, key)
        if reference["status"] != "ok":
            error = reference.get("error", {})
            raise KitError(f"{self.solutions_dir}: the reference failed a grader's request: "
                           f"{error.get('type')}: {error.get('message')} ({error.get('where')})")
        candidates = [m for m in mistake_ids if m in self.catalogue and self.catalogue[m].match_output]
        return Evaluation(reference, LazyAnswers(candidates, lambda mistake_id: [
            self._run(package, request, key) for package in self._variant_packages(mistake_id)]))


class RecordingOracle:
    """A ReferenceOracle that remembers every answer, with all candidate variants, for a handout."""

    def __init__(self, inner: ReferenceOracle):
        self.inner = inner
        self.table: dict[str, Any] = {}

    def evaluate(self, request: dict[str, Any], mistake_ids: Iterable[str]) -> Evaluation:
        evaluation = self.inner.evaluate(request, list(mistake_ids))
        self.table[request_key(request)] = {"reference": evaluation.reference, "variants": dict(evaluation.variants)}
        return evaluation

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(protocol.to_wire(self.table)), encoding="utf-8")


class RecordedOracle:
    """Answers from a table written by `RecordingOracle`: public checks only."""

    def __init__(self, path: Path):
        try:
            self.table = protocol.from_wire(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError) as error:
            raise KitError(f"{path}: cannot read the public checks' expected answers: {error}") from None
        self.path = path

    def evaluate(self, request: dict[str, Any], mistake_ids: Iterable[str]) -> Evaluation:
        entry = self.table.get(request_key(request))
        if entry is None:
            raise KitError(f"{self.path}: no expected answer for a check's request; "
                           "the handout is older than its checks (ask for a new handout)")
        wanted = set(mistake_ids)
        return Evaluation(entry["reference"], {k: v for k, v in entry["variants"].items() if k in wanted})
