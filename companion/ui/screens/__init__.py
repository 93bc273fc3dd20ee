"""The tablet's screens: one .py and one .kv each (the list is companion/ui/screens/registry.py)."""
