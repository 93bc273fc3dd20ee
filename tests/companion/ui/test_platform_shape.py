"""The tablet's shape (companion/ui/platform/shape.py): the window size from ELGRANDE_WINDOW, and the
scale that makes a bigger window show the same screens bigger."""

import logging

import pytest

from companion.ui.platform.shape import DEFAULT_SIZE, ui_scale, window_size


@pytest.mark.parametrize(
    "value,size", [(None, DEFAULT_SIZE), ("", DEFAULT_SIZE), ("800x1280", (800, 1280)), (" 1920X1200 ", (1920, 1200))]
)
def test_window_size(value, size):
    assert window_size(value) == size


@pytest.mark.parametrize(
    "value,words",
    [
        ("800*1280", "not WIDTHxHEIGHT"),
        ("big", "not WIDTHxHEIGHT"),
        ("100x100", "outside 320..7680"),
        ("99999x800", "outside 320..7680"),
    ],
)
def test_a_bad_window_size_is_said_and_the_default_used(value, words, caplog):
    with caplog.at_level(logging.WARNING, logger="companion.ui"):
        assert window_size(value) == DEFAULT_SIZE
    assert words in caplog.text and "ELGRANDE_WINDOW" in caplog.text


@pytest.mark.parametrize(
    "size,scale",
    [
        ((1280, 800), 1.0),
        ((800, 1280), 1.0),
        ((1920, 1200), 1.5),
        ((1200, 1920), 1.5),
        ((1920, 1080), 1.35),
        ((1024, 600), 1.0),
        ((5000, 4000), 2.0),
    ],
)
def test_a_bigger_window_scales_up_never_down(size, scale):
    assert ui_scale(*size) == pytest.approx(scale)
