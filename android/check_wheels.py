"""Online check of android/pure_wheels.json (needs PyPI): each recorded requirement's pinned
version has exactly the recorded pure-Python wheel, which pip picks for `--platform any`;
and aiohttp's pinned version has the Android wheels the local recipe uses.

    .venv/bin/python android/check_wheels.py      # prints one line per package; exit 1 on a mismatch
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
ANDROID_WHEELS = {"aiohttp": ("3.14.5", ["android_24_arm64_v8a", "android_24_x86_64"])}


def download(spec: str, *options: str) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--only-binary=:all:",
                "-d",
                folder,
                *options,
                spec,
            ],
            capture_output=True,
            text=True,
        )
        if run.returncode:
            raise RuntimeError(run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "pip failed")
        return sorted(p.name for p in Path(folder).iterdir())


def main() -> int:
    data = json.loads((HERE / "pure_wheels.json").read_text())
    python = data["python_version"]
    bad = 0
    for name, entry in data["wheels"].items():
        try:
            got = download(f"{name}=={entry['version']}", "--platform", "any", "--python-version", python)
        except RuntimeError as exc:
            got = [f"(none: {exc})"]
        ok = got == [entry["wheel"]]
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {name}=={entry['version']}: {', '.join(got)}")
    for name, (version, platforms) in ANDROID_WHEELS.items():
        for platform in platforms:
            try:
                got = download(f"{name}=={version}", "--platform", platform, "--python-version", python)
            except RuntimeError as exc:
                got = [f"(none: {exc})"]
            ok = len(got) == 1 and platform in got[0]
            bad += not ok
            print(f"{'ok ' if ok else 'BAD'} {name}=={version} for {platform}: {', '.join(got)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
