"""Power colours, and the colour-vision-deficiency simulation the tests check them with.

The nine power colours are Paul Tol's "muted" qualitative scheme, published as distinct for
colour-blind readers (Tol, *Colour schemes*, SRON technical note, 2021).  ``cvd_distances`` lets the
tests verify that claim: it simulates protanopia, deuteranopia and tritanopia (Machado, Oliveira &
Fernandes 2009, severity 1.0) and measures CIE76 colour differences in CIELAB.
"""

from __future__ import annotations

import itertools

# Tol "muted", ordered so that the standard board's seven powers get well-separated colours first.
POWER_COLOURS = (
    "#332288",  # indigo
    "#88CCEE",  # cyan
    "#117733",  # green
    "#DDCC77",  # sand
    "#CC6677",  # rose
    "#AA4499",  # purple
    "#44AA99",  # teal
    "#882255",  # wine
    "#999933",  # olive
)

# Conventional colour slots for the classic powers (England blue, France light blue, Italy green...).
CLASSIC = {
    "england": 0, "france": 1, "italy": 2, "turkey": 3, "austria": 4, "russia": 5, "germany": 8,
}

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def power_colours(power_ids: list[str]) -> dict[str, str]:
    """A colour for each power: the classic slot where it has one, else the next free colour."""
    if len(power_ids) > len(POWER_COLOURS):
        raise ValueError(f"{len(power_ids)} powers but only {len(POWER_COLOURS)} colours")
    out: dict[str, str] = {}
    used: set[int] = set()
    for pid in power_ids:
        slot = CLASSIC.get(pid)
        if slot is not None and slot not in used:
            out[pid] = POWER_COLOURS[slot]
            used.add(slot)
    free = [i for i in range(len(POWER_COLOURS)) if i not in used]
    for pid in power_ids:
        if pid not in out:
            out[pid] = POWER_COLOURS[free.pop(0)]
    return out


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def hex_rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def simulate(colour: str, kind: str) -> tuple[float, float, float]:
    """sRGB (0..1) as seen with the given colour-vision deficiency."""
    lin = [_linear(c) for c in hex_rgb(colour)]
    m = MACHADO[kind]
    return tuple(_gamma(sum(m[r][k] * lin[k] for k in range(3))) for r in range(3))  # type: ignore[return-value]


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = lab(a), lab(b)
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)


#: the casing drawn under every order line and around every arrowhead on the page (adjutant.pictures.drawing.STYLE,
#: ``.adj-casing``): the lighter power colours alone are too faint over the map's land and sea
ARROW_CASING = "#1b1b1b"


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    r, g, b = (_linear(c) for c in hex_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio (1 to 21); 3 is the minimum for graphics such as arrows."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def cvd_distances(colours: list[str]) -> dict[str, float]:
    """The smallest CIE76 difference between any two colours, for normal vision and each deficiency."""
    out = {"normal": min(delta_e(hex_rgb(a), hex_rgb(b)) for a, b in itertools.combinations(colours, 2))}
    for kind in MACHADO:
        out[kind] = min(
            delta_e(simulate(a, kind), simulate(b, kind)) for a, b in itertools.combinations(colours, 2)
        )
    return out
