"""The BG Stats play, as BG Stats holds it: its import file (.bgsplay) and its push link. The one
writer of both (companion.history.export writes the file through here).

The import file: the layout ctuncan/bga_bgstats (bga_bgstats.py, a public script that turns Board
Game Arena tables into BG Stats imports) writes, which a real BG Stats export of 217 plays has
too: top-level "games", "plays", "players", "locations", "userInfo"; a play names its game, its
players and its location by reference ids ("gameRefId", "playerScores[].playerRefId",
"locationRefId"); "userInfo.meRefId" names the player who owns the app (every other writer sets
it); the date as "YYYY-MM-DD HH:MM:SS" in UTC; its length as "durationMin"; each score as text
with "winner", "startPlayer", "seatOrder", "rank", "newPlayer" and "role" (what a player was in
the play: here the colour, by its printed English name); "board" the board or mode played (here
the rule set and its modules, by their printed names, so BG Stats' statistics split by them).
Ids are stable UUIDs from the game's stable id, so importing the same game twice is one play.

The push link: https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>, BG Stats'
page "Push plays to BG Stats from other apps or websites"
(bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites). The fields were
checked against that page as three public writers of the link quote and use it (searched in the
code corpus: a Discord bot's buildBgStatsPlayUrl and its tests, a Marvel Champions companion's
bgStatsPlayUrl, a match tracker's bgStatsUrl): "sourceName" and "sourcePlayId" (required: BG
Stats matches a pushed play again by them, so pushing twice is one play), "playDate" (UTC,
"yyyy-MM-dd HH:mm:ss"), "durationMin", "board", "location", "comments", "game" {"name",
"sourceGameId", "bggId", "highestWins", "noPoints"}, "players" [{"name", "sourcePlayerId",
"score", "winner", "rank", "role", "startPlayer"}]; "winner" is sent for every player (one writer
notes BG Stats' Android app fails on a player without it). "newPlayer" is not among the link's
documented fields: it is sent only where true (BG Stats' own play field; a reader that does not
know it ignores it). Not yet tried in BG Stats itself: scan a code and check (docs/plays.md).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from companion.look.players import look_of
from companion.storage.game_log import canonical
from companion.storage.games_folder import started_from_name
from companion.table_rules.rules_choice import MODULE_WORDS, RULES_WORDS
from companion.words import _

# BoardGameGeek: El Grande is BGG id 93. The 2023 edition (Hans im Glück) is, as far as we could
# find, listed on BoardGameGeek as a version of the same game, not a game of its own, so it is
# logged under 93 too, its rule set in the play's board. The one place to correct that.
BGG_IDS = {"classic": 93, "2023": 93, "king-intrigue": 93}
GAME_NAME = "El Grande"
SOURCE_NAME = "El Grande Companion"
SOURCE_GAME_ID = "el-grande"
PUSH_URL = "https://app.bgstatsapp.com/createPlay.html"
TABLE_PLAYER = "Table"  # BG Stats' "me" when the tablet has no owner: the table itself
DEFAULT_CLUB = "club"  # companion.club.config's default club name: no venue
_NS = uuid.uuid5(uuid.NAMESPACE_DNS, "elgrande-companion.local")
_URL_SAFE = "-_.!~*'()"  # what JavaScript's encodeURIComponent leaves as it is
_HEADER_BYTES = 256 * 1024  # a header is under 2 KB; bounds what is read to name a game


class ExportError(ValueError):
    """Why a game cannot be exported (one line). `said` is the line for a screen, which names the
    game as "this game" rather than by its file (the command line's line names the file)."""

    def __init__(self, message: str, said: str | None = None):
        super().__init__(message)
        self.said = said or message


def require_finished(record) -> None:
    if record.damaged:
        what = record.damaged.split(". ")[0]
        raise ExportError(
            _("{game} is damaged ({what}); only an intact game is exported").format(game=record.name, what=what),
            _("This game is damaged ({what}); only an intact game is exported").format(what=what),
        )
    if not record.finished:
        raise ExportError(
            _("{game} is not finished (round {round} of {rounds}): a play is logged once it is over").format(
                game=record.name, round=record.round, rounds=record.rounds
            ),
            _("This game is not finished (round {round} of {rounds}): a play is logged once it is over").format(
                round=record.round, rounds=record.rounds
            ),
        )


def _uuid(*parts: str) -> str:
    # a name from an old log may hold a lone surrogate, which has no UTF-8 bytes to hash
    key = "/".join(parts).encode("utf-8", "backslashreplace").decode("utf-8")
    return str(uuid.uuid5(_NS, key)).upper()


def _name_key(name: str) -> str:
    return name.strip().casefold()


def ranks(record) -> dict[str, int]:
    """Standard competition ranking: tied players share a place (the rules share the victory)."""
    scores = sorted((p.score for p in record.players), reverse=True)
    return {p.id: scores.index(p.score) + 1 for p in record.players}


# ---- the game's facts from its log ------------------------------------------------------------


def header_of(path: Path | None) -> dict | None:
    """The log's header (its first line), None when it cannot be read."""
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            line = f.readline(_HEADER_BYTES)
        obj = json.loads(line)
    except (OSError, ValueError):
        return None
    header = obj.get("header") if isinstance(obj, dict) else None
    return header if isinstance(header, dict) else None


def stable_id(header: dict) -> str:
    """A game's id wherever its log goes: the first 16 hex digits of the SHA-256 of its header's
    canonical JSON (the setup, the nonce drawn at its start, its start time). The same on every
    tablet the log is copied or restored to, and under any file name."""
    return hashlib.sha256(canonical(header).encode("ascii")).hexdigest()[:16]


def game_id(record) -> str:
    header = header_of(record.path)
    if header is None:
        raise ExportError(
            _("{game}: its first line cannot be read, so the game has no id").format(game=record.name),
            _("This game's first line cannot be read, so it has no id"),
        )
    return stable_id(header)


def started_utc(record, header: dict | None = None) -> datetime | None:
    """When the game began, in UTC: the log header's `started` (Unix time, written since issue
    31); a log older than that, the local time its file name was made with; else its last write."""
    header = header_of(record.path) if header is None else header
    value = (header or {}).get("started")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 2**33:
        return datetime.fromtimestamp(value, UTC)
    named = started_from_name(record.path) if record.path else None
    if named is not None:
        return datetime.fromtimestamp(named, UTC)
    if record.last_write is not None:
        return record.last_write.astimezone(UTC)  # naive: read as this tablet's local time
    return None


def play_date(record, header: dict | None = None) -> str:
    when = started_utc(record, header)
    return when.strftime("%Y-%m-%d %H:%M:%S") if when else ""


def board_name(rules: str, modules) -> str:
    """ "2023 edition + New Regency + Power Shift": the names the boxes print, in English (a value
    of BG Stats' board field: the same in every language, so its statistics split by it)."""
    return " + ".join([RULES_WORDS.get(rules, rules), *(MODULE_WORDS.get(m, m) for m in modules)])


def colour_name(colour: str) -> str:
    """The colour by its printed English name ("Red"): BG Stats' role."""
    return look_of(colour).name or colour


def location(header: dict | None) -> str:
    """Where the game was played: its club's name (a club game; not the default name), else the
    tablet's location (companion.plays.owner); "" when neither is known."""
    from companion.plays.owner import plays_settings

    club = (header or {}).get("club")
    name = club.get("club") if isinstance(club, dict) else None
    if isinstance(name, str) and name and name != DEFAULT_CLUB:
        return name
    return plays_settings()["location"]


def owner() -> str:
    """BG Stats' "me": the tablet's owner, or the table itself."""
    from companion.plays.owner import plays_settings

    return plays_settings()["owner"] or TABLE_PLAYER


def new_players(record, records=None) -> set[str]:
    """The names (casefolded) playing their first game: no finished intact game begun before this
    one, among `records` (default: every game in the record's folder), has them."""
    if records is None:
        from companion.history.records import cached_records

        records = cached_records(record.path.parent) if record.path else []
    seen: set[str] = set()
    for other in records:
        if other.finished and not other.damaged and other.started and record.started:
            if other.started < record.started:
                seen.update(_name_key(p.name) for p in other.players)
    return {_name_key(p.name) for p in record.players} - seen


def comments(record) -> str:
    from companion.history.people_words import printed_rules

    rules = printed_rules(record.rules, record.modules)
    if record.variant == "short":
        return _("{rules}, short game. Logged by El Grande Companion.").format(rules=rules)
    return _("{rules}, full game. Logged by El Grande Companion.").format(rules=rules)


# ---- the import file ----------------------------------------------------------------------------


def bgstats(record, records=None) -> dict:
    """The BG Stats import document for one finished game."""
    require_finished(record)
    header = header_of(record.path)
    gid = game_id(record)
    newcomers = new_players(record, records)
    me = owner()
    players = [
        {"id": i, "name": p.name, "uuid": _uuid("player", _name_key(p.name)), "isAnonymous": False}
        for i, p in enumerate(record.players, start=1)
    ]
    me_ref = next((q["id"] for q in players if _name_key(q["name"]) == _name_key(me)), None)
    if me_ref is None:  # the owner did not play this game: listed, as BG Stats lists its "me"
        me_ref = len(players) + 1
        players.append({"id": me_ref, "name": me, "uuid": _uuid("player", _name_key(me)), "isAnonymous": False})
    place = location(header)
    placed = ranks(record)
    play = {
        "uuid": _uuid("play", gid),
        "gameRefId": 1,
        "playDate": play_date(record, header),
        "durationMin": record.duration_min or 0,
        "ignored": False,
        "manualWinner": False,
        "rounds": record.rounds,
        "board": board_name(record.rules, record.modules),
        "usesTeams": False,
        "scoringSetting": 0,
        "rating": 0,
        "playImages": "[]",
        "comments": comments(record),
        **({"locationRefId": 1} if place else {}),
        "playerScores": [
            {
                "playerRefId": i,
                "score": str(p.score),
                "winner": p.winner,
                "startPlayer": p.start_player,
                "seatOrder": p.seat,
                "rank": placed[p.id],
                "newPlayer": _name_key(p.name) in newcomers,
                "role": colour_name(p.id),
            }
            for i, p in enumerate(record.players, start=1)
        ],
    }
    game = {
        "id": 1,
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
    places = [{"id": 1, "uuid": _uuid("location", _name_key(place)), "name": place}] if place else []
    return {"games": [game], "plays": [play], "players": players, "locations": places, "userInfo": {"meRefId": me_ref}}


def read_bgstats(doc: dict) -> list[dict]:
    """The plays a BG Stats document holds, resolved: game name and BGG id, date, minutes, board,
    location and (name, score, winner) per player. For checking a written file, and any .bgsplay."""
    games = {g["id"]: g for g in doc["games"]}
    players = {p["id"]: p["name"] for p in doc["players"]}
    places = {p["id"]: p["name"] for p in doc.get("locations", [])}
    return [
        {
            "game": games[play["gameRefId"]]["name"],
            "bggId": games[play["gameRefId"]]["bggId"],
            "date": play["playDate"],
            "durationMin": play["durationMin"],
            "board": play.get("board", ""),
            "location": places.get(play.get("locationRefId"), ""),
            "me": players.get(doc.get("userInfo", {}).get("meRefId")),
            "players": [(players[s["playerRefId"]], int(s["score"]), bool(s["winner"])) for s in play["playerScores"]],
        }
        for play in doc["plays"]
    ]


# ---- the push link ------------------------------------------------------------------------------


def push_play(record, records=None) -> dict:
    """The play as BG Stats' push link carries it (the fields the module's docstring names)."""
    require_finished(record)
    header = header_of(record.path)
    newcomers = new_players(record, records)
    placed = ranks(record)
    place = location(header)
    data = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": game_id(record),
        "playDate": play_date(record, header),
        **({"durationMin": record.duration_min} if record.duration_min else {}),
        "board": board_name(record.rules, record.modules),
        **({"location": place} if place else {}),
        "game": {
            "name": GAME_NAME,
            "sourceGameId": SOURCE_GAME_ID,
            "bggId": BGG_IDS[record.rules],
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": p.name,
                "sourcePlayerId": _uuid("player", _name_key(p.name)).replace("-", "")[:12],
                "score": p.score,
                "winner": p.winner,
                "rank": placed[p.id],
                "role": colour_name(p.id),
                "startPlayer": p.start_player,
                **({"newPlayer": True} if _name_key(p.name) in newcomers else {}),
            }
            for p in record.players
        ],
    }
    return data


def link_of(data: dict) -> str:
    """The push link of a play's data: compact JSON (non-ASCII as JSON escapes, which a lone
    surrogate in an old name has too), url-encoded as encodeURIComponent does."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return f"{PUSH_URL}?data={quote(text, safe=_URL_SAFE)}"


def push_link(record, records=None) -> str:
    """BG Stats' push link for one finished game (ExportError, one line, for any other)."""
    return link_of(push_play(record, records))


def data_of(link: str) -> dict:
    """The play a push link carries (its reader, for tests and checks)."""
    from urllib.parse import parse_qs, urlsplit

    return json.loads(parse_qs(urlsplit(link).query)["data"][0])


_links: dict[Path, str | None] = {}  # a finished game's link, made once (its log no longer changes)


def finished_play_link(table) -> str | None:
    """The push link of a finished table's game (the phones' "Log in BG Stats"), None for an
    unfinished, unsaved or damaged one. Made once per game: a finished log no longer changes."""
    path = table.path
    if not table.over or path is None:
        return None
    if path not in _links:
        from companion.history.records import record_of_table

        try:
            _links[path] = push_link(record_of_table(table, path))
        except ExportError:
            _links[path] = None
    return _links[path]


def log_in_words() -> str:
    """The phone page's button that opens the link."""
    return _("Log in BG Stats")
