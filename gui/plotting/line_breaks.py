"""Where a plot title may break, and how bad each place is (no Qt here).

A title is cut into pieces: its words, and inside a word the places it may break
(``−0.1·`` | ``torch.arange(8),``). Between two pieces is a break penalty; the wrap
(:func:`gui.plotting.panel_plot.wrap_in`) breaks a title at its least bad places: a
run of pieces too wide for a line alone is broken at the least bad places inside it.

The rules, worst last:

* an operator (``=``, ``−``, ``+``, ``·``, ``×``, ``/``, ``→``, ``≤``, …) ends its
  line with its left operand, as running text breaks inline math (TeX's rule): a line
  may end in "bias =", never start with "=" nor hold an operator alone. An operator
  word is glued to the word before it (the space before it breaks last of all, after
  every break inside that word), the space after it costs more than a free space;
  inside a word a break goes after an operator, never before it. A text's first word
  that is an operator is glued to the word after it.
* a spaced dash (``—``, ``–``) ends its line with the word before it, as a spaced em
  dash does not start a line: "A: 'dog bites" / "man' — causal" / "mask, no positions"
  rather than "A: 'dog bites man'" / "— causal mask, no" / "positions". The space
  before it is glued as an operator's (unless ``dashes`` is false); the space after it
  is a free space (a dash joins two clauses, not two operands). A plot title keeps a
  dash with its word only where that takes it no more lines
  (:func:`gui.plotting.panel_plot.wrap_parts`); a text Qt wraps always does.
* a bracket group (``(…)``, ``[…]``, ``⟨…⟩``, matched) breaks inside only where no
  break outside it is left in the part to wrap; a call breaks in its dotted name
  before its brackets ("nn.functional." / "softmax(scores, dim=−1)", "torch." /
  "arange(8)").
* inside a word: after an operator, then after a comma, then inside a name (after
  ``.`` or ``_``; not in a number, "0.1", nor before a subscript, "PE_p"), then after an
  opening bracket. A word without such places keeps whole.
"""

from __future__ import annotations

import functools
import itertools
import re

FREE = 0  # a space between two words
AFTER_OPERATOR = 1  # the space after an operator word: "bias =" | "−0.1·j"
IN_WORD_OPERATOR = 2  # inside a word, after an operator: "−0.1·" | "torch"
IN_WORD_COMMA = 3  # inside a word, after a comma: "[i," | "j]"
IN_WORD_NAME = 4  # inside a name, after "." or "_": "torch." | "arange(8)"
IN_WORD_OPENING = 5  # inside a word, after an opening bracket: "arange(" | "8)"
INSIDE = 6  # added for a place inside a bracket group
GLUE = 20  # before an operator word (after a first one): the last place to break

OPERATOR_CHARS = "=+−·×*/→←↔≤≥<>≈≠∝"  # an operator inside a word ("-": a hyphen)
_OPENING = "([⟨"
_GROUPS = {")": "(", "]": "[", "⟩": "⟨"}  # a group's closing bracket -> its opening one
_OPERATOR = re.compile(r"[=+−\-/·×*→←↔≤≥<>≈≠∝~|:]+")  # a word that is only an operator
_DASH = re.compile(r"[—–]+")  # a word that is only a dash (em, en): a spaced dash
_BRACKETS = re.compile("[" + re.escape(_OPENING + "".join(_GROUPS)) + "]")  # (one each)


def _glued(words: list[str], dashes: bool = True) -> tuple[list[bool], list[bool]]:
    """For each of ``words`` (a text split at its spaces): whether the space before it
    is glued (it is an operator or, with ``dashes``, a dash, or it follows a first word
    that is one), and whether it is an operator word (the space after it:
    :data:`AFTER_OPERATOR`)."""
    kinds = [_word_kind(word) for word in words]
    operator = [is_operator for is_operator, _dash in kinds]
    dash = [dashes and is_dash for _operator, is_dash in kinds]
    first = bool(words) and (operator[0] or dash[0])
    glued = [bool(k) and (operator[k] or dash[k] or (first and k == 1)) for k in range(len(words))]
    return glued, operator


@functools.lru_cache(maxsize=4096)
def _word_kind(word: str) -> tuple[bool, bool]:
    """Whether ``word`` is only an operator, and whether it is only a dash (kept per
    word: a title that follows a slider is cut anew on each frame of a drag)."""
    return bool(_OPERATOR.fullmatch(word)), bool(_DASH.fullmatch(word))


def _depths(text: str) -> list[int]:
    """For each character of ``text``, how many matched bracket groups it lies inside
    once it is read (an opening bracket is inside its group, a closing one is not).
    Only the brackets are looked at one by one (a title that follows a slider is cut
    anew on each frame)."""
    step = [0] * (len(text) + 1)
    stack: list[tuple[str, int]] = []
    for match in _BRACKETS.finditer(text):
        i, ch = match.start(), match.group()
        if ch in _OPENING:
            stack.append((ch, i))
        else:  # a closing bracket
            for depth in range(len(stack) - 1, -1, -1):  # its opening bracket, inner first
                if stack[depth][0] == _GROUPS[ch]:
                    step[stack[depth][1]] += 1
                    step[i] -= 1
                    del stack[depth:]
                    break
    del step[len(text) :]
    return list(itertools.accumulate(step))


def _in_word(word: str, i: int) -> int | None:
    """The kind of break (``IN_WORD_…``) between ``word[i - 1]`` and ``word[i]``, or
    None where the word does not break."""
    before, ch = word[i - 1], word[i]
    rest = word[i + 1 :]
    if before in OPERATOR_CHARS:
        # binary (an operand on its left, not "=−1"'s sign) and an operand on its right
        left = word[i - 2] if i >= 2 else ""
        binary = left and left not in OPERATOR_CHARS and left not in _OPENING
        if binary and ch not in OPERATOR_CHARS and word[i:].strip(",.;:)]⟩"):
            return IN_WORD_OPERATOR
        return None
    if ch in OPERATOR_CHARS:
        return None  # an operator stays with its left operand
    if before in ",;" and ch not in ",;)]⟩":
        return IN_WORD_COMMA
    if before == "." and ch.isalpha() and i >= 2 and (word[i - 2].isalnum() or word[i - 2] == "_"):
        return IN_WORD_NAME  # "torch." | "arange"; not "0." | "1"
    if before == "_" and ch.isalnum() and rest[:1].isalnum():
        return IN_WORD_NAME  # "max_" | "positions"; not "PE_" | "p" (a subscript)
    if before in _OPENING and ch not in _GROUPS:
        return IN_WORD_OPENING
    return None


@functools.lru_cache(maxsize=4096)
def _word_breaks(word: str) -> tuple[tuple[int, int], ...]:
    """Each place ``word`` may break (:func:`_in_word`): ``(i, kind)``, a break between
    ``word[i - 1]`` and ``word[i]``. Kept per word: a title that follows a slider is
    cut anew on each frame of a drag (Clock's ~30 characters looked at a frame), its
    words mostly as before."""
    found = ((i, _in_word(word, i)) for i in range(1, len(word)))
    return tuple((i, kind) for i, kind in found if kind is not None)


def spaced_dash(text: str) -> bool:
    """Whether ``text`` has a spaced dash (a word that is only ``—`` or ``–``)."""
    # (a run of dashes with no other character but a space on either side: one
    # search, not a match per word, ~30 calls a wrapped title)
    return _SPACED_DASH.search(text) is not None


_SPACED_DASH = re.compile(f"(?<![^ ]){_DASH.pattern}(?![^ ])")


@functools.lru_cache(maxsize=1024)
def break_points(
    text: str, dashes: bool = True
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """``text`` as ``(pieces, joins, penalties)``: its words and the parts of its words
    between their break places; for each place between two pieces, what joins them
    (" " between words, "" inside a word) and how bad a line break there is (the
    module's rules: :data:`FREE` best, :data:`GLUE` worst; ``dashes``: a spaced dash
    glued to the word before it, else a word as any other).

    Examples
    --------
    >>> break_points("bias = −0.1·torch.arange(8)")
    (('bias', '=', '−0.1·', 'torch.', 'arange(', '8)'), (' ', ' ', '', '', ''), (20, 1, 2, 4, 11))
    """
    words = text.split(" ")
    depths = _depths(text)
    pieces: list[str] = []
    joins: list[str] = []
    penalties: list[int] = []
    glued, operator = _glued(words, dashes)
    at = 0
    for k, word in enumerate(words):
        if k:
            # the space before word k, at text[at - 1]: inside a group where the
            # character before it is
            if glued[k]:
                penalty = GLUE
            else:
                penalty = AFTER_OPERATOR if operator[k - 1] else FREE
                if at >= 2 and depths[at - 2] > 0:
                    penalty += INSIDE
            joins.append(" ")
            penalties.append(penalty)
        start = 0
        for i, kind in _word_breaks(word):
            pieces.append(word[start:i])
            joins.append("")
            penalties.append(kind + (INSIDE if depths[at + i - 1] > 0 else 0))
            start = i
        pieces.append(word[start:])
        at += len(word) + 1
    return tuple(pieces), tuple(joins), tuple(penalties)


NO_BREAK_SPACE = "\u00a0"


def glue_operators(text: str) -> str:
    """``text`` with a no-break space where :func:`break_points` glues two words (before
    an operator word or a spaced dash, after a first one): for a text Qt wraps itself at
    any space (an axis title, a legend entry, a view's verdict) the same rule holds as
    for a plot title. Relative's "relative position i − j (query − key)" broke "(query"
    / "− key)" on stage.

    Examples
    --------
    >>> glue_operators("i − j (query − key)") == "i\u00a0− j (query\u00a0− key)"
    True
    >>> glue_operators("'dog bites man' — no positions") == "'dog bites man'\u00a0— no positions"
    True
    """
    if " " not in text:
        return text
    words = text.split(" ")
    glued, _operator = _glued(words)
    out = [words[0]]
    for k in range(1, len(words)):
        out.append(NO_BREAK_SPACE if glued[k] else " ")
        out.append(words[k])
    return "".join(out)


def join(pieces: list[str] | tuple[str, ...], joins: list[str] | tuple[str, ...]) -> str:
    """``pieces`` joined by ``joins`` (one fewer: what goes between two pieces)."""
    if not pieces:
        return ""
    out = [pieces[0]]
    for glue, piece in zip(joins, pieces[1:], strict=True):
        out.append(glue)
        out.append(piece)
    return "".join(out)


Unit = tuple[str, tuple[str, ...], tuple[str, ...], tuple[int, ...]]


def units(
    pieces: tuple[str, ...], joins: tuple[str, ...], penalties: tuple[int, ...], tier: int
) -> list[tuple[Unit, str, int]]:
    """``pieces`` joined over the places worse than ``tier`` (no break there at this
    tier): for each unit, ``((text, its pieces, their joins, their penalties), the join
    before it, the penalty of a break before it)`` (the first unit's: "" and 0)."""
    out: list[tuple[Unit, str, int]] = []
    first = 0
    last = len(pieces) - 1
    for k in range(last + 1):
        if k == last or penalties[k] <= tier:
            part, part_joins = pieces[first : k + 1], joins[first:k]
            before = (joins[first - 1], penalties[first - 1]) if first else ("", 0)
            text = pieces[k] if first == k else join(part, part_joins)  # (one piece: itself)
            out.append(((text, part, part_joins, penalties[first:k]), *before))
            first = k + 1
    return out
