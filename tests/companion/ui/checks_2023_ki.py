"""What the 2023 and King and Intrigue app scenarios prove, as checks on their facts: shared by
the tests that read a launch's outcome (test_app_2023.py, test_app_ki_scoring.py) and the screen
catalogue, which asserts them in the app at the other tablet shapes (catalogue_2023_ki.py).
Without Kivy and importable both ways (a test's package, the app driver's folder)."""

from __future__ import annotations

import json

from companion.words import _, language, names
from tests.companion.ui.words_match import colour, is_, said, says


def learned_the_box(learning: dict) -> None:
    """A first game from the shipped data: empty stacks said plainly, cards named, a card not in
    the list entered compactly, one reveal, kept in Your cards (copies left unknown). The facts
    as a test reads them from the launch's result (JSON: stacks by "1", "2" ...)."""
    learning = json.loads(json.dumps(learning))
    assert learning["empty_stacks"] == [1, 2, 4] and len(learning["said"]) == 3, learning  # stack 3: Fiesta
    assert "intrigue@1" in learning["offered_stack_1"] and len(learning["offered_stack_1"]) > 8, learning
    assert learning["after_typing"] == ["intrigue@1"], learning
    assert learning["named_taps"] == 6, learning  # 2 a card: Name the card, its name
    assert learning["new_card_taps"] <= 10, learning  # Name the card, not in the list, effect, 3, Add
    assert learning["chosen"] == {
        "1": "intrigue",
        "2": "veto",
        "3": "outposts",
        "4": "three_to_the_court",
        "5": learning["chosen"]["5"],
    }, learning
    assert learning["asked_now"] == "play_power_card" and says(learning["said_after"], "Learned: "), learning
    assert learning["kept"] == {"intrigue": 1, "veto": 2, "outposts": 3, "three_to_the_court": 4}, learning
    assert learning["court_params"] == {"count": 3} and learning["copies_kept"] == [None, None], learning
    assert says(learning["card_facts_refused"], "Tap one for") and learning["civil_war"]["outcome"] == "to_court"


KI_MARKER_TAGS = [
    ["aragon", "Alliance"],
    ["castilla_la_nueva", "King's Guard"],
    ["castilla_la_vieja", "Bridge"],
    ["castillo", "Risk of Collapse"],
    ["cataluna", "Alliance"],
    ["galicia", "2x"],
    ["granada", "Castillo here"],
    ["granada", "Table for Six"],
    ["pais_vasco", "Bridge"],
    ["sevilla", "Quarantine"],
    ["valencia", "2x"],
]
KI_TOOLS = {
    "2x marker",
    "Alliance",
    "Castillo moved",
    "Quarantine",
    "Bridge",
    "King's Guard",
    "Place the 8-4-0 scoreboard",
    "Place the 4-0-0 scoreboard",
    "8-4-0 scoreboard: as printed",
    "4-0-0 scoreboard: as printed",
    "Mistress: nobody",
}

# the tools made of a message and a value: the message (its value any words in another language)
KI_TOOL_MESSAGES = {
    "Place the 8-4-0 scoreboard": "Place {piece}",
    "Place the 4-0-0 scoreboard": "Place {piece}",
    "8-4-0 scoreboard: as printed": "{values} scoreboard: as printed",
    "4-0-0 scoreboard: as printed": "{values} scoreboard: as printed",
    "Mistress: nobody": "Mistress: {who}",
}


def ki_markers_entered_by_taps(outcome: dict) -> None:
    """King and Intrigue's board entry in scoring-only mode (ki_scoring_scenarios): the tools, a
    third Alliance marker refused in words, the markers drawn; nothing wrong on any screen."""
    assert outcome["setup"] == {
        "rules": "king-intrigue",
        "mode": "scoring",
        "modules": ["players-edition", "special-cards"],
    }
    # in the language the app spoke (the screen catalogue sees it in German)
    missing = [
        tool
        for tool in KI_TOOLS
        if not any(is_(shown, tool) or says(shown, KI_TOOL_MESSAGES.get(tool, tool)) for shown in outcome["tools"])
    ]
    assert not missing, (missing, outcome["tools"])
    if language() == "en":
        assert outcome["refused"] == (
            "Both Alliance markers lie already (on Aragón and Cataluña): tap one to take it off first"
        )
    assert says(outcome["refused"], "Both {markers} lie already (on {places}): tap one to take it off first")
    drawn = [m.rpartition(" on ") for m in outcome["markers_drawn"]]  # a marker's words, in the language
    expected = [("2x", "galicia"), ("Alliance", "aragon"), ("Alliance", "cataluna")]
    assert sorted(area for _t, _on, area in drawn) == sorted(area for _t, area in expected), drawn
    assert all(any(is_(t, e) and a == area for e, a in expected) for t, _on, area in drawn), drawn
    problems = {k: v for k, v in outcome["problems"].items() if v}
    assert not problems, problems


def _words(text: str) -> str:
    return " ".join(text.split())


def _find(marks: list[dict], kind: str, area: str) -> list[dict]:
    return [m for m in marks if m["kind"] == kind and m["area"] == area]


def map_2023_checks(outcome: dict, shots, size: tuple[int, int]) -> None:
    """What map_2023 proves at a window of `size` (test_map_2023.py at 1280x800, the screen
    catalogue at the other shapes): nothing wrong on any screen, each picture the window's, a
    tap on a token's area lands on it, tokens in their areas, and what each position shows."""
    from PIL import Image, ImageStat

    width, height = size
    found = {name: p for name, p in outcome["problems"].items() if p}
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
    marks = outcome["marks"]
    for name, placed in marks.items():
        image = Image.open(shots / f"map_{name}.png").convert("RGB")
        assert image.size == (width, height) and max(ImageStat.Stat(image).stddev) > 8, name
        for m in placed:  # a tap on a token's area lands on it; tokens, tiles and keys stay in their area
            if m["kind"] in ("king", "space", "mobile") and m["area"] != "castillo":
                assert m["under"] == m["area"], (name, m)
            if m["kind"] in ("king", "grande", "space", "legend"):
                assert m["within"], (name, m)
        for aid, hit in outcome["hits"][name].items():
            assert hit == aid, (name, aid, hit)

    exile = marks["exile_france_competition"]
    assert _find(exile, "king", "france") and not _find(exile, "counts", "france")
    assert [m["owner"] for m in _find(exile, "grande", "castillo")] == ["red"]
    assert [m["text"] for m in _find(exile, "mobile", "galicia") + _find(exile, "mobile", "castillo")] == [
        "8·4·0",
        "4·0·0",
    ]

    rebellion = marks["rebellion_crowded"]
    assert _find(rebellion, "king", "castillo")[0]["under"] == "castillo"  # beside the tower
    assert sorted(m["owner"] for m in _find(rebellion, "grande", "castillo")) == ["black", "green", "red"]
    not_entered = _words(_("values\nnot entered"))  # the label's own line breaks: where its words fit
    tiles = _find(rebellion, "mobile", "galicia") + _find(rebellion, "mobile", "toledo")
    assert {_words(m["text"]) for m in tiles} == {not_entered}, tiles
    shown = {m["text"] for m in rebellion if m["kind"] == "name"}
    printed = {names.place(n, "2023") for n in ("Navarra", "Castilla", "Toledo")}
    assert printed <= shown and not shown & {names.place(n, "2023") for n in ("País Vasco", "Castilla la Vieja")}

    unknown = marks["dummy_portugal_unknown_side"]
    assert _find(unknown, "king", "portugal")
    assert {(m["text"], m["struck"]) for m in unknown if m["kind"] == "values"} == {("?·?", "·?")}
    dummy = said("the dummy ({name})", name=colour("white"))
    legend = [(m["items"], m["text"].casefold()) for m in _find(unknown, "legend", "dummy")]
    assert legend == [(["white"], dummy.casefold())], legend  # a line may start with its capital
    assert "white" in _find(unknown, "counts", "toledo")[0]["items"]
    assert _words(_find(unknown, "mobile", "castillo")[0]["text"]) == not_entered

    entered = marks["dummy_side_entered_tile_on_castillo"]
    assert (_find(entered, "values", "castilla")[0]["text"], _find(entered, "values", "castilla")[0]["struck"]) == (
        "6·4",
        "·2",
    )
    assert (_find(entered, "mobile", "castillo")[0]["text"], _find(entered, "mobile", "castillo")[0]["struck"]) == (
        "8·4",
        "·0",
    )

    classic = outcome["classic_before"]
    assert classic == outcome["classic_after"]  # back to the classic game: the same marks
    assert names.place("País Vasco") in {m["text"] for m in classic}
    assert not [m for m in classic if m["kind"] in ("space", "legend")]
