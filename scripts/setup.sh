#!/usr/bin/env bash
# Installs everything the project needs on a Debian/Ubuntu machine, idempotently:
# Debian packages (only when root and only those missing), a venv in .venv,
# and the project itself with its test extras. Sourced by run.sh and test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# mosquitto: the MQTT tests' broker; xvfb, xauth, libgl1-mesa-dri: the app's tests under
# a virtual display; chromium: the phone page's browser tests.
DEBIAN_PACKAGES=(python3-venv mosquitto xvfb xauth libgl1-mesa-dri chromium)

missing=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  # "install ok installed" only: a removed package can leave its config behind.
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: not root; please install: ${missing[*]}" >&2
  fi
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating the virtualenv in .venv"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  # -qq: errors only. setuptools' editable build prints an "Editable installation" notice as a
  # warning (a note on how the install imports, nothing to fix); -q alone let it through.
  echo "setup: updating pip in .venv"
  .venv/bin/python -m pip install -qq --disable-pip-version-check --upgrade pip
  echo "setup: installing the app, Kivy and the test tools into .venv (a minute or two the first time)"
  .venv/bin/python -m pip install -qq --disable-pip-version-check -e ".[test]"
  rm -f .venv/.installed-* && touch "$stamp"
  echo "setup: done; run the app with scripts/run.sh, the tests with scripts/test.sh"
fi

# The catalogues of the table's languages (companion/locale/*/LC_MESSAGES/*.po -> .mo).
.venv/bin/python scripts/words.py compile >/dev/null
