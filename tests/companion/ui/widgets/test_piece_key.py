"""companion.ui.widgets.piece_key: the key to the pieces builds, holds one entry per piece kind the
map shows (and the court), each drawn and named, laid out without overlap or cut words at a
portrait column, a side panel and a full width, in both themes."""

from __future__ import annotations

from companion.history.demo_lessons import PIECES

KINDS = {"caballeros", "grande", "king", "castillo", "court"}


def _shapes(drawn):
    return {k: v for k, v in drawn.items() if "-" in k}


def test_the_key_has_an_entry_per_piece_kind(teacher_drawn):
    assert {kind for kind, _, _ in PIECES} == KINDS
    for shape, laid in _shapes(teacher_drawn).items():
        assert sorted(laid["kinds"]) == sorted(KINDS), shape
        assert sorted(laid["shown_kinds"]) == sorted(KINDS), shape  # opened: every entry in the window


def test_every_piece_has_a_name_and_words():
    for kind, name, words in PIECES:
        assert name and words.endswith("."), kind
        assert "_" not in name + words


def test_the_toggle_is_a_full_target_and_opening_it_makes_room(teacher_drawn):
    for shape, laid in _shapes(teacher_drawn).items():
        assert laid["toggle_height_dp"] >= 48, shape
        assert laid["teacher"][3] >= laid["closed_height"] + 3 * 56, shape  # at least 3 rows of 56-dp pieces


def test_no_entry_covers_another_and_no_words_are_cut(teacher_drawn):
    for shape, laid in _shapes(teacher_drawn).items():
        boxes = laid["entries"]
        for i, (x, y, w, h) in enumerate(boxes):
            for x2, y2, w2, h2 in boxes[i + 1 :]:
                assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y, (shape, boxes)
        for label in laid["labels"]:
            tw, th = label["texture"]
            w, h = label["size"]
            assert tw <= w + 1 and th <= h + 1, (shape, label)


def test_a_picture_is_kept_at_each_width_and_theme(teacher_drawn):
    assert len(teacher_drawn["pictures"]) == len(_shapes(teacher_drawn)) == 6
