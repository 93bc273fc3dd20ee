"""The table process of the crash drill: resume the game in DATA_DIR (or start
it), then play the scripted game, printing the record count after each input.
test_crash_safety.py kills it with SIGKILL and starts it again."""
import os
import sys
from pathlib import Path

from companion.scripted import scripted_setup, step
from companion.store import last_unfinished, saved_games
from companion.table import Table


def main(data_dir: str, seed: int, mode: str) -> int:
    os.environ["ELGRANDE_DATA_DIR"] = data_dir
    saved = last_unfinished()
    if saved is not None:
        table = Table.resume(saved.path)
    elif saved_games():
        print("finished", flush=True)
        return 0
    else:
        table = Table.new(scripted_setup(mode, "short", 4), nonce=f"drill{seed}")
    print(f"start {len(table.records)}", flush=True)
    while step(table, seed):
        print(len(table.records), flush=True)
    print("finished", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
