"""Hostile names through every sink (issue 31): how many come out unescaped. Goal 0.

    .venv/bin/python bench/bench_hostile_names.py [--json] [--no-app]

The names (tests/companion/hostile_names.py): Kivy markup (`[size=200]Ana`, `[/b]`, `&bl;`),
control characters (ESC, BEL, CR, NUL, DEL, C1's CSI), RTL marks and isolates (U+202E, U+2067),
formulas (`=HYPERLINK(...)`, `+1`, `-1`, `@SUM`, after spaces, full-width), HTML, a lone
surrogate and 10,000 characters. Each sink counts a result as unescaped when:

- terminal, picture, file name: a character a terminal acts on is left in it;
- JSON printed: the same, or it does not parse back to the same names;
- markup: a `[` or `]` is left, an `&` that is not one of Kivy's escapes, or a control character;
- CSV: the cell, read back by the csv module, would start a formula (after spaces too), or is not
  the name itself (at most marked as text with a leading `'`), or the row broke;
- elgrande games / stats (text and --json) and export (BGG CSV, BG Stats, the message), run as a
  user runs them on a games folder holding the names in real games, a FIFO and a link out of the
  folder: a line of output with such a character, a name missing, a formula cell, a name the BG
  Stats file does not give back, or a command still running after 60 s;
- the app's markup labels (unless --no-app; Xvfb): the replay's Turning points, standings and
  scoring, home, statistics, the phone check and the table's score row, drawn by Kivy
  (tests/companion/ui/markup_worker.py): a line taller than with plain names, a control character
  drawn, or the name's characters not what it shows.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.safe_text import (  # noqa: E402 (after the path is set)
    for_csv,
    for_file_name,
    for_json,
    for_markup,
    for_picture,
    for_terminal,
)
from tests.companion.hostile_names import HOSTILE_NAMES, raw_control  # noqa: E402

FORMULA = set("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
SURROGATES = range(0xD800, 0xE000)


def _written(name: str) -> str:
    """A name as a UTF-8 file holds it: a lone surrogate as its escape."""
    return "".join(f"\\u{ord(c):04x}" if ord(c) in SURROGATES else c for c in name)


def _csv_unescaped(name: str) -> bool:
    out = io.StringIO()
    csv.writer(out).writerow([for_csv(name), "next"])
    rows = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    if len(rows) != 1 or rows[0][1] != "next":
        return True
    cell = rows[0][0]
    return cell.lstrip(" \u00a0")[:1] in FORMULA or cell not in (_written(name), "'" + _written(name))


def _markup_unescaped(text: str) -> bool:
    escapes = text.count("&amp;") + text.count("&bl;") + text.count("&br;")
    return "[" in text or "]" in text or text.count("&") != escapes or bool(raw_control(text))


def functions(names: list[str]) -> dict[str, int]:
    """Each sink's function over every name: the count of unescaped results."""
    counts = {"terminal": 0, "json printed": 0, "markup": 0, "csv": 0, "picture": 0, "file name": 0}
    for name in names:
        counts["terminal"] += bool(raw_control(for_terminal(name)))
        printed = for_json(json.dumps({"name": name}, ensure_ascii=False))
        counts["json printed"] += bool(raw_control(printed)) or json.loads(printed) != {"name": name}
        counts["markup"] += _markup_unescaped(for_markup(name))
        counts["csv"] += _csv_unescaped(name)
        counts["picture"] += bool(raw_control(for_picture(name)))
        try:
            file_name = for_file_name(f"/games/game-{name[:200]}.jsonl".replace("/", "", 2))
        except ValueError:  # a NUL cannot be in a file name at all
            file_name = ""
        counts["file name"] += bool(raw_control(file_name))
    return counts


def groups(names: list[str], size: int = 4) -> list[list[str]]:
    return [
        names[i : i + size] + ["Ana", "Ben", "Cai"][: max(0, 2 - len(names[i : i + size]))]
        for i in range(0, len(names), size)
    ]


def _games_folder(data: Path, name_groups: list[list[str]]) -> list[Path]:
    from tests.companion.history.games_fixture import table_game

    games = data / "games"
    paths = [table_game(games, 1 + i, names).path for i, names in enumerate(name_groups)]
    os.mkfifo(games / "game-fifo.jsonl")
    outside = data / "outside.jsonl"
    shutil.copyfile(paths[0], outside)
    (games / "game-out.jsonl").symlink_to(outside)
    return paths


def _run(*args, data: Path):
    try:
        out = subprocess.run(
            [sys.executable, "-m", "companion.cli", *args],
            capture_output=True,
            timeout=60,
            cwd=ROOT,
            env={**os.environ, "ELGRANDE_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)},
        )
    except subprocess.TimeoutExpired:
        return None
    return out.returncode, out.stdout.decode("utf-8", "replace"), out.stderr.decode("utf-8", "replace")


def commands(names: list[str], work: Path) -> dict[str, int]:
    """elgrande games, stats and export as a user runs them: the count of unescaped results."""
    data = work / "cli"
    name_groups = groups(names)
    paths = _games_folder(data, name_groups)
    counts = {}
    for command in (["games"], ["stats"]):
        result = _run(*command, data=data)
        if result is None or result[0] != 0:
            counts[" ".join(command)] = len(names)
            continue
        _, out, err = result
        bad = sum(bool(raw_control(line)) for line in (out + err).splitlines())
        missing = sum(for_terminal(n.strip() if command == ["stats"] else n) not in out for n in names)
        counts[" ".join(command)] = bad + missing
    for command in (["games", "--json"], ["stats", "--json"]):
        result = _run(*command, data=data)
        if result is None or result[0] != 0:
            counts[" ".join(command)] = len(names)
            continue
        _, out, _ = result
        listed = json.loads(out)
        got = (
            {p["name"] for g in listed for p in g["players"]} if command[0] == "games" else {s["name"] for s in listed}
        )
        want = {n if command[0] == "games" else n.strip() for n in names}
        counts[" ".join(command)] = bool(raw_control(out.rstrip("\n"))) + len(want - got)
    csv_bad = bgstats_bad = message_bad = 0
    for path, group in zip(paths, name_groups):
        target = work / f"{path.stem}.csv"
        result = _run("export", str(path), "--csv", str(target), data=data)
        if result is None or result[0] != 0:
            csv_bad += len(group)
        else:
            message_bad += bool(raw_control(result[1].rstrip("\n")))
            with open(target, newline="", encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
            cells = [r["name"] for r in rows]
            csv_bad += sum((c or "").lstrip(" \u00a0")[:1] in FORMULA for c in cells) + (len(rows) != len(group))
        target = work / f"{path.stem}.bgsplay"
        result = _run("export", str(path), "--bgstats", str(target), data=data)
        if result is None or result[0] != 0:
            bgstats_bad += len(group)
        else:
            from companion.history.export import read_bgstats

            [play] = read_bgstats(json.loads(target.read_text(encoding="utf-8")))
            bgstats_bad += len(set(group) - {n for n, _, _ in play["players"]})
    counts.update({"export --csv": csv_bad, "export --bgstats": bgstats_bad, "export message": message_bad})
    return counts


def app_labels(names: list[str], work: Path) -> dict[str, int]:
    """The app's markup labels drawn by Kivy on a virtual display, one game per four names."""
    from tests.companion.history.games_fixture import table_game
    from tests.companion.ui.xvfb import virtual_display

    shown_all = {"turning", "home", "stats"}  # labels that show every name (standings: shortened)
    counts: dict[str, int] = {}
    for i, group in enumerate(groups(names)):
        folder = work / f"app-{i}"
        plain = [f"Pla{k}" for k in range(len(group))]
        games = {
            kind: {"file": table_game(folder, 1, n).path.name, "names": n}
            for kind, n in (("plain", plain), ("hostile", group))
        }
        (folder / "names.json").write_text(json.dumps(games))
        result = folder / "drawn.json"
        with virtual_display(1280, 800) as display:
            env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT), "ELGRANDE_DATA_DIR": str(folder / "d")}
            env.pop("XAUTHORITY", None)
            subprocess.run(
                [sys.executable, str(ROOT / "tests/companion/ui/markup_worker.py"), str(folder), str(result)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                timeout=300,
            )
        drawn = json.loads(result.read_text()) if result.exists() else None
        for label in ("turning", "standings", "scoring", "home", "stats", "phone_check", "name_cell"):
            key = f"app: {label}"
            if drawn is None:
                counts[key] = counts.get(key, 0) + len(group)
                continue
            hostile, plain_drawn = drawn["hostile"][label], drawn["plain"][label]
            flat = hostile["text"].replace("\n", "").replace(" ", "")
            expected = group if label in shown_all else group[:1] if label in ("phone_check", "name_cell") else []
            # a tag taking effect makes a line far taller; accents and other scripts a pixel or two
            bad = hostile["tallest_line"] > 1.5 * plain_drawn["tallest_line"] or bool(
                raw_control(hostile["text"].replace("\n", ""))
            )
            shown = [n.strip() if label == "stats" else n for n in expected]  # statistics go by the name trimmed
            missing = sum(for_terminal(n).replace(" ", "") not in flat for n in shown)
            counts[key] = counts.get(key, 0) + bad + missing
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-app", action="store_true", help="leave out the app's labels (needs Xvfb)")
    args = parser.parse_args()
    names = HOSTILE_NAMES
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        counts = {**functions(names), **commands(names, work)}
        if not args.no_app:
            counts.update(app_labels(names, work))
    total = sum(counts.values())
    if args.json:
        print(json.dumps({"names": len(names), "sinks": counts, "unescaped": total}))
    else:
        print(f"Hostile names: {len(names)} through {len(counts)} sinks")
        for sink, count in counts.items():
            print(f"  {sink:<22} unescaped {count}")
        print(f"Unescaped results: {total} (goal 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
