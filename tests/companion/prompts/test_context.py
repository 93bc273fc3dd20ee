"""A card's words on a button (companion/prompts/context.py): whole, never cut with "…" (the
reveal sheet's buttons wrap and grow; a cut text hid what the card lets one do)."""

from __future__ import annotations

from companion.prompts.builder import PromptBuilder
from engine.board.build import classic_board


def test_card_labels_keep_each_card_text_whole():
    board = classic_board()
    builder = PromptBuilder({}, board)
    long_texts = 0
    for cid, card in board.cards.items():
        label = builder.card_label(cid)
        assert "…" not in label, label
        text = card.text.removeprefix("You may ").rstrip(".")
        assert text in label, (cid, label)
        long_texts += len(text) > 90
    assert long_texts, "the classic set has texts over 90 characters: the case that was cut"
