"""The code's shape, held by the suite (issue 32): what ruff, ruff format and mypy say, and the
limits that keep every module readable in one sitting.

- `ruff check` and `ruff format --check` on every Python file of the project (the rules are in
  pyproject.toml's [tool.ruff]; every `# noqa` must name a rule it silences: RUF100 and PGH004);
- `mypy` with pyproject.toml's [tool.mypy] (the engine, at the strictness named there);
- no product module over 600 lines, no product class over 50 methods, at most 8 modules at
  companion/'s top: a module or class past these does several things, and a newcomer reading it
  cannot tell which (docs/architecture.md says where each thing lives).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("engine", "companion", "firmware_bridge", "hardware")
EVERYTHING = (*PRODUCT, "tests", "bench", "scripts", "main.py")
MOST_LINES = 600
MOST_METHODS = 50
MOST_TOP_MODULES = 8


def _tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing_to_change():
    run = _tool("ruff", "check", "--no-cache", "--output-format", "concise", *EVERYTHING)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_every_file_is_laid_out_as_ruff_format_lays_it_out():
    run = _tool("ruff", "format", "--no-cache", "--check", *EVERYTHING)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_mypy_finds_no_type_error_in_what_the_config_names():
    run = _tool("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def _product_files() -> list[Path]:
    return [p for package in PRODUCT for p in sorted((ROOT / package).rglob("*.py"))]


def long_modules(paths: list[Path]) -> dict[str, int]:
    return {
        p.name if not p.is_relative_to(ROOT) else str(p.relative_to(ROOT)): n
        for p in paths
        if (n := p.read_text().count("\n")) > MOST_LINES
    }


def big_classes(paths: list[Path]) -> dict[str, int]:
    big = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) for b in node.body)
                if methods > MOST_METHODS:
                    big[f"{path.name}:{node.name}"] = methods
    return big


def test_no_product_module_is_over_600_lines():
    long = long_modules(_product_files())
    assert not long, f"modules over {MOST_LINES} lines (split them by concern): {long}"


def test_no_product_class_has_over_50_methods():
    big = big_classes(_product_files())
    assert not big, f"classes over {MOST_METHODS} methods (give their parts a home): {big}"


def test_the_companions_top_holds_at_most_8_modules():
    top = sorted(p.name for p in (ROOT / "companion").glob("*.py"))
    assert len(top) <= MOST_TOP_MODULES, top


def test_the_limits_are_found_when_broken(tmp_path):
    """The checks above read what they claim: a long module and a big class are caught, and a
    module at the limit and a class at the limit pass."""
    at_limit, over = tmp_path / "at_limit.py", tmp_path / "over.py"
    at_limit.write_text("x = 1\n" * MOST_LINES)
    over.write_text("class Big:\n" + "".join(f"    def m{i}(self): ...\n" for i in range(MOST_LINES)))
    assert long_modules([at_limit, over]) == {"over.py": MOST_LINES + 1}
    assert big_classes([at_limit, over]) == {"over.py:Big": MOST_LINES}
