"""What a replay's step changed on the map (issue 33)."""

from __future__ import annotations

from companion.history.records import demo_replay
from companion.history.step_changes import changed_areas, step_changes


def _view(**parts) -> dict:
    view = {
        "regions": {"galicia": {"red": 2}, "aragon": {"blue": 1}, "sevilla": {}},
        "king": "sevilla",
        "players": [{"id": "red", "grande": "galicia"}, {"id": "blue", "grande": "aragon"}],
        "mobile_scoreboards": {"8-4-0": None},
        "scorings": [],
    }
    view.update(parts)
    return view


def test_nothing_moved_nothing_changed():
    assert changed_areas(_view(), _view()) == []
    # a count of 0 written out is no Caballero
    assert changed_areas(_view(), _view(regions={"galicia": {"red": 2, "blue": 0}, "aragon": {"blue": 1}})) == []


def test_caballeros_the_king_a_grande_and_a_scoreboard_mark_their_areas():
    before = _view()
    moved = _view(regions={"galicia": {"red": 3}, "aragon": {"blue": 1}, "sevilla": {}})
    assert changed_areas(before, moved) == ["galicia"]
    assert changed_areas(before, _view(king="aragon")) == ["aragon", "sevilla"]
    grande = _view(players=[{"id": "red", "grande": "sevilla"}, {"id": "blue", "grande": "aragon"}])
    assert changed_areas(before, grande) == ["galicia", "sevilla"]
    assert changed_areas(before, _view(mobile_scoreboards={"8-4-0": "valencia"})) == ["valencia"]


def test_a_special_scoring_points_at_its_areas_a_general_one_does_not():
    line = {"area": "sevilla", "player": "red", "points": 4}
    special = _view(scorings=[{"title": "Special Scoring (Sevilla)", "lines": [line]}])
    assert changed_areas(_view(), special) == ["sevilla"]
    general = _view(scorings=[{"title": "General scoring after round 3", "lines": [line]}])
    assert changed_areas(_view(), general) == []


def test_every_step_of_the_demo_that_moves_pieces_names_an_area():
    replay = demo_replay()
    assert step_changes(replay, 0) == []
    courts = lambda n: [p["court"] for p in replay.steps[n].view["players"]]
    placed = [n for n in range(1, len(replay)) if "Caballeros placed" in replay.steps[n].what]
    moved = [n for n in placed if courts(n) != courts(n - 1)]  # a player may place none
    assert len(moved) > 10 and all(step_changes(replay, n) for n in moved)
    areas = set(replay.steps[0].view["regions"]) | {"castillo", "france", "portugal"}
    assert all(set(step_changes(replay, n)) <= areas for n in range(len(replay)))


def test_caballeros_that_leave_the_court_for_no_region_went_into_the_castillo():
    before = _view(players=[{"id": "red", "grande": "galicia", "court": 7}])
    into = _view(players=[{"id": "red", "grande": "galicia", "court": 5}])
    assert changed_areas(before, into) == ["castillo"]
    placed = _view(
        regions={"galicia": {"red": 4}, "aragon": {"blue": 1}, "sevilla": {}},
        players=[{"id": "red", "grande": "galicia", "court": 5}],
    )
    assert changed_areas(before, placed) == ["galicia"]
