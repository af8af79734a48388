#!/usr/bin/env bash
# Set up a fresh machine: a virtual environment in .venv with the package and its extras.
# torch is pinned to the CPU wheel 2.13.0 before anything that depends on it (a range that admits a
# newer torch would pull a CUDA build of several GB).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "torch==2.13.0"
.venv/bin/python -m pip install --quiet -e ".[dev]"
