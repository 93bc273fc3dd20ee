"""A finished game written where players keep their plays: a BG Stats import file, BoardGameGeek's
play fields as CSV, and a picture to share (PNG).

BG Stats: its import file (.bgsplay) and its push link are written by companion.plays.bgstats
(the one writer; its docstring says which public readers and samples each field was checked
against). BoardGameGeek: its play fields, below (BGG_IDS, the game's BGG id, is in
companion.plays.bgstats too).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from companion.history.people_words import and_list, spoken_date
from companion.history.records import SOURCE_PHRASES, GameRecord, Replay
from companion.look.players import look_of
from companion.look.tokens import THEMES
from companion.plays.bgg import BGG_FIELDS, bgg_rows  # BoardGameGeek's fields, filled in companion.plays
from companion.plays.bgstats import (  # the one BG Stats writer (companion.plays), used here
    BGG_IDS,
    GAME_NAME,
    ExportError,
    bgstats,
    comments,
    read_bgstats,
)
from companion.plays.bgstats import require_finished as _require_finished
from companion.safe_text import for_csv, for_json, for_picture
from companion.words import _, ngettext

__all__ = ["BGG_FIELDS", "BGG_IDS", "GAME_NAME", "ExportError", "bgg_rows", "bgstats", "comments", "read_bgstats"]


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

# The day theme's tokens (companion.look.tokens), 0-255: the picture is posted, so it has one look.
_DAY = {token: tuple(round(c * 255) for c in rgba[:3]) for token, rgba in THEMES["day"].items()}
PAPER, CARD, INK, MUTED, GRID = _DAY["background"], _DAY["card"], _DAY["ink"], _DAY["ink_muted"], _DAY["outline"]
APP_NAME = "El Grande Companion"


def colour_of(player: str) -> tuple[int, int, int]:
    """A player's colour as the screens show it (companion.look.players), 0-255."""
    return tuple(round(c * 255) for c in look_of(player).rgb)


def _font(size: int, bold: bool = False):
    from PIL import ImageFont

    try:  # the app's own face (Kivy ships Roboto), then one most systems have
        import kivy

        face = "Roboto-Bold.ttf" if bold else "Roboto-Regular.ttf"
        return ImageFont.truetype(str(Path(kivy.__file__).parent / "data/fonts" / face), size)
    except (ImportError, OSError):
        pass
    for name in ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf") if bold else ("DejaVuSans.ttf",):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def _fitted(draw, text: str, width: int, size: int, bold: bool = False, least: int = 20):
    """The font (shrunk down to `least`) and the text (cut with an ellipsis) that fit `width`."""
    font = _font(size, bold)
    while size > least and draw.textlength(text, font=font) > width:
        size -= 2
        font = _font(size, bold)
    if draw.textlength(text, font=font) > width:
        # the longest start that fits with its ellipsis, found by halving (a pasted name can be
        # thousands of characters: measuring one character shorter each time took minutes)
        low, high = 0, len(text)
        while low < high:
            mid = (low + high + 1) // 2
            if draw.textlength(text[:mid] + "…", font=font) <= width:
                low = mid
            else:
                high = mid - 1
        text = text[:low] + "…"
    return font, text


def headline(record: GameRecord) -> str:
    """ "Priya won El Grande, 112 points"; a shared win names them all."""
    winners = record.winners
    if not winners:
        return GAME_NAME
    who, points = [for_picture(p.name) for p in winners], winners[0].score
    if len(who) > 1:
        return ngettext(
            "{who} share the win in El Grande, {n} point", "{who} share the win in El Grande, {n} points", points
        ).format(who=and_list(who), n=points)
    return ngettext("{who} won El Grande, {n} point", "{who} won El Grande, {n} points", points).format(
        who=who[0], n=points
    )


def _token(draw, centre: tuple[float, float], radius: float, player: str, font) -> None:
    """A player's colour with its second cue: the colour's initial in a disc of the colour."""
    look, (x, y) = look_of(player), centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour_of(player), outline=INK, width=2)
    figure = (30, 30, 30) if look.dark_figures else (255, 255, 255)
    draw.text((x, y), look.initial, fill=figure, font=font, anchor="mm")


def share_png(record: GameRecord, replay: Replay | None = None, size: tuple[int, int] = (1200, 800)) -> bytes:
    """The picture a table would post: who won with how many points, the day in words, the standings
    (each player's colour with its initial), the scores over the game with every scoring seen, the
    app's name small. The day theme's colours. Needs Pillow (installed with Kivy on the desktop)."""
    _require_finished(record)
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise ExportError(_("the picture needs Pillow (pip install pillow)")) from None
    width, height = size
    image = Image.new("RGB", size, PAPER)
    draw = ImageDraw.Draw(image)
    font, words = _fitted(draw, headline(record), width - 96, 52, bold=True, least=28)
    draw.text((48, 40), words, fill=INK, font=font)
    when = f"{spoken_date(record.started or record.last_write)}  ·  {record.rules_label}"
    font, words = _fitted(draw, when, width - 96, 26, least=18)
    draw.text((48, 112), words, fill=MUTED, font=font)
    _standings(draw, record, (48, 176, 480 if replay is not None else width - 48, height - 64))
    if replay is not None:
        _plot(draw, replay, (520, 176, width - 48, height - 64))
    draw.text((width - 48, height - 24), APP_NAME, fill=MUTED, font=_font(18), anchor="rs")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _standings(draw, record: GameRecord, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = box
    ranked = sorted(record.players, key=lambda p: -p.score)
    row = min(104, (bottom - top) // max(1, len(ranked)))
    best_score = max((p.score for p in ranked), default=1) or 1
    initial, score_font, small = _font(26, bold=True), _font(34, bold=True), _font(20)
    for place, p in enumerate(ranked):
        y = top + place * row
        _token(draw, (left + 28, y + 30), 26, p.id, initial)
        draw.text((right, y + 30), str(p.score), fill=INK, font=score_font, anchor="rm")
        name_font, name = _fitted(draw, for_picture(p.name), right - left - 160, 32, bold=p.winner)
        draw.text((left + 72, y + 30), name, fill=INK, font=name_font, anchor="lm")
        bar = (right - left - 72) * p.score / best_score  # the score as a bar in the player's colour
        draw.rounded_rectangle((left + 72, y + 56, left + 72 + max(6, bar), y + 64), radius=4, fill=colour_of(p.id))
        best = max((s for s in p.by_source if s != "other"), key=lambda s: p.by_source[s])
        draw.text((left + 72, y + 70), _(SOURCE_PHRASES[best]).format(points=p.by_source[best]), fill=MUTED, font=small)


def _plot(draw, replay: Replay, box: tuple[int, int, int, int]) -> None:
    """The scores over the game: companion.history.score_plot's data, as the screens draw it."""
    from companion.history.score_plot import score_plot

    data = score_plot(replay)
    draw.rounded_rectangle(box, radius=14, fill=CARD, outline=GRID, width=2)
    left, top, right, bottom = box[0] + 64, box[1] + 24, box[2] - 48, box[3] - 48
    font, initial = _font(20), _font(18, bold=True)
    x = lambda share: left + (right - left) * share
    y = lambda score: bottom - (bottom - top) * score / data.top
    for band in data.scorings:  # each scoring's band, the general ones darker
        shade = 0.45 if band.general else 0.22
        fill = tuple(round(c + (g - c) * shade) for c, g in zip(CARD, GRID))
        draw.rectangle((x(band.start), top, max(x(band.start) + 2, x(band.end)), bottom), fill=fill)
    for score in sorted({0, data.top // 2, data.top}):
        draw.line((left, y(score), right, y(score)), fill=GRID, width=1)
        draw.text((left - 10, y(score)), str(score), fill=MUTED, font=font, anchor="rm")
    for span in data.rounds:
        if x(span.end) - x(span.start) >= 14:
            draw.text(
                ((x(span.start) + x(span.end)) / 2, bottom + 10), str(span.round), fill=MUTED, font=font, anchor="mt"
            )
    # Translators: the score plot's x axis, under the round numbers
    draw.text((left, bottom + 10), _("round"), fill=MUTED, font=font, anchor="rt")
    for player, corners in data.lines.items():
        draw.line([(x(a), y(s)) for a, s in corners], fill=colour_of(player), width=5, joint="curve")
    ends = sorted(((y(corners[-1][1]), player) for player, corners in data.lines.items()), reverse=True)
    last = None
    for end, player in ends:  # the line ends, lowest first, kept apart
        end = min(end, last - 30) if last is not None else end
        _token(draw, (right + 22, end), 14, player, initial)
        last = end


def write(path: Path, data: str | bytes) -> None:
    """Write an export; ExportError (one line) when the folder or file cannot be written."""
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as exc:
        raise ExportError(_("{path}: cannot write ({reason})").format(path=path, reason=exc.strerror or exc)) from None


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
    suffix = KINDS[kind][0]
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
        raise ExportError(
            _("{folder}: cannot make the folder ({reason})").format(folder=folder, reason=exc.strerror or exc)
        ) from None
    path = folder / name
    write(path, data)
    return path
