"""Fixtures of the bridge tests: real mosquitto brokers, started and killed by the tests."""

import pytest

from tests.firmware_bridge.bridge_helpers import Broker, Wire


@pytest.fixture
def wire():
    return Wire


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


@pytest.fixture
def make_broker(tmp_path):
    made = []

    def make(extra: str = "", name: str = "b"):
        d = tmp_path / name
        d.mkdir()
        b = Broker(d, extra)
        made.append(b)
        return b

    yield make
    for b in made:
        b.stop()
