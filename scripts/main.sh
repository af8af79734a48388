#!/usr/bin/env bash
# Set up (idempotent) and run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m bbom_env.play "$@"
