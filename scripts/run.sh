#!/usr/bin/env bash
# Sets everything up, then runs the main job.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run: no display here. On a headless machine try:" >&2
  echo "  xvfb-run -a -s '-screen 0 1280x800x24' .venv/bin/elgrande app --screenshot app.png --exit-after 3" >&2
  exit 2
fi
exec .venv/bin/elgrande app "$@"
