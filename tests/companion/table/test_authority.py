"""The table authority without Kivy: full games in both modes, tower drops in
every phase, undo (with confirmation for what revealed something), resume."""

import json

import pytest

from companion.input_errors import InputError, NeedsConfirmation
from companion.scripted import fingerprint, play, scripted_setup, step
from companion.storage.game_log import LogDamaged, rewrite_log, scan_log
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine import events as ev
from engine.events import GameSetup
from engine.freeplay import RoundFinished
from firmware_bridge.adapter import TowerDrop


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def drop(table, colour, seq=None, multi=False):
    seq = seq or sum(1 for r in table.records if r["t"] == "drop") + 1
    table.tower_drop(
        TowerDrop(
            tower="t",
            boot="b",
            seq=seq,
            colour=colour,
            uncertain=colour is None,
            best=colour or "red",
            multi=multi,
            est=2 if multi else 1,
        )
    )
    return f"b:{seq}"


@pytest.mark.parametrize("mode", ["tracking", "scoring"])
@pytest.mark.parametrize("variant", ["short", "full"])
def test_full_games_replay_to_the_same_table(mode, variant):
    for seed in range(3):
        table = Table.new(scripted_setup(mode, variant, 5))
        play(table, seed)
        assert table.over and table.public().game["winners"]
        resumed = Table.resume(table.path)
        assert fingerprint(resumed) == fingerprint(table)
        assert resumed.records == table.records


def test_drops_in_every_phase_are_counted_and_flagged_outside_placements():
    table = Table.new(scripted_setup("tracking", "short", 3))
    seen = {}
    rng_seed = 5
    import random

    from engine.playout import random_event

    rng = random.Random(rng_seed)
    while not table.over:
        ask = table.asked()
        before = dict(table.hidden_tallies())
        drop(table, "red")
        status = table.drops[max(table.drops, key=lambda k: k[2])].status
        seen.setdefault(ask.kind, set()).add(status)
        assert table.hidden_tallies()["red"] == before["red"] + 1 or ask.kind == "game_over"
        table.submit(random_event(rng, ask))
    assert seen["play_power_card"] == {"flagged"}
    assert seen["choose_action_card"] == {"flagged"}
    assert "expected" in seen["turn_action"]
    assert seen["secret_disc"] == {"flagged"}


def test_tower_tally_is_emptied_after_a_general_scoring_and_the_tower_is_told():
    table = Table.new(scripted_setup("scoring", "short", 3))
    told = []
    table.on_tower_empty = told.append
    drop(table, "red")
    drop(table, "red")
    drop(table, "yellow")
    assert table.hidden_tallies() == {"red": 2, "yellow": 1, "green": 0}
    table.submit(RoundFinished())
    table.submit(RoundFinished())
    for pid in table.players:
        table.submit(ev.SecretDiscSet(player=pid, region="valencia"))
    assert table.asked().kind == "count_castillo"
    table.submit(ev.CastilloCounted(counts={"red": 2, "yellow": 2}))  # the table's count wins
    table.submit(ev.SecretDiscsRevealed())
    record = table.free.scoring_log[-1]
    assert record.transfers == [
        {"player": "red", "count": 2, "region": "valencia", "to_court": False},
        {"player": "yellow", "count": 2, "region": "valencia", "to_court": False},
    ]
    assert table.hidden_tallies() == {"red": 0, "yellow": 0, "green": 0}
    assert told and told[-1] == table.empty_token
    assert table.records[-1]["t"] == "emptied"


def test_uncertain_drop_waits_for_a_person_then_counts_for_whom_they_say():
    table = Table.new(scripted_setup("scoring", "short", 3))
    did = drop(table, None)
    assert table.public().drops_waiting == [{"id": did, "status": "uncertain", "best": "red", "colour": None, "est": 1}]
    assert sum(table.hidden_tallies().values()) == 0
    table.assign_drop(did, "green")
    assert table.hidden_tallies()["green"] == 1 and not table.public().drops_waiting
    with pytest.raises(InputError, match="already answered"):
        table.assign_drop(did, "red")
    multi = drop(table, "blue", multi=True)
    table.assign_drop(multi, "yellow", 2)
    assert table.hidden_tallies()["yellow"] == 2


def test_flagged_drop_can_be_kept_or_dismissed_and_undone():
    table = Table.new(scripted_setup("tracking", "short", 3))
    first, second = drop(table, "red"), drop(table, "yellow")
    assert {d["status"] for d in table.public().drops_waiting} == {"flagged"}
    table.keep_drop(first)
    table.dismiss_drop(second)
    assert table.hidden_tallies() == {"red": 1, "yellow": 0, "green": 0}
    assert table.castillo_prefill("red") == 0  # kept in the Castillo, but part of no placement
    assert table.undo() == "drop dismissed"
    assert table.hidden_tallies()["yellow"] == 1
    assert [d["id"] for d in table.public().drops_waiting] == [second]


def test_the_same_drop_twice_counts_once(caplog):
    table = Table.new(scripted_setup("scoring", "short", 3))
    drop(table, "red", seq=1)
    drop(table, "red", seq=1)
    assert table.hidden_tallies()["red"] == 1 and len(table.records) == 1
    # across a restart too (what was applied is in the game log); each catch is one log line
    resumed = Table.resume(table.path)
    drop(resumed, "red", seq=1)
    assert resumed.hidden_tallies()["red"] == 1 and len(resumed.records) == 1 and resumed.drops_again == 1
    caught = [
        r.getMessage() for r in caplog.records if r.name == "companion.table.authority" and "again" in r.getMessage()
    ]
    assert len(caught) == 2 and "t b:1 was handed over again" in caught[-1] and "\n" not in caught[-1]


def test_placement_prefill_comes_from_the_tower_and_is_used_up_by_the_entry():
    table = Table.new(scripted_setup("tracking", "short", 3))
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    for pid, card in zip(table.players, (13, 12, 11)):
        table.submit(ev.PowerCardPlayed(player=pid, card=card))
    table.submit(ev.CourtReplenished(player="red", from_provinces=0))
    table.submit(ev.ActionCardChosen(player="red", stack=3))
    drop(table, "red")
    drop(table, "red")
    assert table.castillo_prefill("red") == 2
    assert table.public().drops_waiting == []  # expected: red is placing
    table.submit(ev.CaballerosPlaced(player="red", placements={"castillo": 2, "castilla_la_vieja": 1}))
    assert table.castillo_prefill("red") == 0
    assert table.recorded_castillo()["red"] == 2 == table.hidden_tallies()["red"]


def test_refused_input_changes_nothing_and_says_why(data_dir):
    table = Table.new(scripted_setup("tracking", "short", 3))
    before, size = fingerprint(table), table.path.stat().st_size
    with pytest.raises(InputError, match="rule:"):
        table.submit(ev.PowerCardPlayed(player="red", card=13))  # the cards are not revealed yet
    with pytest.raises(InputError, match="not a valid input"):
        table.submit({"type": "power_card_played", "player": "red"})
    with pytest.raises(InputError, match="own choices"):
        table.submit(ev.SecretDiscSet(player="red", region="galicia"), player="yellow")
    with pytest.raises(InputError, match="nothing to undo"):
        table.undo()
    assert fingerprint(table) == before and table.path.stat().st_size == size


def test_undo_of_a_reveal_asks_for_confirmation():
    table = Table.new(scripted_setup("tracking", "short", 3))
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    assert table.public().undo_reveals
    with pytest.raises(NeedsConfirmation, match="already seen"):
        table.undo()
    assert table.asked().kind == "play_power_card"
    table.undo(confirm=True)
    assert table.asked().kind == "reveal_action_cards"
    resumed = Table.resume(table.path)
    assert resumed.asked().kind == "reveal_action_cards" and fingerprint(resumed) == fingerprint(table)


def test_secret_disc_undo_never_names_the_region():
    table = Table.new(scripted_setup("scoring", "short", 3))
    table.submit(RoundFinished())
    table.submit(RoundFinished())
    table.submit(ev.SecretDiscSet(player="red", region="granada"))
    assert table.public().undo == "Red's secret disc"
    assert "granada" not in table.public().model_dump_json()


def test_a_secret_disc_set_before_the_castillo_was_opened_is_not_undone_without_asking():
    table = Table.new(scripted_setup("scoring", "short", 3))
    table.submit(RoundFinished())
    table.submit(RoundFinished())
    table.submit(ev.SecretDiscSet(player="red", region="granada"))
    table.open_castillo()  # everyone sees the counts; "Back to the table" follows
    with pytest.raises(NeedsConfirmation, match="already seen the Castillo's counts"):
        table.undo()
    assert table.public().undo == "Red's secret disc"
    resumed = Table.resume(table.path)  # still known after a restart
    with pytest.raises(NeedsConfirmation):
        resumed.undo()
    assert resumed.undo(confirm=True) == "Red's secret disc"


def test_a_correction_is_logged_and_described():
    table = Table.new(scripted_setup("tracking", "short", 3))
    table.submit({"type": "table_corrected", "regions": {"galicia": {"red": 3}}, "reason": "cubes knocked over"})
    assert table.public().undo == "the table's correction (cubes knocked over)"
    assert table.public().game["regions"]["galicia"] == {"red": 3}
    assert Table.resume(table.path).public() == table.public()


def test_setup_mistakes_are_clear():
    with pytest.raises(ValueError, match="Caballero colour"):
        TableSetup(
            game=GameSetup(
                players=["ann", "bob"], king="aragon", homes={"ann": "galicia", "bob": "sevilla"}, start_player="ann"
            )
        )
    with pytest.raises(ValueError, match="serial tower needs its port"):
        TableSetup.model_validate({"game": scripted_setup().game.model_dump(), "tower": {"kind": "serial"}})
    same_home = scripted_setup().game.model_copy(
        update={"homes": {"red": "galicia", "yellow": "galicia", "green": "sevilla", "blue": "valencia"}}
    )
    with pytest.raises(InputError, match="home regions"):
        Table.new(TableSetup(game=same_home))


def test_score_history_follows_the_scorings():
    table = Table.new(scripted_setup("scoring", "short", 3))
    play(table, 3)
    history = table.score_history()
    finals = {p["id"]: p["score"] for p in table.public().game["players"]}
    assert {pid: points[-1][1] for pid, points in history.items()} == finals
    assert all(len(points) == len(table.free.scoring_log) + 1 for points in history.values())


def test_log_lines_are_plain_json_with_the_setup_first():
    table = Table.new(scripted_setup("tracking", "short", 3))
    play(table, 1)
    lines = table.path.read_text().splitlines()
    assert json.loads(lines[0])["header"]["setup"]["mode"] == "tracking"
    assert all(json.loads(line)["t"] for line in lines[1:])
    assert json.loads(lines[-1]) == {"t": "finished", "n": len(lines) - 1, "h": json.loads(lines[-1])["h"]}


def test_a_record_the_table_never_writes_is_damage_not_a_crash():
    table = Table.new(scripted_setup("tracking", "short", 3))
    for _ in range(20):
        step(table, 4, undo_rate=0)
    table.close()
    kept = len(table.records)
    bad_records = (
        ({"t": "assign", "drop": ["t", "b", 99], "player": "red", "count": 1}, "not in the game"),
        ({"t": "assign", "drop": ["t", "b", 1], "player": "purple", "count": 1}, "purple"),
        (
            {"t": "drop", "key": "x", "colour": "red", "best": None, "est": 1, "status": "expected"},
            "tower, boot and sequence",
        ),
        (
            {"t": "event", "e": {"type": "caballeros_placed", "player": "red", "placements": {"aragonn": 1}}},
            "'aragonn' is not a region",
        ),
        ({"t": "event", "e": {"type": "no_such_event"}}, "Input tag 'no_such_event'"),
        ({"t": "event", "e": {"type": "caballeros_placed", "player": "green", "placements": {"aragon": 1}}}, "(rule: "),
        ({"t": "teleport"}, "unknown record kind"),
    )
    for i, (bad, words) in enumerate(bad_records):
        path = table.path.with_name(f"bad-{i}.jsonl")
        rewrite_log(path, scan_log(table.path).header, table.records + [bad])  # a forger with the app's code
        with pytest.raises(LogDamaged, match=f"line {kept + 2} \\(record {kept + 1}\\) cannot be replayed") as exc:
            Table.resume(path)
        assert words in str(exc.value)
        opened = Table.resume_intact(path)
        assert fingerprint(opened) == fingerprint(Table.resume(table.path)) and opened.records == table.records


def test_one_tap_for_several_inputs_records_all_or_none():
    table = Table.new(scripted_setup("tracking", "short", 3))
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    for card in (13, 12, 11):
        table.submit(ev.PowerCardPlayed(player=table.asked().players[0], card=card))
    pid = table.asked().players[0]
    records = len(table.records)
    with pytest.raises(InputError, match="stack 9"):  # the second input is refused: the first is not kept
        table.submit_many(
            [
                {"type": "court_replenished", "player": pid, "from_provinces": 0, "from_regions": {}},
                {"type": "action_card_chosen", "player": pid, "stack": 9},
            ]
        )
    assert len(table.records) == records and table.asked().kind == "replenish"
    table.submit_many(
        [
            {"type": "court_replenished", "player": pid, "from_provinces": 0, "from_regions": {}},
            {"type": "action_card_chosen", "player": pid, "stack": 4},
        ]
    )
    assert table.asked().kind == "turn_action" and len(table.records) == records + 2


def test_undoing_a_special_scoring_asks_first():
    table = Table.new(scripted_setup("tracking", "short", 3))
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_5_regions", "grande"]))
    for card in (13, 12, 11):
        table.submit(ev.PowerCardPlayed(player=table.asked().players[0], card=card))
    pid = table.asked().players[0]
    table.submit_many(
        [
            {"type": "court_replenished", "player": pid, "from_provinces": 0, "from_regions": {}},
            {"type": "action_card_chosen", "player": pid, "stack": 3},
        ]
    )
    table.submit(ev.SpecialActionStarted(player=pid))  # the "5" regions are scored at once
    assert len(table.state.scoring_log) == 1
    with pytest.raises(NeedsConfirmation, match="already seen what it scored"):
        table.undo()
    table.undo(confirm=True)
    assert table.state.scoring_log == [] and table.asked().kind == "turn_action"


def test_a_crash_between_a_reveal_and_its_emptying_is_completed_on_resume():
    table = Table.new(scripted_setup("scoring", "short", 3))

    def after_a_reveal() -> bool:
        return (
            len(table.records) > 1
            and table.records[-1]["t"] == "emptied"
            and table.records[-2]["t"] == "event"
            and table.records[-2]["e"]["type"] == "secret_discs_revealed"
        )

    while not after_a_reveal():  # up to the first general scoring's reveal and emptying
        assert step(table, 5)
    path, emptied = table.path, table.records[-1]
    table.close()
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))  # killed after the reveal, before its emptying was written
    path.with_name(path.name + ".tip").unlink()  # (the checkpoint would say a record is missing)
    resumed = Table.resume(path)
    assert resumed.records[-1]["t"] == "emptied" and resumed.records[-1]["token"] == emptied["token"]
