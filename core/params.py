"""Typed parameter models: the single source of truth for every view's parameters.

A :class:`ParamModel` lists a view's :class:`Param` entries (name, kind, default, range,
step, choices, help). The GUI panel, the CLI ``--param`` flags, scene files and the
``views`` listing are all generated from these objects; nothing else lists parameters.
"""

from __future__ import annotations

import math
import re
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

_INT_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FLOAT_TEXT = re.compile(
    r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:inf|infinity|nan)",
    re.ASCII | re.IGNORECASE,
)
MAX_NUMBER_CHARS = 400  # longer numbers are refused before conversion (no int-digit limit)

_repr = reprlib.Repr()
_repr.maxstring = 60
_repr.maxother = 60
_repr.maxlevel = 3
_repr.maxlist = _repr.maxtuple = _repr.maxdict = 6


def short_repr(value: Any) -> str:
    """A bounded, one-line ``repr`` for messages (deep or huge values are abbreviated;
    ``None``, ``True`` and ``False`` as JSON's null, true and false: "got True" named a
    Python value the scene file did not have)."""
    if value is None or isinstance(value, bool):  # as a scene file writes them
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**60:
        return f"a {len(str(abs(value))) if abs(value) < 10**4000 else 'very long'}-digit number"
    try:
        text = _repr.repr(value)
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__}>"
    return text if text.isprintable() else ascii(text)


ParamKind = Literal["int", "float", "bool", "choice", "text", "int_list", "file"]


class ParamError(ValueError):
    """A parameter value is invalid. ``str()`` is one line naming the parameter."""

    def __init__(self, name: str, message: str) -> None:
        self.name = name
        super().__init__(f"{name}: {message}")


@dataclass(frozen=True)
class Param:
    """One parameter of a view.

    Parameters
    ----------
    name
        Identifier used in the CLI (``--param name=value``), scene files and code.
    kind
        ``int``, ``float``, ``bool``, ``choice``, ``text``, ``int_list`` or ``file``.
    default
        Default value (already valid).
    label
        Short human label for the GUI.
    help
        One or two sentences shown as tooltip and in ``main.py views``.
    minimum, maximum
        Inclusive numeric range (for ``int_list``: the range of each item).
    step
        Slider / spin box step.
    choices
        Allowed values of a ``choice`` parameter.
    log_scale
        Sliders map logarithmically (e.g. RoPE's base).
    max_items
        Longest allowed ``int_list`` / longest ``text``.
    limit
        For a number whose useful upper end depends on the other parameters (a query
        position on ``seq_len``, a head on ``heads``): ``limit(values)`` gives that end.
        Larger values stay valid (a scene or the CLI may set them); the view draws them at
        the limit (:meth:`effective`), and the panel's slider, the stage's nudge keys and
        sweeps stop there. ``None``: the range's maximum is the useful end.
    unused
        For a parameter that other parameters can override (Learned's table rows and
        width, which a loaded table file sets): ``unused(values)`` says why its value
        is not used for ``values`` ("the table file sets it"), ``None`` when it is. The
        panel and the stage strip grey its field out; the stage's nudge keys say why
        instead of changing it. ``None``: always used.
    """

    name: str
    kind: ParamKind
    default: Any
    label: str
    help: str
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    choices: tuple[str, ...] = ()
    log_scale: bool = False
    max_items: int = 64
    decimals: int = 4
    limit: Callable[[Mapping[str, Any]], float] | None = field(default=None, compare=False)
    unused: Callable[[Mapping[str, Any]], str | None] | None = field(default=None, compare=False)

    def unused_why(self, values: Mapping[str, Any]) -> str | None:
        """Why this parameter's value is not used for ``values`` (:attr:`unused`), or
        ``None`` when it is (also where ``values`` lack what ``unused`` reads)."""
        if self.unused is None:
            return None
        try:
            return self.unused(values)
        except (KeyError, TypeError, ValueError):
            return None

    def upper(self, values: Mapping[str, Any]) -> float:
        """The useful upper end of this number for the other parameters in ``values``:
        ``limit(values)`` kept within ``minimum..maximum`` (the maximum without a
        ``limit``, or where ``values`` lack what it needs)."""
        lo, hi = self.minimum, self.maximum
        if lo is None or hi is None:
            raise ValueError(f"{self.name} is not a number parameter with a range")
        if self.limit is None:
            return hi
        try:
            end = float(self.limit(values))
        except (KeyError, TypeError, ValueError, ArithmeticError):
            return hi
        return min(max(end, lo), hi)

    def effective(self, values: Mapping[str, Any]) -> Any:
        """The value the view draws: ``values[name]`` clamped to :meth:`upper`."""
        value = values[self.name]
        end = self.upper(values)
        if value <= end:
            return value
        return int(end) if self.kind == "int" else float(end)

    def limited(self, values: Mapping[str, Any]) -> Param:
        """This parameter with its maximum lowered to :meth:`upper` (itself without a
        ``limit``): the range a slider or a nudge key offers for ``values``."""
        if self.limit is None:
            return self
        return replace(self, maximum=self.upper(values))

    def range_text(self) -> str:
        """Describe the allowed values in a few words (for messages and listings)."""
        if self.kind in ("int", "float"):
            return f"{_fmt(self.minimum)}..{_fmt(self.maximum)}"
        if self.kind == "int_list":
            return f"comma-separated integers in {_fmt(self.minimum)}..{_fmt(self.maximum)}"
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "bool":
            return "true | false"
        if self.kind == "file":
            return "path to a .npy, .safetensors or .pt file, or empty"
        return f"text up to {self.max_items} characters"

    def validate(self, value: Any) -> Any:
        """Return ``value`` coerced to this parameter's type, or raise :class:`ParamError`."""
        try:
            return _VALIDATORS[self.kind](self, value)
        except ParamError:
            raise
        except (TypeError, ValueError, OverflowError) as exc:
            raise ParamError(self.name, f"{exc}; allowed: {self.range_text()}") from None

    def parse(self, text: str) -> Any:
        """Parse a command-line string (``--param name=text``) and validate it."""
        text = text.strip()
        if self.kind == "bool":
            low = text.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ParamError(self.name, f"expected true or false, got {text!r}")
        if self.kind == "int_list":
            return self.validate(_parse_int_list(self.name, text))
        if self.kind == "int":
            return self.validate(_parse_int(self.name, text))
        if self.kind == "float":
            if len(text) > MAX_NUMBER_CHARS or not _FLOAT_TEXT.fullmatch(text):
                raise ParamError(self.name, f"expected a number, got {short_repr(text)}")
            return self.validate(float(text))
        return self.validate(text)

    def format(self, value: Any) -> str:
        """Inverse of :meth:`parse`."""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "int_list":
            return ",".join(str(v) for v in value)
        return str(value)


def last_position(values: Mapping[str, Any]) -> int:
    """``seq_len − 1``, the last position: the :attr:`Param.limit` of a query position."""
    return int(values["seq_len"]) - 1


def _fmt(x: float | None) -> str:
    if x is None:
        return "?"
    if isinstance(x, int):
        return str(x) if abs(x) < 10**60 else short_repr(x)
    # a whole float as an integer while it reads as one ("10000000"); beyond, "1e+308"
    # (str(int(1e308)) wrote all 309 digits into a one-line message)
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e16 else f"{x:g}"


def _parse_int(name: str, text: str) -> int:
    """ASCII digits only: no ``1_0``, no other scripts' digits, no 4,300-digit numbers."""
    text = text.strip()
    if len(text) > MAX_NUMBER_CHARS or not _INT_TEXT.fullmatch(text):
        raise ParamError(name, f"expected an integer, got {short_repr(text)}")
    return int(text)


def _parse_int_list(name: str, text: str) -> list[int]:
    """Integers separated by commas (or semicolons); an empty text is an empty list.

    An empty item (``1,,2``, ``1,2,``, ``,1``) is refused, naming its place: dropping it
    silently read a mistyped list (a number left out between the commas) as another.
    """
    if not text.strip():
        return []
    items = text.replace(";", ",").split(",")
    for k, item in enumerate(items, start=1):
        if not item.strip():
            raise ParamError(
                name,
                f"empty item {k} in {short_repr(text)}; expected comma-separated "
                "integers, e.g. 0,1,2",
            )
    return [_parse_int(name, item) for item in items]


def _check_range(p: Param, v: float) -> None:
    if (p.minimum is not None and v < p.minimum) or (p.maximum is not None and v > p.maximum):
        # the bounds alone: a list's item "is out of range 0..16383" (its range text,
        # "comma-separated integers in 0..16383", made "-3 is out of range comma-…")
        raise ParamError(p.name, f"{_fmt(v)} is out of range {_fmt(p.minimum)}..{_fmt(p.maximum)}")


def _v_int(p: Param, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParamError(p.name, f"expected an integer, got {short_repr(value)}")
    if isinstance(value, float) and not value.is_integer():
        raise ParamError(p.name, f"expected an integer, got {short_repr(value)}")
    _check_range(p, int(value))
    return int(value)


def _v_float(p: Param, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParamError(p.name, f"expected a number, got {short_repr(value)}")
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int beyond the float range
        finite = False
    if not finite:
        raise ParamError(p.name, f"expected a finite number, got {short_repr(value)}")
    _check_range(p, float(value))
    return float(value)


def _v_bool(p: Param, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ParamError(p.name, f"expected true or false, got {short_repr(value)}")
    return value


def _v_choice(p: Param, value: Any) -> str:
    if not isinstance(value, str) or value not in p.choices:
        raise ParamError(p.name, f"{short_repr(value)} is not one of {p.range_text()}")
    return str(value)


def _v_text(p: Param, value: Any) -> str:
    if not isinstance(value, str):
        raise ParamError(p.name, f"expected text, got {short_repr(value)}")
    if len(value) > p.max_items:
        raise ParamError(p.name, f"text longer than {p.max_items} characters")
    check_encodable(p.name, value)
    return value


def check_encodable(name: str, text: str) -> None:
    """Raise :class:`ParamError` if ``text`` cannot be written as UTF-8 (lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ParamError(
            name,
            f"contains an unpaired surrogate {ascii(text[exc.start])} at character {exc.start}",
        ) from None


def _v_int_list(p: Param, value: Any) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)):
        raise ParamError(p.name, f"expected a list of integers, got {short_repr(value)}")
    if len(value) > p.max_items:
        raise ParamError(p.name, f"at most {p.max_items} items")
    items = tuple(_v_int(p, v) for v in value)
    if not items:
        raise ParamError(p.name, "needs at least one integer")
    if len(items) > p.max_items:
        raise ParamError(p.name, f"at most {p.max_items} items")
    return items


_VALIDATORS: dict[str, Callable[[Param, Any], Any]] = {
    "int": _v_int,
    "float": _v_float,
    "bool": _v_bool,
    "choice": _v_choice,
    "text": _v_text,
    "int_list": _v_int_list,
    "file": _v_text,
}


@dataclass(frozen=True)
class ParamModel:
    """All parameters of one view, plus cross-parameter validation.

    Parameters
    ----------
    view_id
        Stable view identifier (``sinusoidal``, ``rope``, ...).
    title
        Human title of the view.
    params
        The parameters, in panel order.
    check
        Optional cross-field check ``check(values) -> None`` raising :class:`ParamError`.
    """

    view_id: str
    title: str
    params: tuple[Param, ...]
    check: Callable[[Mapping[str, Any]], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate parameter names in {self.view_id}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def __getitem__(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        shown = name if isinstance(name, str) and name.isprintable() and len(name) <= 60 else None
        raise ParamError(
            shown or short_repr(name),
            f"unknown parameter of view '{self.view_id}'; known: {', '.join(self.names)}",
        )

    def defaults(self) -> dict[str, Any]:
        """Fresh dict of default values."""
        return {p.name: p.default for p in self.params}

    def validate(self, values: Mapping[str, Any], *, partial: bool = False) -> dict[str, Any]:
        """Validate a complete set of values (or, with ``partial``, fill gaps with defaults).

        Raises
        ------
        ParamError
            Unknown name, missing name (unless ``partial``), wrong type, out of range, or
            a failed cross-parameter check. Nothing is modified.
        """
        for name in values:
            self[name]  # raises for unknown names
        out: dict[str, Any] = {}
        for p in self.params:
            if p.name in values:
                out[p.name] = p.validate(values[p.name])
            elif partial:
                out[p.name] = p.default
            else:
                raise ParamError(p.name, "missing")
        if self.check is not None:
            self.check(out)
        return out

    def updated(self, current: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
        """Return a validated copy of ``current`` with ``changes`` applied."""
        merged = dict(current)
        merged.update(changes)
        return self.validate(merged)

    def changed(self, valid: Mapping[str, Any], name: str, value: Any) -> dict[str, Any]:
        """:meth:`updated` of values already validated (``valid``: as :meth:`validate`
        returns them) with one parameter changed: only ``value`` is validated (each
        parameter's check looks at its own value alone), then the cross-parameter check.

        A slider drag changes one parameter a frame: validating them all again was
        ~180 calls a RoPE frame for the same values.

        Raises
        ------
        ParamError
            Unknown ``name``, a wrong ``value`` or a failed cross-parameter check.
        """
        out = dict(valid)
        out[name] = self[name].validate(value)
        if self.check is not None:
            self.check(out)
        return out
