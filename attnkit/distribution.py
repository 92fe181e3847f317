"""The kit's engine as something to hand out: a wheel of the installed package, and the pins that install it.

A student's handout and a Gradescope autograder each carry this wheel, so that
`python3 -m pip install -r requirements.txt` installs `attnkit` where there is no course repository.
The wheel is written here, when the handout is made, from the files of the `attnkit` package that is
running: the same whether the kit was installed editable from the course repo or from a wheel. It holds
the engine only; a course's solutions, graders and mistake models live outside the package and never
enter it. Its requirements are pinned to the versions installed here, the ones the handout's answers
were recorded with.
"""
from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

import attnkit
from attnkit.errors import KitError

DISTRIBUTION = "attnkit"
WHEEL_TAG = "py3-none-any"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the same bytes from the same files: a handout does not change by being rebuilt
LEFT_OUT = ("__pycache__",)
GRADERS_ONLY = ("sandbox/warmup.py",)  # the warm parent's package: a batched attention and a projection layer


def build_wheel(folder: Path, *, for_students: bool) -> Path:
    """Write the running kit's wheel into `folder`; its path.

    A student's wheel leaves out what computes an exercise's answer (`GRADERS_ONLY`): the warm-up
    package, which the warm parent then goes without (a self-check grades one submission, which
    warming would only delay). Gradescope's autograder is the graders' and keeps it."""
    dist = metadata.distribution(DISTRIBUTION)
    name, version = dist.metadata["Name"].replace("-", "_"), dist.version
    info = f"{name}-{version}.dist-info"
    left_out = GRADERS_ONLY if for_students else ()
    files = {f"{DISTRIBUTION}/{relative}": path.read_bytes() for path in sorted(package_dir().rglob("*"))
             if _shipped(path) and (relative := path.relative_to(package_dir()).as_posix()) not in left_out}
    files[f"{info}/METADATA"] = _metadata(dist).encode()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: attnkit\nRoot-Is-Purelib: true\n"
                              f"Tag: {WHEEL_TAG}\n").encode()
    files[f"{info}/entry_points.txt"] = _entry_points(dist).encode()
    files[f"{info}/top_level.txt"] = f"{DISTRIBUTION}\n".encode()
    record = "".join(f"{path},sha256={_digest(data)},{len(data)}\n" for path, data in files.items())
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    wheel = Path(folder) / f"{name}-{version}-{WHEEL_TAG}.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            write_entry(archive, path, data)
    return wheel


def write_entry(archive: zipfile.ZipFile, name: str, data: bytes, *, executable: bool = False) -> None:
    """One file of a zip the kit writes: a fixed time, a regular file's mode (executable or not)."""
    entry = zipfile.ZipInfo(name, ZIP_TIME)
    entry.external_attr = (0o100755 if executable else 0o100644) << 16
    archive.writestr(entry, data, zipfile.ZIP_DEFLATED)


def package_dir() -> Path:
    """The folder of the running `attnkit` package (the course repo's, when installed editable)."""
    return Path(attnkit.__file__).resolve().parent


def _shipped(path: Path) -> bool:
    return path.is_file() and not path.is_symlink() and path.suffix != ".pyc" and not any(
        part in LEFT_OUT for part in path.relative_to(package_dir()).parts)


def _metadata(dist: metadata.Distribution) -> str:
    """The core metadata pip needs (name, version, Python, dependencies and extras); no long description."""
    fields = [("Metadata-Version", "2.1"), ("Name", dist.metadata["Name"]), ("Version", dist.version)]
    fields += [(key, dist.metadata[key]) for key in ("Summary", "Requires-Python") if dist.metadata[key]]
    fields += [(key, value) for key in ("Requires-Dist", "Provides-Extra")
               for value in dist.metadata.get_all(key) or []]
    return "".join(f"{key}: {value}\n" for key, value in fields)


def _entry_points(dist: metadata.Distribution) -> str:
    groups: dict[str, list[str]] = {}
    for point in dist.entry_points:
        groups.setdefault(point.group, []).append(f"{point.name} = {point.value}")
    return "".join(f"[{group}]\n" + "\n".join(lines) + "\n\n" for group, lines in groups.items())


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def pinned_requirements() -> list[str]:
    """`name==version` for each dependency the kit always needs (not an extra's), as installed here.

    The public version: a local build such as torch's `2.13.0+cpu` pins `2.13.0`, which that build
    and PyPI's both satisfy.
    """
    pins = []
    for line in metadata.requires(DISTRIBUTION) or []:
        requirement = Requirement(line)
        if requirement.marker is not None and "extra" in str(requirement.marker):
            continue
        version = installed_version(requirement.name)
        if version is None:
            raise KitError(f"{requirement.name}: a dependency of attnkit that is not installed here")
        pins.append(f"{requirement.name}=={version}")
    return sorted(pins, key=str.lower)


def installed_version(name: str) -> str | None:
    """The public version of a distribution installed here (`2.13.0` for torch's `2.13.0+cpu`), or None."""
    try:
        return metadata.version(name).split("+")[0]
    except metadata.PackageNotFoundError:
        return None


def requirements_text(wheel: Path, purpose: str, *, keep_torch: bool = False) -> str:
    """A requirements.txt naming the wheel (beside it) and the pinned dependencies; `purpose` opens it.

    With `keep_torch`, torch is not pinned: the wheel's own `torch>=2.2` keeps a torch already installed
    (a hosted notebook's, a CUDA build) and installs one only where there is none."""
    pins = [pin for pin in pinned_requirements() if not (keep_torch and pin.lower().startswith("torch=="))]
    said = ("# attnkit is the wheel beside this file; torch is whichever 2.2 or later is installed (kept as it is),",
            "# the rest are pinned to the versions its checks were recorded with.") if keep_torch else (
            "# attnkit is the wheel beside this file; the rest are pinned to the versions",
            "# its checks were recorded with.")
    return "\n".join([f"# {purpose}", *said, f"./{wheel.name}", *pins]) + "\n"
