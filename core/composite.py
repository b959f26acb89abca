"""Two states of one view on one stage: side by side, or the previous state as a ghost.

Pure functions on :class:`core.viewdata.ViewData` (no Qt). A *variant* says how state B
differs from state A: ``"m+100, n+100"`` (offsets added to A's values, so B follows A
when A changes: one shared parameter drives both) or ``"base=500000"`` (a fixed value);
every other parameter is A's. :func:`side_by_side` puts B's panels to the right of A's;
:func:`with_ghost` draws an earlier state's curves faintly under the current ones.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from core.formula import escape, plain_text
from core.params import ParamError, ParamModel, short_repr
from core.viewdata import Panel, Series, ViewData

_TERM = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*([+=]|-)\s*(.+?)\s*$")
GHOST_OPACITY = 0.3

Variant = dict[str, tuple[str, Any]]
"""Parameter name → ``("+", offset)`` or ``("=", value)``."""

DEFAULT_VARIANTS = {"rope": "m+100, n+100", "clock": "shift+10"}


def parse_variant(text: str, model: ParamModel) -> Variant:
    """Parse ``"m+100, n+100"`` / ``"base=500000"`` for ``model``.

    Raises
    ------
    ValueError
        One line: an empty term (``"m+1,,n+1"``, a comma at either end), a malformed
        term, an unknown parameter, an offset on a parameter that is not a number, or a
        value the parameter does not accept. A text with no term at all (``""``) is the
        empty variant: B equals A.
    """
    out: Variant = {}
    if not text.strip():
        return out
    terms = text.split(",")
    for k, term in enumerate(terms, start=1):
        if not term.strip():
            # (it was dropped: "m+100,,n+100" read as if the term between the commas
            # had never been meant, as `dims=1,,2` did before its items were refused)
            raise ValueError(
                f"empty term {k} in {short_repr(text)}; expected NAME+OFFSET or NAME=VALUE "
                "separated by commas, e.g. m+100, n+100"
            )
        match = _TERM.match(term)
        if match is None:
            raise ValueError(f"malformed term {term.strip()!r}: use NAME+OFFSET or NAME=VALUE")
        name, op, value = match.groups()
        param = model[name]  # unknown: ParamError
        if op in "+-":
            if param.kind not in ("int", "float"):
                raise ValueError(f"{name} is a {param.kind}, not a number: give {name}=VALUE")
            try:
                offset = float(value)
            except ValueError:
                raise ValueError(f"{name}{op}{value}: {value!r} is not a number") from None
            offset = -offset if op == "-" else offset
            out[name] = (
                "+",
                int(offset) if param.kind == "int" and offset.is_integer() else offset,
            )
        else:
            out[name] = ("=", param.parse(value))
    return out


def variant_text(variant: Variant) -> str:
    """The variant as text (``parse_variant``'s input)."""
    parts = []
    for name, (op, value) in variant.items():
        if op == "+":
            parts.append(f"{name}{'-' if value < 0 else '+'}{abs(value):g}")
        else:
            parts.append(f"{name}={value}")
    return ", ".join(parts)


def variant_params(
    values: Mapping[str, Any], variant: Variant, model: ParamModel
) -> dict[str, Any]:
    """State B for state A ``values``: the variant applied, validated.

    Raises
    ------
    ParamError
        B is not a valid state (e.g. an offset pushes a position past its range).
    """
    out = dict(values)
    for name, (op, value) in variant.items():
        if op == "+":
            new = values[name] + value
            out[name] = int(new) if model[name].kind == "int" else float(new)
        else:
            out[name] = value
    return model.validate(out)


def _width(panels: list[Panel]) -> int:
    return max((p.col + p.col_span for p in panels), default=0)


def side_by_side(a: ViewData, b: ViewData, label_a: str, label_b: str) -> ViewData:
    """A's panels, then B's to their right, titled ``"label: title"``; keys ``A/…``, ``B/…``."""
    shift = _width(a.panels)
    panels = [
        dataclasses.replace(p, key=f"A/{p.key}", title=f"{label_a}: {p.title}") for p in a.panels
    ] + [
        dataclasses.replace(p, key=f"B/{p.key}", title=f"{label_b}: {p.title}", col=p.col + shift)
        for p in b.panels
    ]
    notes = [f"{label_a}: {n}" for n in a.notes] + [f"{label_b}: {n}" for n in b.notes]
    note_panels = {
        f"{label}: {n}": tuple(f"{side}/{k}" for k in keys)
        for label, side, d in ((label_a, "A", a), (label_b, "B", b))
        for n, keys in d.note_panels.items()
    }
    markup = ""
    if a.formula:  # "A:" and "B:" start terms: the line wraps there first
        markup = "  ".join(
            f"{escape(label)}:  {d.formula_markup or escape(d.formula)}"
            for label, d in ((label_a, a), (label_b, b))
        )
    return ViewData(
        a.view_id,
        dict(a.params),
        panels,
        plain_text(markup),
        a.verdict,
        notes,
        formula_markup=markup,
        note_panels=note_panels,
        verdict_short=a.verdict_short,
    )


def _ghost_series(panel: Panel, label: str) -> list[Series]:
    if panel.kind == "arrows":  # an earlier arrow: a faint line from the origin
        return [
            Series(
                f"{label}: {a.name}",
                np.array([0.0, a.x]),
                np.array([0.0, a.y]),
                color=i,
                opacity=GHOST_OPACITY,
            )
            for i, a in enumerate(panel.arrows)
        ]
    return [
        dataclasses.replace(
            s,
            name=f"{label}: {s.name}",
            color=i if s.color is None else s.color,
            opacity=GHOST_OPACITY * s.opacity,
        )
        for i, s in enumerate(panel.series)
        if s.style != "scatter"
    ]


def with_ghost(current: ViewData, ghost: ViewData, label: str = "before") -> ViewData:
    """``current`` with ``ghost``'s curves (and arrows) drawn faintly beneath, in the same
    colours, in every curves/arrows panel both have. Heatmaps, bars and tables are as
    they are (a faint image would hide the current one)."""
    earlier = {p.key: p for p in ghost.panels}
    panels = []
    for p in current.panels:
        old = earlier.get(p.key)
        if old is None or p.kind not in ("curves", "arrows") or old.kind != p.kind:
            panels.append(p)
            continue
        own = [
            s if s.color is not None else dataclasses.replace(s, color=i)
            for i, s in enumerate(p.series)
        ]
        panels.append(dataclasses.replace(p, series=_ghost_series(old, label) + own))
    return dataclasses.replace(current, panels=panels)


__all__ = [
    "DEFAULT_VARIANTS",
    "ParamError",
    "Variant",
    "parse_variant",
    "side_by_side",
    "variant_params",
    "variant_text",
    "with_ghost",
]
