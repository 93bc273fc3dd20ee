"""companion.look.tokens: the day and evening themes name the same tokens, and every pair of
words and their ground is readable: WCAG 2 contrast of at least 4.5:1 (AA for body text) in
both themes. bench/RESULTS.md keeps the table (printed with -s)."""

import pytest

from companion.look.tokens import THEMES, TYPE_SCALE

# (words, ground): every pairing the screens draw
PAIRS = [
    ("ink", "background"),
    ("ink", "surface"),
    ("ink", "card"),
    ("ink", "button"),
    ("ink_muted", "background"),
    ("ink_muted", "card"),
    ("ink_muted", "button_quiet"),
    ("accent_ink", "accent"),
    ("bar_ink", "bar"),
    ("chosen_ink", "chosen"),
    ("danger", "background"),
    ("danger", "card"),
    ("ok", "background"),
    ("accent", "background"),
    ("background", "ok"),
]


def luminance(rgba) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_formula_against_known_values():
    assert contrast((0, 0, 0, 1), (1, 1, 1, 1)) == pytest.approx(21.0)
    assert contrast((0.4627, 0.4627, 0.4627, 1), (1, 1, 1, 1)) == pytest.approx(4.54, abs=0.02)  # #767676


def test_both_themes_name_the_same_tokens():
    assert set(THEMES["day"]) == set(THEMES["evening"])
    assert not any(token.startswith("on_") for token in THEMES["day"])  # Kivy would read it as an event


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_words_and_ground_pair_reads_at_4_5_to_1(theme):
    tokens = THEMES[theme]
    low = {f"{words} on {ground}": round(contrast(tokens[words], tokens[ground]), 2) for words, ground in PAIRS}
    print(theme, low)
    assert all(ratio >= 4.5 for ratio in low.values()), {k: v for k, v in low.items() if v < 4.5}


def test_no_text_size_under_14_sp():
    assert min(TYPE_SCALE.values()) >= 14
