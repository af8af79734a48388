#!/usr/bin/env bash
# Set up (idempotent) and run the default test suite. Exit code 5 (no test collected) fails.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
.venv/bin/python -m pytest -q -n 2 "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no test: failing" >&2
  exit 1
fi
exit "$rc"
