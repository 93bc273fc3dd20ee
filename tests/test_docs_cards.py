"""docs/cards.md, the README's way to find a card by its name, is what scripts/list_cards.py makes
from the card data today: a card added or an effect renamed without regenerating it fails here."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_card_list_in_the_docs_is_up_to_date():
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "list_cards.py"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, (run.stdout + run.stderr)[-2000:]
