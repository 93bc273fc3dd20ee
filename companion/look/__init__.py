"""The companion's look, in one place and free of any toolkit: the type scale, the spacing, the
colour tokens of the day and evening themes (tokens.py), the player colours as shown with the
second cue each carries (players.py). The tablet (companion/ui/theme.py), the phone page and the
club board (CSS variables) and the share picture all take their looks from here."""
