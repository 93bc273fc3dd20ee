import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "hardware" / "tools"
sys.path.insert(0, str(TOOLS))

import towersim  # noqa: E402


@pytest.fixture(scope="session")
def micropython():
    # Fails (never skips): the firmware tests are the point of this suite.
    try:
        return towersim.find_micropython()
    except RuntimeError as e:
        pytest.fail(str(e))
