"""Every engine module imports first, alone, in a fresh interpreter: an import cycle that works
only in the usual order (flow first) broke `elgrande score --cards` once, and a plugin or a tool
that imports one rule module directly must not meet it half made."""
from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _modules() -> list[str]:
    names = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _import_alone(module: str) -> tuple[str, str]:
    run = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    return module, run.stderr.strip().splitlines()[-1] if run.returncode else ""


def test_every_engine_module_imports_first_in_a_fresh_interpreter():
    modules = _modules()
    assert len(modules) > 40 and "engine.rules.power_shift" in modules
    with ThreadPoolExecutor(4) as pool:
        failed = {m: err for m, err in pool.map(_import_alone, modules) if err}
    assert not failed, failed
