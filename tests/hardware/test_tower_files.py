"""The set-up in hardware/README.md copies every firmware module to the board: a module added to
hardware/firmware/ (commands.py, split from device.py) is shipped, not found missing at boot."""

import re
from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
FIRMWARE = HARDWARE / "firmware"


def copied_to_the_board() -> set[str]:
    """The .py files the README's `mpremote fs cp ... :` commands copy (continuation lines joined)."""
    text = (HARDWARE / "README.md").read_text().replace("\\\n", " ")
    copied: set[str] = set()
    for line in text.splitlines():
        if line.startswith("mpremote fs cp "):
            copied.update(re.findall(r"(?<![:/\w])([a-z_0-9]+\.py)\b", line))
    return copied


def test_the_readme_set_up_copies_every_firmware_module_to_the_board():
    modules = {p.name for p in FIRMWARE.glob("*.py")}
    assert modules - copied_to_the_board() == set()
    assert copied_to_the_board() - modules == set()
