"""Exact points: whole numbers and halves, never binary floats."""

from __future__ import annotations

from fractions import Fraction

Points = Fraction

ZERO = Fraction(0)


def pts(value: int | Fraction) -> Fraction:
    """Points from an int or a fraction."""
    return Fraction(value)


def fmt(value: Fraction, *, signed: bool = False, half: str = ".5") -> str:
    """Points as text: `2.5` (or `2½` with half="½"), `-3`, `+4` when signed."""
    sign = "-" if value < 0 else ("+" if signed and value > 0 else "")
    whole, rest = divmod(abs(value), 1)
    if rest == 0:
        return f"{sign}{whole}"
    if rest == Fraction(1, 2):
        if half == "½":
            return f"{sign}{whole}½" if whole else f"{sign}½"
        return f"{sign}{whole}{half}"
    return f"{sign}{float(abs(value)):g}"


def to_json(value: Fraction) -> int | float:
    """Points for JSON: an int when whole, otherwise a float (exact for halves)."""
    if value.denominator == 1:
        return int(value)
    return float(value)
