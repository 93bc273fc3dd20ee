"""The tower link's and the broker's sentences (firmware_bridge's English) read back as catalogue
messages: each real sentence firmware_bridge makes is recognised with its values, and reads in
each language; a sentence of no known shape is shown as it is."""

from __future__ import annotations

import re
import socket
import ssl

import pytest

from companion.words.catalogue import speaking
from companion.words.link_words import _SHAPES, link_message, link_words
from firmware_bridge.link.status import OFFLINE
from firmware_bridge.transport_mqtt import describe_connect_error, describe_refusal, describe_unanswered
from tests.firmware_bridge.bridge_helpers import Wire

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _sentences() -> list[str]:
    """firmware_bridge's own sentences, made by its own code."""
    made = [
        OFFLINE,
        describe_connect_error(None, "h", 1883, False),
        describe_connect_error(ConnectionRefusedError(), "h", 8883, True),
        describe_connect_error(ConnectionRefusedError(), "h", 1883, False),
        describe_connect_error(socket.gaierror(-2, "Name or service not known"), "nowhere.local", 1883, False),
        describe_connect_error(TimeoutError(), "h", 1883, False),
        describe_connect_error(OSError(113, "No route to host"), "h", 1883, False),
        describe_connect_error(ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number"), "h", 1883, True),
        describe_unanswered("h", 1883, False, None),
        describe_unanswered("h", 8883, True, None),
        describe_unanswered("h", 8883, True, "failed to receive on socket: reset"),
        describe_refusal(135, "h", 8883, "table-1"),
        describe_refusal(135, "h", 8883, None),
        describe_refusal("Server unavailable", "h", 8883, "table-1"),
        "broker connection lost (7); drops are queued until it is back",  # the simulated tower's (sim/mqtt_port.py)
    ]
    w = Wire(seed=16, silence_timeout=15.0).connect()  # a real link: silent for 16 s
    w.now += 16
    w.link.tick()
    made.append(w.link.status.message)
    return made


def test_each_sentence_firmware_bridge_makes_is_a_known_message():
    for sentence in _sentences():
        words, values = link_message(sentence)
        assert words != "{text}", f"no shape reads {sentence!r}"
        assert words.format(**values) == sentence.replace(
            "(an anonymous client (no user name)", "(an anonymous client, with no user name"
        )


def test_each_shape_names_what_its_message_fills_in():
    for pattern, words in _SHAPES:
        assert set(re.compile(pattern).groupindex) == set(PLACEHOLDER.findall(words)), words


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_each_language_says_the_link(code):
    silent = _sentences()[-1]
    with speaking(code):
        said = link_words(silent)
        assert said and said != silent and "15" in said
        assert link_words(describe_refusal(135, "h", 8883, "table-1")).count("table-1") == 1


def test_a_repeated_notice_says_its_count_in_the_language():
    silent = _sentences()[-1]
    with speaking("fr"):
        said = link_words(f"{silent} (3 more since the last one)")
        assert said.startswith(link_words(silent)) and "3" in said and "more since" not in said


def test_a_sentence_of_no_known_shape_is_shown_as_it_is():
    with speaking("de"):
        assert link_words("cable") == "cable"
        assert link_words("") == "" and link_words(None) == ""
