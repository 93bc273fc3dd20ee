"""The smallest words on each screen at each shape, and the longest word against its box (the
catalogue is seen in German: issue 34's longest German label), from the screen catalogue's runs.

The catalogue tests (tests/companion/ui/test_screen_catalogue*.py, test_android_manners.py) write
smallest_text.json and tightest_word.json beside their pictures; keep them with ELGRANDE_SHOTS=DIR and summarise:

    ELGRANDE_SHOTS=/tmp/shots .venv/bin/python -m pytest -q -n 3 \
        tests/companion/ui/test_screen_catalogue.py tests/companion/ui/test_screen_catalogue_portrait.py \
        tests/companion/ui/test_android_manners.py
    .venv/bin/python bench/smallest_text.py /tmp/shots
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(folder: Path) -> None:
    for found in sorted(folder.rglob("smallest_text.json")):
        sizes = json.loads(found.read_text())
        shape = found.parent.name
        smallest = sorted(sizes.items(), key=lambda kv: kv[1][0])
        least_name, (least, least_words) = smallest[0]
        print(f"{shape}: {len(sizes)} screens; smallest {least:.1f} sp ({least_name}: {least_words!r})")
        counts: dict[float, int] = {}
        for _name, (size, _words) in sizes.items():
            counts[round(size, 1)] = counts.get(round(size, 1), 0) + 1
        print(
            "  screens by their smallest words (sp: screens):",
            ", ".join(f"{s:g}: {n}" for s, n in sorted(counts.items())),
        )
        for name, (size, words) in smallest[:6]:
            print(f"  {size:5.1f} sp  {name}  {words!r}")


def tightest(folder: Path) -> None:
    for found in sorted(folder.rglob("tightest_word.json")):
        ratios = sorted(json.loads(found.read_text()).items(), key=lambda kv: -kv[1][0])
        print(f"{found.parent.name}: the longest word against its box, of {len(ratios)} screens")
        for name, (ratio, word, words) in ratios[:5]:
            print(f"  {ratio * 100:5.1f} %  {name}  {word!r} in {words!r}")


if __name__ == "__main__":
    shots = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shots")
    main(shots)
    tightest(shots)
