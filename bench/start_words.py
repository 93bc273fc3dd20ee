"""Start-up with the catalogue against without (issue 34; goal within 5 %): the tablet app's
first frame (ELGRANDE_TIMING, under its own Xvfb at 1280x800) and the command line's answer
(`elgrande games` on an empty folder), each started in English (no catalogue read) and in German
(every domain's catalogue loaded), in alternating runs so a slow moment of the machine hits both;
the median of each. Pass --runs N (default 7 for the command line, 5 for the app).

    .venv/bin/python bench/start_words.py
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _env(lang: str, data: str) -> dict:
    return {**os.environ, "ELGRANDE_LANG": lang, "ELGRANDE_DATA_DIR": data, "PYTHONPATH": str(ROOT)}


def command_line(lang: str, data: str) -> float:
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "companion.cli", "games"], env=_env(lang, data), capture_output=True, check=True
    )
    return time.perf_counter() - began


def app_first_frame(lang: str, data: str) -> float:
    run = subprocess.run(
        [
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1280x800x24",
            sys.executable,
            "-m",
            "companion.cli",
            "app",
            "--exit-after",
            "0.3",
        ],
        env={**_env(lang, data), "ELGRANDE_TIMING": "1"},
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    found = re.search(r"first frame after ([0-9.]+) s", run.stderr)
    if not found:
        raise SystemExit(f"the app said no first frame: {run.stderr[-800:]}")
    return float(found[1])


def paired(measure, runs: int) -> dict:
    times: dict[str, list[float]] = {"en": [], "de": []}
    with tempfile.TemporaryDirectory() as data:
        measure("de", data)  # warm the disk cache and compile nothing later
        for _ in range(runs):
            for lang in ("en", "de"):
                times[lang].append(measure(lang, data))
    en, de = statistics.median(times["en"]), statistics.median(times["de"])
    return {"english_s": round(en, 3), "german_s": round(de, 3), "ratio": round(de / en, 3), "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps({"what": "command line, elgrande games", **paired(command_line, args.runs or 7)}))
    print(json.dumps({"what": "tablet app, first frame", **paired(app_first_frame, args.runs or 5)}))


if __name__ == "__main__":
    main()
