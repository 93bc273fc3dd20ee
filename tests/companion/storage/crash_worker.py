"""The table process of the crash drill: resume the game in DATA_DIR (or start
it), then play the scripted game, printing the record count after each input.
test_crash_safety.py kills it with SIGKILL and starts it again.

    python -m tests.companion.storage.crash_worker DATA_DIR SEED MODE          one run
    python -m tests.companion.storage.crash_worker --forks DATA_DIR SEED MODE  a run per line on stdin

With --forks the imports are paid once: each line read ("run LIMIT") forks a fresh process for
one run (its output: "pid N", then the run's lines) that plays until LIMIT records at most and
then holds, so a kill sent a moment late still lands before the game ends; once that process has
ended however it ended, prints "ended STATUS". Each run is still its own process, killed with
SIGKILL by the test.
"""

import os
import sys
import time
import traceback

from companion.scripted import scripted_setup, step
from companion.storage.games_folder import last_unfinished, saved_games
from companion.table.authority import Table


def main(data_dir: str, seed: int, mode: str, limit: int | None = None) -> int:
    os.environ["ELGRANDE_DATA_DIR"] = data_dir
    saved = last_unfinished()
    if saved is not None:
        table = Table.resume(saved.path)
    elif saved_games():
        print("finished", flush=True)
        return 0
    else:
        table = Table.new(scripted_setup(mode, "short", 4), nonce=f"drill{seed}", started=1_700_000_000)
    print(f"start {len(table.records)}", flush=True)
    while (limit is None or len(table.records) < limit) and step(table, seed):
        print(len(table.records), flush=True)
    if limit is not None and len(table.records) >= limit:
        print("holding", flush=True)  # never past the limit: the kill lands before the game can end
        time.sleep(600)
        return 1
    print("finished", flush=True)
    return 0


def forks(data_dir: str, seed: int, mode: str) -> int:
    for line in sys.stdin:
        limit = int(line.split()[1])
        pid = os.fork()
        if pid == 0:  # the run: it must end here whatever happens, never go on reading the runs
            code = 70
            try:
                print(f"pid {os.getpid()}", flush=True)
                code = main(data_dir, seed, mode, limit)
            except BaseException:
                traceback.print_exc()
                sys.stdout.flush()
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        print(f"ended {status}", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--forks":
        sys.exit(forks(sys.argv[2], int(sys.argv[3]), sys.argv[4]))
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
