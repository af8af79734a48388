#!/usr/bin/env bash
# Set up (idempotent) and run the main job: train a team on the embedded default configuration
# (configs/default.yaml: imitation of the heuristic team, then MaskablePPO; about 17 minutes on 2
# cores) and print how it plays next to the random and heuristic teams on the same seeded deals.
# Arguments go to train.py, e.g. `bash scripts/main.sh --config configs/smoke.yaml`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python train.py "$@"
