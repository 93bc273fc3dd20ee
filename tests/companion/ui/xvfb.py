"""The virtual display the app tests run on.

16 bits a pixel, not 24: Mesa's llvmpipe draws the same frames (same layout, same widgets, same
touches) with about 40 % less CPU there (a whole classic game by taps: 31 s -> 21 s on this
machine), and the app tests are most of the suite's time. Colours are 5-6-5 in the screenshots; no
test compares exact colours. The benchmarks (bench/) keep 24 bits, like their published figures."""
XVFB_DEPTH = 16
