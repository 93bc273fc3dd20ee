"""A Modifier card's words (companion/prompts/modules_2023.py): a copy number is internal, so twins
are told apart in words ("(second copy)") and a header naming one card says its name only."""

from __future__ import annotations

import re

from companion.prompts import modules_2023
from tests.companion.prompts.test_builder_2023 import _power_shift_state, builder_for


def test_modifier_twins_are_told_apart_in_words_never_by_a_copy_number():
    state = _power_shift_state()
    builder = builder_for(state)
    labels = {mid: builder.modifier_label(mid) for mid in state.modifiers}
    assert not [w for w in labels.values() if re.search(r"#\d", w)], labels
    assert any("(second copy)" in w for w in labels.values()), labels  # the Power Shift set has twins
    assert len(set(labels.values())) == len(labels)  # each copy still its own words
    for mid in state.modifiers:  # named alone (a header), a card is its name and value only
        assert "copy" not in builder.modifier_label(mid, numbered=False)
    assert modules_2023.COPY_WORDS[1] == "second copy"
