#!/usr/bin/env bash
# Set up (idempotent) and run the whole test suite, slow sweeps included (about 6.5 minutes on
# 2 cores). Plain `pytest` skips the tests marked slow (pyproject addopts) for quick iterations.
# Exit code 5 (no test collected) fails.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
.venv/bin/python -m pytest -q -n 2 -m "slow or not slow" "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no test: failing" >&2
  exit 1
fi
exit "$rc"
