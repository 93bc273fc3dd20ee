"""The words of a 2023 disc whose purpose is new, read from real tables without a server: Civil
War names its rule, a Coup names the region left, a Grande in the Castillo is told where it goes;
a classic purpose keeps its words."""

from __future__ import annotations

import pytest

from companion.phones.questions.disc_words import disc_words, evicted_region
from companion.phones.views import PURPOSE_TEXT
from tests.companion.phones.conftest import make_table, to_general_scoring
from tests.companion.phones.game2023 import disc_purpose, find_table, grande_in_castillo_scoring


def words(table, pid: str, grande_in_castillo: bool = False) -> tuple[str, str]:
    return disc_words(table, table.prompt_builder(), table.asked(), pid, grande_in_castillo)


def test_civil_war_names_its_rule():
    table = find_table(disc_purpose("civil_war"))
    title, hint = words(table, table.asked().players[0])
    assert title == "Civil War: choose a region where you have at least one Caballero"
    assert "the King's region cannot be chosen" in hint


def test_a_coup_names_the_region_its_player_chose():
    table = find_table(disc_purpose("eviction_destination", "coup"))
    region = evicted_region(table)
    assert region == table.effective[-1]["e"]["region"]
    title, hint = words(table, table.asked().players[0])
    assert title == "Coup: where do your Caballeros go?"
    assert hint.startswith(f"All your Caballeros in {table.board.area_name(table.board.area_index[region])}")


def test_a_grande_in_the_castillo_is_told_where_it_goes():
    table = find_table(grande_in_castillo_scoring)
    title, _ = words(table, table.asked().players[0], grande_in_castillo=True)
    assert title == "General scoring: where do your Castillo Caballeros and your Grande go?"
    assert words(table, table.asked().players[0]) == PURPOSE_TEXT["castillo_destination"]()


@pytest.mark.parametrize("mode", ["tracking", "scoring"])
def test_a_classic_purpose_keeps_its_words(mode):
    table = make_table(mode)
    to_general_scoring(table)
    assert words(table, "red") == PURPOSE_TEXT["castillo_destination"]()
    assert evicted_region(table) is None
