"""What the tablet asks next, in words and ready-made inputs, built from the engine's asks."""
