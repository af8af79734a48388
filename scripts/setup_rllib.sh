#!/usr/bin/env bash
# Set up .venv-rllib: the package with its `rllib` extra (Ray RLlib), in a venv of its own because
# ray[rllib] pins gymnasium exactly (ray 2.60: gymnasium==1.2.2) while .venv has the newest.
# torch is pinned to the CPU wheel 2.13.0 first, as in scripts/setup.sh (a range that admits a newer
# torch would pull a CUDA build of several GB). Idempotent; about 2 minutes and 1.7 GB the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
if [ ! -x .venv-rllib/bin/python ]; then
  "$PY" -m venv .venv-rllib
fi
echo "setup_rllib.sh: upgrading pip in .venv-rllib" >&2
.venv-rllib/bin/python -m pip install --quiet --upgrade pip
echo "setup_rllib.sh: installing torch==2.13.0 (the CPU build)" >&2
.venv-rllib/bin/python -m pip install --quiet "torch==2.13.0"
echo "setup_rllib.sh: installing bbom-env with the rllib extra (ray[rllib]; a few minutes)" >&2
.venv-rllib/bin/python -m pip install --quiet -e ".[rllib]"
