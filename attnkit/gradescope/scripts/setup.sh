#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (the zip is unpacked in
# $AUTOGRADER_ROOT/source). It installs attnkit, from the wheel beside this file, and its pinned
# dependencies into a virtual environment of its own, $AUTOGRADER_ROOT/venv, which run_autograder
# uses. torch comes from PyTorch's CPU-only index first: PyPI's Linux build of the same version is
# the CUDA one (several GB, about 20 packages). TORCH_INDEX_URL names another index (a mirror), or
# is set empty to leave torch to pip's own configuration.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TORCH_INDEX_URL="${TORCH_INDEX_URL-https://download.pytorch.org/whl/cpu}"

recent_python() {
  for candidate in python3 python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
}

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y "$@"
}

PYTHON="$(recent_python)"
if [ -z "$PYTHON" ]; then  # Ubuntu 22.04, Gradescope's default image, has Python 3.10
  apt_install python3.11 python3.11-venv
  PYTHON=python3.11
fi
if ! "$PYTHON" -c 'import ensurepip' 2>/dev/null; then  # Ubuntu's venv module comes in a package of its own
  apt_install "$("$PYTHON" -c 'import sys; print(f"python3.{sys.version_info.minor}-venv")')"
fi

"$PYTHON" -m venv "$ROOT/venv"
cd "$SOURCE"
if [ -n "$TORCH_INDEX_URL" ]; then
  "$ROOT/venv/bin/python" -m pip install "$(grep -E '^torch==' requirements.txt)" --index-url "$TORCH_INDEX_URL"
fi
"$ROOT/venv/bin/python" -m pip install -r requirements.txt
# Only the grader (root) reads the course: a sandbox that runs as a uid of its own cannot.
chmod -R go-rwx course
