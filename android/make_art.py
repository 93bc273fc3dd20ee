"""Draws the app's icon and presplash: the Castillo, El Grande's tower, in the game's
colours on the tablet app's paper (run: .venv/bin/python android/make_art.py; writes
android/icon.png 512x512 and android/presplash.png 1024x1024). Pillow only."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).parent
PAPER = (247, 240, 219)
STONE, STONE_DARK, STONE_EDGE = (196, 150, 92), (150, 104, 58), (92, 60, 30)
ROOF = (158, 51, 31)  # the app's primary button colour
CUBES = [(200, 40, 40), (250, 200, 40), (40, 140, 60), (40, 80, 190), (30, 30, 30)]  # the five colours


def castillo(draw: ImageDraw.ImageDraw, cx: float, base: float, w: float, h: float) -> None:
    """The tower: a tapering body with crenellations, a gate, a slit window and a pennant."""
    s = w / 100
    top = base - h
    body = [(cx - 40 * s, base), (cx + 40 * s, base), (cx + 32 * s, top + 22 * s), (cx - 32 * s, top + 22 * s)]
    draw.polygon(body, fill=STONE)
    draw.polygon([(cx, base), (cx + 40 * s, base), (cx + 32 * s, top + 22 * s), (cx, top + 22 * s)], fill=STONE_DARK)
    draw.polygon(body, outline=STONE_EDGE, width=max(2, int(3 * s)))
    for i in range(-2, 3):  # the battlement and its merlons
        x = cx + i * 14 * s
        draw.rectangle(
            [x - 5 * s, top + 8 * s, x + 5 * s, top + 22 * s], fill=STONE, outline=STONE_EDGE, width=max(1, int(2 * s))
        )
    draw.rectangle(
        [cx - 38 * s, top + 20 * s, cx + 38 * s, top + 27 * s],
        fill=STONE_DARK,
        outline=STONE_EDGE,
        width=max(1, int(2 * s)),
    )
    for row in range(1, 5):  # courses of stone
        y = top + 27 * s + row * (h - 27 * s) / 5
        half = 32 * s + 8 * s * (y - (top + 22 * s)) / (base - (top + 22 * s)) - 2 * s  # inside the walls
        draw.line([(cx - half, y), (cx + half, y)], fill=STONE_EDGE, width=max(1, int(1.5 * s)))
    draw.chord([cx - 14 * s, base - 40 * s, cx + 14 * s, base - 12 * s], 180, 360, fill=STONE_EDGE)  # the gate
    draw.rectangle([cx - 14 * s, base - 26 * s, cx + 14 * s, base], fill=STONE_EDGE)
    draw.rectangle([cx - 3 * s, top + 40 * s, cx + 3 * s, top + 58 * s], fill=STONE_EDGE)  # a slit
    draw.line([(cx, top + 8 * s), (cx, top - 18 * s)], fill=STONE_EDGE, width=max(2, int(2.5 * s)))  # the pennant
    draw.polygon([(cx, top - 18 * s), (cx + 22 * s, top - 12 * s), (cx, top - 6 * s)], fill=ROOF)


def cubes(draw: ImageDraw.ImageDraw, cx: float, y: float, size: float) -> None:
    """The Caballeros thrown into the tower: a cube of each colour."""
    gap = size * 1.35
    for i, colour in enumerate(CUBES):
        x = cx + (i - 2) * gap
        draw.rounded_rectangle(
            [x - size / 2, y - size / 2, x + size / 2, y + size / 2],
            radius=size * 0.15,
            fill=colour,
            outline=STONE_EDGE,
            width=max(1, int(size / 14)),
        )


def icon(size: int = 512) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, size - 1, size - 1], radius=size * 0.18, fill=PAPER)
    castillo(draw, size / 2, size * 0.80, size * 0.62, size * 0.62)
    cubes(draw, size / 2, size * 0.89, size * 0.075)
    return image


def presplash(size: int = 1024) -> Image.Image:
    image = Image.new("RGB", (size, size), PAPER)
    draw = ImageDraw.Draw(image)
    castillo(draw, size / 2, size * 0.74, size * 0.40, size * 0.46)
    cubes(draw, size / 2, size * 0.82, size * 0.05)
    draw.text((size / 2, size * 0.90), "El Grande Companion", fill=STONE_EDGE, anchor="mm", font_size=int(size * 0.055))
    return image


def main() -> None:
    icon().save(HERE / "icon.png")
    presplash().save(HERE / "presplash.png")


if __name__ == "__main__":
    main()
