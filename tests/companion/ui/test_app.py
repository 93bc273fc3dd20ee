"""The real app under Xvfb, driven by synthetic touches (app_driver.py), and the harness every
app test uses: _launch (a display of its own, its own data folder, any free phone port), _drive
(one scenario), Launch (several scenarios one after another in one app, run once per test run).

The launches at 1280x800 read by this module and its neighbours: the classic table (a whole short
game in scoring-only mode, a full round in tracking mode, phones in Chromium, the screen
catalogue), the game night, the rule systems; `elgrande app`'s usage mistakes."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from tests.companion.ui.xvfb import virtual_display

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
SHOTS_ENV = "ELGRANDE_SHOTS"  # keep the screenshots there (docs, a look by a person)
LAUNCH_SECONDS = 600  # one launch's deadline (several scenarios, a loaded machine); a hang fails, saying so


@pytest.fixture(autouse=True)
def _needs_xvfb():
    # Fails, never skips: scripts/setup.sh installs xvfb, and these tests are the app's proof.
    assert shutil.which("Xvfb"), "Xvfb missing: run scripts/setup.sh as root (it installs xvfb)"


def _looks_like_a_screen(path: Path, size: tuple[int, int] = (1280, 800)) -> None:
    image = Image.open(path).convert("RGB")
    assert image.size == size, f"{path.name}: {image.size}"
    spread = ImageStat.Stat(image).stddev
    assert max(spread) > 8, f"{path.name} is (nearly) one flat colour"


def _launch(
    argv: list, data: Path, window: str = "1280x800", env: dict | None = None, timeout: float = LAUNCH_SECONDS
) -> subprocess.CompletedProcess:
    """Runs argv (the app, or a driver of it) on a display of its own (xvfb.virtual_display) with
    its own data folder and any free phone port: two launches at once share nothing."""
    width, height = (int(x) for x in window.split("x"))
    with virtual_display(width, height) as display:
        env = {
            **os.environ,
            "DISPLAY": display,
            "ELGRANDE_DATA_DIR": str(data),
            "PYTHONPATH": str(ROOT),
            "ELGRANDE_WINDOW": window,
            "ELGRANDE_PHONE_PORT": "0",
            **(env or {}),
        }
        env.pop("XAUTHORITY", None)
        try:
            return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as late:
            said = late.stderr.decode(errors="replace") if isinstance(late.stderr, bytes) else late.stderr or ""
            raise AssertionError(
                f"{argv[1:3]} still running after {timeout} s; its last words:\n{said[-4000:]}"
            ) from None


def _shots(name: str, tmp_path: Path) -> Path:
    shots = Path(os.environ.get(SHOTS_ENV, tmp_path / "shots")) / name
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _drive(scenario: str, tmp_path: Path, window: str = "1280x800", env: dict | None = None) -> tuple[dict, Path]:
    """Runs a scenario in the real app under Xvfb, in a window (and screen) of that shape."""
    shots = _shots(scenario if window == "1280x800" else f"{scenario}_{window}", tmp_path)
    result = tmp_path / "result.json"
    run = _launch(
        [sys.executable, str(HERE / "app_driver.py"), scenario, str(shots), str(result)], tmp_path / "data", window, env
    )
    assert result.exists(), f"the app did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    outcome = json.loads(result.read_text())
    assert outcome["status"] == "ok", outcome.get("trace") or outcome
    assert run.returncode == 0, run.stderr[-2000:]
    return outcome, shots


class Launch:
    """Several scenarios run one after another in one app (app_driver.run "a,b,c"): each one's
    outcome and screenshots; a test asserts on its scenario's (`of`)."""

    def __init__(
        self, name: str, scenarios: list[str], tmp_path: Path, window: str = "1280x800", env: dict | None = None
    ):
        self.scenarios, self.data = scenarios, tmp_path / "data"
        self.shots = _shots(name, tmp_path)
        result = tmp_path / "result.json"
        run = _launch(
            [sys.executable, str(HERE / "app_driver.py"), ",".join(scenarios), str(self.shots), str(result)],
            self.data,
            window,
            env,
        )
        self.outcome = json.loads(result.read_text()) if result.exists() else None
        if self.outcome is not None and len(scenarios) == 1:  # one scenario: app_driver writes its outcome
            self.outcome = {"scenarios": {scenarios[0]: self.outcome}}
        self.stdout, self.stderr, self.returncode = run.stdout[-3000:], run.stderr[-6000:], run.returncode
        at = run.stderr.find("Traceback")  # anywhere in what the app said, not only its last words
        self.traceback = run.stderr[at : at + 4000] if at >= 0 else ""

    def of(self, scenario: str) -> tuple[dict, Path]:
        """That scenario's facts (it passed) and its screenshots folder."""
        assert self.outcome is not None, f"the app did not finish:\n{self.stdout[-2000:]}\n{self.stderr[-4000:]}"
        runner = self.outcome["scenarios"].get("runner")
        assert runner is None, runner.get("trace") or runner
        outcome = self.outcome["scenarios"].get(scenario)
        assert outcome is not None, f"{scenario} did not run (the app stopped before it): {self.stderr[-3000:]}"
        assert outcome["status"] == "ok", outcome.get("trace") or outcome
        return outcome, self.shots / scenario.replace(":", "-").replace("@", "-") if len(
            self.scenarios
        ) > 1 else self.shots

    def data_of(self, scenario: str) -> Path:
        """The data folder the scenario ran in ("spec@group": its group's)."""
        group = scenario.partition("@")[2]
        return self.data / group if group else self.data

    @classmethod
    def once(
        cls,
        tmp_path_factory,
        name: str,
        scenarios: list[str],
        window: str = "1280x800",
        env: dict | None = None,
        prepare=None,
    ) -> "Launch":
        """The launch run once for the whole test run, even when pytest-xdist hands its tests to
        different workers: the first to get here runs it (under a lock) and leaves its outcome
        in the run's shared temporary folder; the others read that. `prepare(folder)` fills the
        launch's folder first (its data folder is folder/data)."""
        import fcntl
        import pickle

        base = tmp_path_factory.getbasetemp()
        root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
        folder = root / f"launch-{name}"
        with open(root / f"launch-{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            saved = folder / "launch.pickle"
            if saved.exists():
                return pickle.loads(saved.read_bytes())
            folder.mkdir(exist_ok=True)
            if prepare is not None:
                prepare(folder)
            launch = cls(name, scenarios, folder, window, env)
            saved.write_bytes(pickle.dumps(launch))
            return launch


# ---- the classic table's launch at 1280x800 (issue 23: one app, its scenarios one after another) ----

TABLE_LAUNCH = [
    "reuse_scenarios:widgets_made_once",  # first: it counts what the app made before any game
    "scoring_only_short_game@scoring",
    "tracking_full_round@tracking",
    "phones_at_the_table@phones",
    "android_scenarios:back_pause_resume_keep_awake@android",
    "catalogue_scenarios:catalogue@catalogue",  # last: it leaves the 2023 edition chosen in its data folder
]


# The catalogue is seen in German at every shape (issue 34: the longest words); the launch's other
# scenarios stay in English (the language is chosen in Settings by the catalogue alone);
# ELGRANDE_TEST_LANG=es|fr sees it in another language
CATALOGUE_LANG = os.environ.get("ELGRANDE_TEST_LANG") or "de"
CATALOGUE_IN_GERMAN = {"ELGRANDE_CATALOGUE_LANG": CATALOGUE_LANG}


def table_launch(tmp_path_factory) -> Launch:
    """The 1280x800 launch test_app.py, test_reuse.py, test_android_manners.py and test_correction.py
    read (run once for all of them)."""
    return Launch.once(tmp_path_factory, "table_1280x800", TABLE_LAUNCH, env=CATALOGUE_IN_GERMAN)


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    return table_launch(tmp_path_factory)


def test_a_whole_short_game_in_scoring_only_mode(launch):
    outcome, shots = launch.of("scoring_only_short_game@scoring")
    assert outcome["scorings"] == 4  # a special scoring and three general scorings
    assert outcome["winners"] == [max(outcome["scores"], key=outcome["scores"].get)]
    for name in (
        "home",
        "setup",
        "table",
        "tower_panel",
        "board_entry",
        "private_pick_regions",
        "castillo_open",
        "general_summary",
        "general_region",
        "end",
    ):
        _looks_like_a_screen(shots / f"{name}.png")


def test_a_full_round_in_tracking_mode(launch):
    outcome, shots = launch.of("tracking_full_round@tracking")
    assert outcome["round"] == 2
    assert outcome["regions"]["granada"] == {"red": 1, "green": 1}
    assert outcome["regions"]["valencia"] == {"yellow": 2}
    assert outcome["castillo"] == {"red": 2, "yellow": 0, "green": 0}  # entered turns
    assert outcome["tallies"] == {"red": 2, "yellow": 0, "green": 0}  # the tower's count
    # a tap on what cannot be chosen says why: a greyed Power card, the King's region
    undo, greyed, kings_region = outcome["said_why"]
    assert undo == "there is nothing to undo", undo
    assert greyed == "Power card 13 was played by Red this round (each value once a round)", greyed
    assert kings_region.startswith("Cannot place Caballeros in Castilla la Nueva: it is the King's region"), (
        kings_region
    )
    for name in ("tracking_reveal", "tracking_placement", "tracking_move", "tracking_round_2"):
        _looks_like_a_screen(shots / f"{name}.png")


def test_app_usage_mistakes_are_one_line(tmp_path):
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(tmp_path / "data")}
    for args, words in (
        (["--screenshot", "x.png"], "needs --exit-after"),
        (["--exit-after", "0"], "positive"),
        (["--resume", "last"], "no unfinished game"),
        (["--resume", "nope.jsonl"], "no such game log"),
    ):
        run = subprocess.run(
            [sys.executable, "-m", "companion.cli", "app", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)


def test_phones_pick_at_a_general_scoring_and_the_tablet_reveals(launch):
    """Issue 6 as a user tries it: the app running, two seats' URLs opened in Chromium,
    picks made (one changed) on the phones, two made on the tablet, then the reveal."""
    assert Path("/usr/bin/chromium").exists(), "chromium missing: run scripts/setup.sh as root (it installs it)"
    outcome, shots = launch.of("phones_at_the_table@phones")
    assert outcome["title"] == "General scoring after round 3"
    assert outcome["transfers"] == [
        {"player": "red", "count": 2, "region": "valencia", "to_court": False},
        {"player": "yellow", "count": 1, "region": "galicia", "to_court": False},
    ]
    for name in ("phones_joined", "tablet_two_phones_chosen", "phones_general_scoring"):
        _looks_like_a_screen(shots / f"{name}.png")
    assert (shots / "phone_red_revealed.png").stat().st_size > 10_000


def test_an_effect_on_everyone_tells_the_table_what_to_move_and_the_history_reopens_it(launch):
    # outcome_scenarios.decay_outcome_and_history, a visit of the screen catalogue (at every shape)
    outcome, shots = launch.of("catalogue_scenarios:catalogue@catalogue")
    assert outcome["outcomes"] == 1
    for name in ("outcome_decay", "history"):
        _looks_like_a_screen(shots / f"{name}.png")


def test_every_screen_fits_the_tablet_at_1280x800(launch):
    """The screen catalogue at 1280x800 (the other shapes: test_screen_catalogue.py)."""
    from tests.companion.ui.test_screen_catalogue import check_catalogue

    outcome, shots = launch.of("catalogue_scenarios:catalogue@catalogue")
    check_catalogue(outcome, shots, 1280, 800, lang=CATALOGUE_LANG)


# ---- the game night's launch at 1280x800: phones across two games, damaged logs, the loop's sleep ----

NIGHT_LAUNCH = [
    "perf_loop_driver:loop_figures@perf",  # first: it measures the loop of an app nothing else ran in
    "night_scenarios:phones_stay_joined_for_the_next_game@night",
    "damaged_home_driver:damaged_home@damaged",
]


def _damaged_data(folder: Path) -> None:
    """The damaged-logs figure's games folder (every kind of damage) for damaged_home, with the
    names of the game to keep aside and the one to open, and what opening that one keeps."""
    from companion.table.game_check import check_game
    from tests.companion.storage.test_damaged_logs import DAMAGE, fill_with_damaged_logs, make_reference
    from tests.companion.ui.damaged_home_driver import NAMES_FILE

    data = folder / "data" / "damaged"
    made = fill_with_damaged_logs(make_reference(folder / "reference"), data / "games")
    names = {
        "keep": made["header line 5"].name,
        "open": made["record deleted"].name,
        "open_kept": check_game(made["record deleted"]).damage.kept,
        "made": len(made),
        "kinds": len(DAMAGE),
    }
    (data / NAMES_FILE).write_text(json.dumps(names))


def night_launch(tmp_path_factory) -> Launch:
    """The launch test_game_night.py, test_damaged_home.py and test_perf_loop.py read (run once)."""
    return Launch.once(tmp_path_factory, "night_1280x800", NIGHT_LAUNCH, prepare=_damaged_data)


# ---- the rule systems' launches at 1280x800: the 2023 edition chosen, its board, cards and tower ----

RULES_LAUNCH = [
    "board_facts_scenarios:scoreboards_asked_when_first_needed@facts",
    "board_facts_scenarios:exile_asks_the_neighbours@exile",
    "rules_scenarios:first_2023_game_confirms_the_board@rules",
    "rules_scenarios:two_players_enter_the_missing_side@two_players",
    "rules_scenarios:card_set_by_taps@cards",
    "tower_colour_scenarios:calibrate_a_2023_table@tower",
]
# The app started again on the same data folders: what the first launch left is read from disk.
RULES_AGAIN_LAUNCH = [
    "rules_scenarios:next_game_remembers_the_choice@rules",  # first: a fresh app's new-game screen
    "rules_scenarios:old_hands_names_the_returned_cards@cards",
    "board_facts_scenarios:next_game_is_not_asked@facts",
]


def rules_launches(tmp_path_factory) -> tuple[Launch, Launch]:
    """The launches test_rules_setup.py, test_board_facts_app.py and test_tower_panel_colours.py read:
    the second starts the app again on the data folders the first left."""
    first = Launch.once(tmp_path_factory, "rules_1280x800", RULES_LAUNCH)

    def same_data(folder: Path) -> None:
        shutil.copytree(first.data, folder / "data")

    return first, Launch.once(tmp_path_factory, "rules_again_1280x800", RULES_AGAIN_LAUNCH, prepare=same_data)
