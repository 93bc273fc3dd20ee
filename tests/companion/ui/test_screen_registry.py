"""The screens are registered in one place (companion/ui/screens/registry.py) and every one of
them gets the layout checks: each Screen class of companion/ui/screens/ has its line in the
registry, and the screen catalogue (catalogue_scenarios.py, launched by test_app.py and
test_screen_catalogue*.py) shows every registered screen. The catalogue's launches call
`check_every_registered_screen_visited` on their outcome; the rest here needs no window."""

from __future__ import annotations

import ast
from pathlib import Path

SCREENS_DIR = Path(__file__).resolve().parents[3] / "companion" / "ui" / "screens"
REGISTRY = SCREENS_DIR / "registry.py"


def registered() -> dict[str, str]:
    """The registry's name -> class name, read from its source (no Kivy window needed)."""
    tree = ast.parse(REGISTRY.read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "SCREENS":
            assert isinstance(node.value, ast.Dict)
            return {ast.literal_eval(k): v.id for k, v in zip(node.value.keys, node.value.values)}
    raise AssertionError("registry.py has no SCREENS")


def screen_classes() -> set[str]:
    """Every class of companion/ui/screens/*.py whose base is Kivy's Screen."""
    found = set()
    for path in SCREENS_DIR.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", None) == "Screen" for b in node.bases):
                found.add(node.name)
    return found


def check_every_registered_screen_visited(outcome: dict) -> None:
    """A catalogue launch's outcome shows every registered screen, and no other."""
    assert set(outcome["screen_names"]) == set(registered()), (outcome["screen_names"], sorted(registered()))


def test_every_screen_class_is_registered_once():
    names = registered()
    assert sorted(names.values()) == sorted(screen_classes())
    assert len(set(names.values())) == len(names)


def test_the_app_builds_its_screens_from_the_registry_only():
    app = (SCREENS_DIR.parent / "app.py").read_text()
    assert "SCREENS.items()" in app
    for cls in registered().values():
        assert cls not in app, f"app.py names {cls}: the registry is the one list"


def test_the_home_screen_comes_first():  # the ScreenManager shows its first screen at launch
    assert next(iter(registered())) == "home"
