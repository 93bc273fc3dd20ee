"""A finished game written where players keep their plays: a BG Stats import file, BoardGameGeek's
play fields as CSV, and a picture to share (PNG).

BG Stats: its import file (.bgsplay, JSON) as written by ctuncan/bga_bgstats (bga_bgstats.py, a
public script that turns Board Game Arena tables into BG Stats imports): top-level "games",
"plays", "players", "locations", "userInfo"; a play names its game and players by reference ids
("gameRefId", "playerScores[].playerRefId"), its date as "YYYY-MM-DD HH:MM:SS", its length as
"durationMin", each score as text with "winner", "startPlayer", "seatOrder" and "rank"; a game
carries its BoardGameGeek id ("bggId"). Ids are stable UUIDs, so importing the same game twice
is recognised as the same play.

BoardGameGeek: El Grande is BGG id 93. The 2023 edition (Hans im Glück) is, as far as we could
find, listed on BoardGameGeek as a version of the same game, not a game of its own, so it is
logged under 93 too; the rule set and modules go into the play's comments. BGG_IDS is the one
place to correct that.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from pathlib import Path

from companion.history.people_words import spoken_date, who_won
from companion.history.records import SOURCE_NAMES, GameRecord, Replay, rules_label
from companion.safe_text import for_csv, for_json, for_picture

BGG_IDS = {"classic": 93, "2023": 93, "king-intrigue": 93}
GAME_NAME = "El Grande"
_NS = uuid.uuid5(uuid.NAMESPACE_DNS, "elgrande-companion.local")
BGG_FIELDS = (
    "objectid",
    "objectname",
    "playdate",
    "quantity",
    "length",
    "incomplete",
    "nowinstats",
    "location",
    "comments",
    "username",
    "name",
    "startposition",
    "color",
    "score",
    "new",
    "rating",
    "win",
)


class ExportError(ValueError):
    """Why a game cannot be exported (one line)."""


def _require_finished(record: GameRecord) -> None:
    if record.damaged:
        raise ExportError(
            f"{record.name} is damaged ({record.damaged.split('. ')[0]}); only an intact game is exported"
        )
    if not record.finished:
        raise ExportError(
            f"{record.name} is not finished (round {record.round} of {record.rounds}): a play is logged once it is over"
        )


def _uuid(*parts: str) -> str:
    # a name from an old log may hold a lone surrogate, which has no UTF-8 bytes to hash
    key = "/".join(parts).encode("utf-8", "backslashreplace").decode("utf-8")
    return str(uuid.uuid5(_NS, key)).upper()


def _ranks(record: GameRecord) -> dict[str, int]:
    """Standard competition ranking: tied players share a place (the rules share the victory)."""
    scores = sorted((p.score for p in record.players), reverse=True)
    return {p.id: scores.index(p.score) + 1 for p in record.players}


def comments(record: GameRecord) -> str:
    return f"{rules_label(record.rules, record.modules)}, {record.variant} game. Logged by El Grande Companion."


def bgstats(record: GameRecord) -> dict:
    """The BG Stats import document for one finished game."""
    _require_finished(record)
    game_id = 1
    play_key = record.name + (record.started.isoformat() if record.started else "")
    players = [
        {"id": i, "name": p.name, "uuid": _uuid("player", p.name.strip().casefold()), "isAnonymous": False}
        for i, p in enumerate(record.players, start=1)
    ]
    ranks = _ranks(record)
    play = {
        "uuid": _uuid("play", play_key),
        "gameRefId": game_id,
        "playDate": (record.started or record.last_write).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": record.duration_min or 0,
        "ignored": False,
        "manualWinner": False,
        "rounds": record.rounds,
        "usesTeams": False,
        "scoringSetting": 0,
        "rating": 0,
        "playImages": "[]",
        "comments": comments(record),
        "playerScores": [
            {
                "playerRefId": i,
                "score": str(p.score),
                "winner": p.winner,
                "startPlayer": p.start_player,
                "seatOrder": p.seat,
                "rank": ranks[p.id],
                "newPlayer": False,
                "role": p.id,
            }  # role: the colour played (BG Stats' field for it)
            for i, p in enumerate(record.players, start=1)
        ],
    }
    game = {
        "id": game_id,
        "uuid": _uuid("game", str(BGG_IDS[record.rules])),
        "name": GAME_NAME,
        "bggId": BGG_IDS[record.rules],
        "bggName": GAME_NAME,
        "bggYear": 1995,
        "highestWins": True,
        "noPoints": False,
        "cooperative": False,
        "usesTeams": False,
    }
    return {"games": [game], "plays": [play], "players": players, "locations": [], "userInfo": {}}


def read_bgstats(doc: dict) -> list[dict]:
    """The plays a BG Stats document holds, resolved: game name and BGG id, date, minutes, and
    (name, score, winner) per player. For checking a written file, and for any .bgsplay."""
    games = {g["id"]: g for g in doc["games"]}
    players = {p["id"]: p["name"] for p in doc["players"]}
    return [
        {
            "game": games[play["gameRefId"]]["name"],
            "bggId": games[play["gameRefId"]]["bggId"],
            "date": play["playDate"],
            "durationMin": play["durationMin"],
            "players": [(players[s["playerRefId"]], int(s["score"]), bool(s["winner"])) for s in play["playerScores"]],
        }
        for play in doc["plays"]
    ]


def bgg_rows(record: GameRecord) -> list[dict]:
    """BoardGameGeek's play fields, one row per player (the play's fields repeated)."""
    _require_finished(record)
    when = record.started or record.last_write
    return [
        {
            "objectid": BGG_IDS[record.rules],
            "objectname": GAME_NAME,
            "playdate": when.strftime("%Y-%m-%d"),
            "quantity": 1,
            "length": record.duration_min or 0,
            "incomplete": 0,
            "nowinstats": 0,
            "location": "",
            "comments": comments(record),
            "username": "",
            "name": p.name,
            "startposition": p.seat,
            "color": p.id,
            "score": p.score,
            "new": 0,
            "rating": 0,
            "win": int(p.winner),
        }
        for p in record.players
    ]


def bgg_csv(record: GameRecord) -> str:
    """The rows as CSV, every text cell as text: a name like `=HYPERLINK(...)` or `-1` is not a formula.
    Lines end in CRLF (RFC 4180): the writer then quotes a cell holding a lone CR, which would
    otherwise end the row in a spreadsheet."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=BGG_FIELDS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({k: for_csv(v) if isinstance(v, str) else v for k, v in row.items()} for row in bgg_rows(record))
    return out.getvalue()


# ---- the picture ------------------------------------------------------------------------------

# The Caballero colours as printed (the map's PLAYER_RGB, 0-255), darkened enough for text on paper.
COLOURS = {
    "red": (200, 40, 40),
    "yellow": (200, 160, 0),
    "green": (40, 140, 60),
    "blue": (40, 80, 190),
    "black": (30, 30, 30),
    "orange": (230, 120, 20),
    "white": (150, 150, 150),
    "purple": (120, 60, 150),
}
PAPER, INK, GRID = (246, 238, 222), (50, 40, 30), (215, 203, 180)


def _font(size: int):
    from PIL import ImageFont

    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:  # Kivy ships Roboto
        import kivy

        return ImageFont.truetype(str(Path(kivy.__file__).parent / "data/fonts/Roboto-Regular.ttf"), size)
    except (ImportError, OSError):
        return ImageFont.load_default()


def share_png(record: GameRecord, replay: Replay | None = None, size: tuple[int, int] = (1200, 800)) -> bytes:
    """Final standings in the players' colours and the score plot drawn as steps (points arrive
    at scorings). Needs Pillow (installed with Kivy on the desktop)."""
    _require_finished(record)
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise ExportError("the picture needs Pillow (pip install pillow)") from None
    width, height = size
    image = Image.new("RGB", size, PAPER)
    draw = ImageDraw.Draw(image)
    title, body, small = _font(40), _font(28), _font(20)
    headline = who_won(for_picture(p.name) for p in record.winners) or "El Grande"
    draw.text((40, 28), headline, fill=INK, font=title)
    draw.text(
        (40, 84), f"{spoken_date(record.started or record.last_write)} - {record.rules_label}", fill=INK, font=small
    )
    ranked = sorted(record.players, key=lambda p: -p.score)
    y = 140
    for place, p in enumerate(ranked, start=1):
        colour = COLOURS.get(p.id, INK)
        draw.rectangle((40, y + 6, 64, y + 30), fill=colour, outline=INK)
        draw.text((78, y), f"{place}. {for_picture(p.name)}", fill=colour, font=body)
        draw.text((360, y), f"{p.score}", fill=INK, font=body)
        best = max((s for s in p.by_source if s != "other"), key=lambda s: p.by_source[s])
        draw.text((78, y + 34), f"most from {SOURCE_NAMES[best].lower()} ({p.by_source[best]})", fill=INK, font=small)
        y += 78
    if replay is not None:
        _plot(draw, replay, (520, 140, width - 40, height - 60), small)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _plot(draw, replay: Replay, box: tuple[int, int, int, int], font) -> None:
    left, top, right, bottom = box
    history = replay.score_steps()
    last = len(replay) - 1 or 1
    top_score = max((s for pts in history.values() for _, s in pts), default=1) or 1
    x = lambda step: left + (right - left) * step / last
    y = lambda score: bottom - (bottom - top) * score / top_score
    draw.rectangle(box, fill=(255, 252, 245), outline=GRID)
    for score in (0, top_score // 2, top_score):
        draw.line((left, y(score), right, y(score)), fill=GRID)
        draw.text((left - 8, y(score)), str(score), fill=INK, font=font, anchor="rm")
    starts = replay.round_starts()
    for number in starts:
        rnd = replay.steps[number].round
        draw.line((x(number), bottom, x(number), bottom + 6), fill=INK)
        draw.text((x(number), bottom + 8), str(rnd), fill=INK, font=font, anchor="mt")
    draw.text(((left + right) / 2, bottom + 32), "rounds", fill=INK, font=font, anchor="mt")
    for pid, pts in history.items():
        points = []
        for (step, score), nxt in zip(pts, pts[1:] + [(last, None)]):
            points += [(x(step), y(score)), (x(nxt[0]), y(score))]  # flat until the next scoring
        draw.line(points, fill=COLOURS.get(pid, INK), width=4, joint="curve")


def write(path: Path, data: str | bytes) -> None:
    """Write an export; ExportError (one line) when the folder or file cannot be written."""
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"{path}: cannot write ({exc.strerror or exc})") from None


def bgstats_text(record: GameRecord) -> str:
    """The BG Stats file: raw JSON (names stay as written), any character a UTF-8 file cannot
    hold or a viewer would act on as a JSON escape."""
    return for_json(json.dumps(bgstats(record), indent=1, ensure_ascii=False))


def write_bgstats(record: GameRecord, path: Path) -> None:
    write(path, bgstats_text(record))


KINDS = {"bgstats": (".bgsplay", "application/json"), "csv": (".csv", "text/csv"), "png": (".png", "image/png")}


def default_folder() -> Path:
    """Where the app offers to write exports: the user's Documents (or home) folder, in its own
    sub-folder; the person may type any other."""
    home = Path.home()
    documents = home / "Documents"
    return (documents if documents.is_dir() else home) / "El Grande plays"


def subfolders(folder: Path) -> list[Path]:
    """The folders inside `folder` a person would write into, by name (hidden ones left out); none
    when it cannot be read."""
    try:
        found = [p for p in folder.iterdir() if not p.name.startswith(".") and p.is_dir()]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name.casefold())


def nearest_folder(folder: Path) -> Path:
    """The folder itself if it is there, else the nearest one above it that is (where a picker opens)."""
    for candidate in (folder, *folder.parents):
        if candidate.is_dir():
            return candidate
    return Path.home()


def export_game(record: GameRecord, kind: str, folder: Path, replay: Replay | None = None) -> Path:
    """One finished game written into `folder` (made if missing) as `kind` (bgstats | csv | png).
    Returns the file written; ExportError (one line) when it cannot be."""
    suffix, _ = KINDS[kind]
    when = record.started or record.last_write
    name = f"el-grande-{when:%Y-%m-%d-%H%M}{suffix}" if when else f"el-grande{suffix}"
    data = {
        "bgstats": lambda: bgstats_text(record),
        "csv": lambda: bgg_csv(record),
        "png": lambda: share_png(record, replay),
    }[kind]()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{folder}: cannot make the folder ({exc.strerror or exc})") from None
    path = folder / name
    write(path, data)
    return path
