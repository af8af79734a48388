#!/usr/bin/env bash
# Set up (idempotent), lint, type-check the package and run the whole test suite, slow sweeps
# included (about 5 minutes on 2 cores, plus ruff: about 1 s, and mypy: about 15 s, 30 s cold).
# Plain `pytest` skips the tests marked slow (pyproject addopts) for quick iterations.
# Any finding fails before the tests run: `ruff check .` (pyproject [tool.ruff.lint], the McCabe
# limit included), `ruff format --check .`, mypy on bbom_env (pyproject [tool.mypy]). Exit code 5
# (no test collected) fails.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
if ! .venv/bin/ruff check .; then
  echo "ruff check found lint errors (above): failing" >&2
  exit 1
fi
if ! .venv/bin/ruff format --check .; then
  echo "ruff format --check: files above are not formatted (run .venv/bin/ruff format .): failing" >&2
  exit 1
fi
if ! .venv/bin/python -m mypy; then
  echo "mypy found type errors (above): failing" >&2
  exit 1
fi
.venv/bin/python -m pytest -q -n 2 -m "slow or not slow" "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no test: failing" >&2
  exit 1
fi
exit "$rc"
