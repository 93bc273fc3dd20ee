"""Which source files feed which catalogue domain. One domain per part of the app, so a part's
words are translated and checked on their own; at run time every domain is merged into one."""

from __future__ import annotations

# domain -> the source folders or files (relative to the repository root) whose words it holds.
# A file belongs to the first domain that names it or a folder holding it.
DOMAINS: dict[str, tuple[str, ...]] = {
    "names": (),  # the printed names and card texts, from engine/data (companion/words/names.py)
    "refusals": ("engine",),
    "plays": ("companion/plays",),  # BG Stats, backup and restore
    "screens": ("companion/ui/screens",),
    # before "tablet": its colour words are the prompts' (companion/words/colours.py)
    "prompts": (
        "companion/prompts",
        "companion/table",
        "companion/table_rules",
        "companion/entry",
        "companion/tower",
        "companion/words/colours.py",
    ),
    "tablet": ("companion/ui", "companion/look", "companion/words"),
    "phones": ("companion/phones", "companion/web"),
    "club": ("companion/club",),
    "history": ("companion/history", "companion/storage", "companion", "firmware_bridge/cli.py"),
}
# Not the table's words: logs and exchange formats (their formats set them), the firmware.
SOURCE_SUFFIXES = (".py", ".kv", ".html", ".js")
