"""A full disk at a game night: acknowledged records lost, resumes, the messages the table read.

For each amount of free space (4, 12 and 40 KB) and each source of input (the tablet; the phones'
secret discs, sent through `Table.submit(event, player=...)`, the call the phone server makes),
a 5-player 9-round game is played on a real tmpfs of 512 KB that a filler file has filled up to
that much free space. At the first refusals the filler is removed (space returns), the game is
played to its end without a restart, then the log is opened again as the next start would.

    sudo .venv/bin/python bench/bench_full_disk.py        (as root: it mounts a tmpfs; about 10 s)

Figures: acknowledged records lost (goal 0), games that resume (goal all), and each distinct
refusal message (goal: one line naming the storage, no path).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.input_errors import InputError
from companion.scripted import fingerprint, scripted_setup, step
from companion.table.authority import Table
from engine.playout import random_event

SEEDS = range(3)


def _one_input(table: Table, seed: int, phones: bool) -> tuple[str, str]:
    """("kept" | "refused" | "refused-phone" | "over", the refusal's words)."""
    ask = table.asked()
    phone = phones and ask.kind == "secret_disc" and bool(ask.players)
    try:
        if phone:
            event = random_event(random.Random(f"{seed}:{len(table.records)}"), ask)
            table.submit(event, player=event.player)
            return "kept", ""
        return ("kept" if step(table, seed) else "over"), ""
    except (InputError, AssertionError) as exc:  # the script wraps a refused move in an AssertionError
        words = str(exc)
        return ("refused-phone" if phone else "refused"), words[
            words.find("The tablet") :
        ] if "The tablet" in words else words


def run(root: Path, free_kb: int, phones: bool, seed: int) -> dict:
    os.environ["ELGRANDE_DATA_DIR"] = str(root / f"data-{free_kb}-{phones}-{seed}")
    table = Table.new(scripted_setup("tracking", "full", 5))
    filler = root / "filler"
    for _ in range(3):
        _one_input(table, seed, phones)
    st = os.statvfs(root)
    filler.write_bytes(b"\0" * max(0, st.f_bavail * st.f_frsize - free_kb * 1024))
    refused, by_phone, messages = 0, 0, set()
    for _ in range(20_000):
        outcome, message = _one_input(table, seed, phones)
        if outcome.startswith("refused"):
            refused += 1
            by_phone += outcome == "refused-phone"
            messages.add(message)
            if refused == 3:
                filler.unlink()  # space returns
            elif refused > 3:
                messages.add(f"refused after space returned: {message}")
        if outcome == "over":
            break
    else:
        messages.add(f"the game did not end ({table.asked().kind}): {message}")
    acknowledged = list(table.records)
    expected = fingerprint(table)
    table.close()
    filler.unlink(missing_ok=True)
    try:
        resumed = Table.resume(table.path)
        lost = len(acknowledged) - sum(1 for a, b in zip(acknowledged, resumed.records) if a == b)
        ok = fingerprint(resumed) == expected and not resumed.warnings
        resumed.close()
    except Exception as exc:
        lost, ok, messages = len(acknowledged), False, messages | {f"resume failed: {exc}"}
    shutil.rmtree(os.environ["ELGRANDE_DATA_DIR"])  # the next game gets the whole disk again
    return {"refused": refused, "by_phone": by_phone, "lost": lost, "resumed": ok, "messages": messages}


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="full-disk-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(root)], check=True)
    try:
        print(f"{'free':>6} {'inputs':>7} {'games':>5} {'refusals':>8} {'of picks':>8} {'lost':>4} {'resumed':>7}")
        every_message = set()
        for free_kb in (4, 12, 40):
            for phones in (False, True):
                results = [run(root, free_kb, phones, seed) for seed in SEEDS]
                every_message |= set().union(*(r["messages"] for r in results))
                print(
                    f"{free_kb:>4}KB {'phones' if phones else 'tablet':>7} {len(results):>5} "
                    f"{sum(r['refused'] for r in results):>8} {sum(r['by_phone'] for r in results):>8} "
                    f"{sum(r['lost'] for r in results):>4} "
                    f"{sum(r['resumed'] for r in results):>5}/{len(results)}"
                )
        print("messages:", *sorted(every_message), sep="\n  ")
    finally:
        subprocess.run(["umount", "-l", str(root)], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
