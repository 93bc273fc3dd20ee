"""The catalogues' upkeep: python scripts/words.py extract | update | compile | check
(companion/words/tool.py says what each does)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.words import tool


def main(command: str, only: str | None = None) -> int:
    if command == "extract":
        templates = tool.write_templates()
        print(
            ", ".join(f"{d}: {len(t)}" for d, t in templates.items()),
            f"(total {sum(len(t) for t in templates.values())})",
        )
    elif command == "update":
        tool.update_catalogues(only)
    elif command == "compile":
        print(f"words: {tool.compile_catalogues()} catalogues compiled")
    elif command == "check":
        bad = 0
        for r in tool.report_all(only):
            print(
                f"{r.code}: {r.translated} translated, {len(r.untranslated)} untranslated, {len(r.fuzzy)} fuzzy, "
                f"{len(r.missing)} missing, {len(r.wrong_placeholders)} with other placeholders"
            )
            for name in (r.missing + r.untranslated + r.fuzzy + r.wrong_placeholders)[:20]:
                print("   ", name)
            bad += len(r.untranslated) + len(r.fuzzy) + len(r.missing) + len(r.wrong_placeholders)
        return 1 if bad else 0
    else:
        print("usage: python scripts/words.py extract | update [DOMAIN] | compile | check [DOMAIN]")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(*(sys.argv[1:3] or [""])))
