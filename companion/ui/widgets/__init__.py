"""Widgets the screens are built from: the map, panels, rows and buttons."""
