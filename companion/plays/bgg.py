"""BoardGameGeek's play fields, one row per player (the play's fields repeated): the CSV the
app writes (companion.history.export.bgg_csv) holds these columns, in this order.

BGG has no CSV import for plays: a play reaches BGG through its own form, its play-logging API
(which tools like BG Stats use), or BG Stats posting it. The CSV is BGG's fields for a person or
a script to carry there (checked against the fields BGG's XML API returns for a play: play
`date`, `quantity`, `length`, `incomplete`, `nowinstats`, `location`, `item objectid/name`,
`comments`, and per player `username`, `name`, `startposition`, `color`, `score`, `new`,
`rating`, `win`). What the app fills, and what stays empty and why:

- location: the club's name for a club game, else the tablet's location (Settings); empty when
  neither is set.
- username: the owner's BoardGameGeek user name (Settings) on the owner's row; empty for every
  other player, whose BGG account the app does not know (BGG matches a name to no account).
- new: 1 for a player's first finished game on this tablet (BG Stats' newPlayer).
- rating: always 0, BGG's "not rated": the app never asks anyone to rate the game.
- color: the colour by its printed English name ("Red").
- playdate: the local day the game began (BGG keeps a day, no time and no zone).
- incomplete 0 and nowinstats 0: only finished games are exported.
"""

from __future__ import annotations

from companion.plays.bgstats import (
    BGG_IDS,
    GAME_NAME,
    colour_name,
    comments,
    header_of,
    location,
    new_players,
    require_finished,
)
from companion.plays.owner import plays_settings

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


def bgg_rows(record, records=None) -> list[dict]:
    """BoardGameGeek's play fields for one finished game, one row per player."""
    require_finished(record)
    when = record.started or record.last_write
    kept = plays_settings()
    place = location(header_of(record.path))
    newcomers = new_players(record, records)
    owner = kept["owner"].casefold()
    return [
        {
            "objectid": BGG_IDS[record.rules],
            "objectname": GAME_NAME,
            "playdate": when.strftime("%Y-%m-%d"),
            "quantity": 1,
            "length": record.duration_min or 0,
            "incomplete": 0,
            "nowinstats": 0,
            "location": place,
            "comments": comments(record),
            "username": kept["bgg_username"] if owner and p.name.strip().casefold() == owner else "",
            "name": p.name,
            "startposition": p.seat,
            "color": colour_name(p.id),
            "score": p.score,
            "new": int(p.name.strip().casefold() in newcomers),
            "rating": 0,
            "win": int(p.winner),
        }
        for p in record.players
    ]
