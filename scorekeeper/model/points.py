"""Exact points: whole numbers and halves, never binary floats."""

from __future__ import annotations

from fractions import Fraction

Points = Fraction

ZERO = Fraction(0)

_WHOLE: dict[int, Fraction] = {}
_HALF: dict[int, Fraction] = {}
"""The fractions made so far for n from -100 to 100, each made when first asked for."""


def whole(n: int) -> Fraction:
    """`Fraction(n)`, shared for small n (building a Fraction is slow; they are immutable)."""
    value = _WHOLE.get(n)
    if value is None:
        value = Fraction(n)
        if -100 <= n <= 100:
            _WHOLE[n] = value
    return value


def half(n: int) -> Fraction:
    """`Fraction(n, 2)`, shared for small n."""
    value = _HALF.get(n)
    if value is None:
        value = Fraction(n, 2)
        if -100 <= n <= 100:
            _HALF[n] = value
    return value


def pts(value: int | Fraction) -> Fraction:
    """Points from an int or a fraction."""
    return Fraction(value)


def fmt(value: Fraction, *, signed: bool = False, half: str = ".5") -> str:
    """Points as text: `2.5` (or `2½` with half="½"), `-3`, `+4` when signed."""
    numerator, denominator = value.numerator, value.denominator  # read once: Fraction arithmetic is slow
    sign = "-" if numerator < 0 else ("+" if signed and numerator > 0 else "")
    if denominator == 1:
        return f"{sign}{abs(numerator)}"
    if denominator == 2:
        whole = abs(numerator) // 2
        if half == "½":
            return f"{sign}{whole}½" if whole else f"{sign}½"
        return f"{sign}{whole}{half}"
    return f"{sign}{float(abs(value)):g}"


def to_json(value: Fraction) -> int | float:
    """Points for JSON: an int when whole, otherwise a float (exact for halves)."""
    if value.denominator == 1:
        return int(value)
    return float(value)
