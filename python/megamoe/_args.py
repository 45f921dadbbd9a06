"""Argument checks shared by the package's modules (no third-party imports)."""
from __future__ import annotations

import operator
from typing import Any


def _int(name: str, v: Any, bits: int = 64) -> int:
    """An integer argument that fits the C++ side's signed `bits`-bit parameter."""
    if isinstance(v, bool):
        raise TypeError(f"megamoe: argument '{name}': expected an int, got bool")
    try:
        i = operator.index(v)
    except TypeError:
        raise TypeError(f"megamoe: argument '{name}': expected an int, got {type(v).__name__}") from None
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if not lo <= i <= hi:
        raise ValueError(f"megamoe: argument '{name}': expected an integer in [{lo}, {hi}], got {i}")
    return i
