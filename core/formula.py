r"""Formula markup: a tiny TeX-like subset for the formula line of each view.

A view writes its formula once, as markup with the current values filled in; the GUI
typesets it (:mod:`gui.render.formula_label`) and :func:`plain_text` gives the plain
form kept in :attr:`core.viewdata.ViewData.formula` (CSV, CLI, tests, tooltips).

Syntax
------
``x_i``, ``x_{ab}``
    Subscript (one character, or a braced group).
``x^2``, ``x^{−2i/32}``
    Superscript. ``x_i^2`` (or ``x^2_i``) stacks both.
``\frac{a}{b}``
    A fraction (numerator over denominator).
``\sqrt{x}``
    A square root with its bar over ``x``.
``\text{...}``
    Upright text (otherwise single Latin letters and lowercase Greek letters are set in
    italics, as variables; words, numbers and symbols stay upright).
``\_``, ``\^``, ``\{``, ``\}``, ``\\``
    The literal character.
Two or more spaces (outside braces)
    A break between *terms*: a long formula wraps there and nowhere else. A single
    space never breaks a line (unless one term alone is wider than the line).

Plain form: ``x_i`` → ``x_i``, ``x_{12}`` → ``x_12``, ``x^{−2i/32}`` → ``x^(−2i/32)``
(parenthesised when not a single word), ``\frac{a}{b}`` → ``a/b``, ``\sqrt{d}`` → ``√d``.

Labels
------
A panel's title, axis titles and legend entries (:class:`core.viewdata.Panel`) are plain
text that writes its math the same way: ``m_h``, ``θ_i``, ``R_{i−j}``, ``2^{−8h/n}``.
:func:`label_markup` reads such a text as markup and :func:`rich_text` gives the Qt rich
text (``m<sub>h</sub>``) the plots draw (window, stage, PNG, SVG). There a ``_`` or ``^``
is a script only when a braced group follows it, or one character that does not start
a longer word: ``get_rope_index``, ``short_factor``, ``train_len`` and file names keep
their ``_`` (write ``A_{ij}``, not ``A_ij``); ``\``, ``{`` and ``}`` otherwise show as
they are. A ``^`` followed by a balanced parenthesised group, as prose writes a
power (``2^(−8h/n)``, ``base^(−2i/d_rot)``, ``ζ_i^((m−n)/b)``), is a superscript of that
group without its parentheses (the formula line's ``10000^{−2i/64}``) when it follows a
number, a variable or a subscripted variable; after an identifier (``d_rot^(2)``), a
dotted name or with no closing parenthesis it stays as written. Text exports (CSV/NPY headers, the command line, hover readouts, notes) keep
the label as the view wrote it.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "Frac",
    "Node",
    "Script",
    "Sqrt",
    "Text",
    "approx",
    "approx_text",
    "escape",
    "glyph_text",
    "label_markup",
    "label_rich_text",
    "number",
    "parse",
    "plain_text",
    "rich_text",
    "runs",
    "scripts",
    "terms",
]


@dataclass(frozen=True)
class Text:
    """Text set as it stands; ``upright`` switches the automatic italics off."""

    text: str
    upright: bool = False


@dataclass(frozen=True)
class Script:
    """Sub- and/or superscript attached to what precedes it."""

    sub: tuple[Node, ...] | None
    sup: tuple[Node, ...] | None


@dataclass(frozen=True)
class Frac:
    """A fraction."""

    num: tuple[Node, ...]
    den: tuple[Node, ...]


@dataclass(frozen=True)
class Sqrt:
    """A square root."""

    body: tuple[Node, ...]


Node = Text | Script | Frac | Sqrt

_ESCAPES = {"_": "_", "^": "^", "{": "{", "}": "}", "\\": "\\", "-": "-"}
_COMMANDS = {"frac": 2, "sqrt": 1, "text": 1}
# what terms() looks at: an escape (a backslash and the character after it), a brace, a
# run of two or more spaces (a term break outside braces)
_TERM_TOKENS = re.compile(r"\\.|[{}]| {2,}", re.DOTALL)
# a run of plain characters (_parse: taken whole, not a character at a time)
_PLAIN_RUN = re.compile(r"[^{}\\_^]+")
# A value's minus sign, as Python's formatting writes it ("m − n = -7"): set as the minus
# U+2212 that the views' own terms use (an ASCII hyphen is shorter and sits lower); not a
# hyphen inside a word or name ("GPT-2", "x-1").
_NEGATIVE = re.compile(r"(?<![\w.\\])-(?=\d)")


_E_NOTATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)e([+-]?)(\d+)\b")


def powers_of_ten(text: str) -> str:
    """``text`` with each number Python's formatting wrote in e-notation set as a power
    of ten in superscript characters, as the rest of the app writes it ("4.6955e-05"
    as "4.6955·10⁻⁵"; the digits kept); names are left as they are.

    Examples
    --------
    >>> powers_of_ten("yarn: 4.6955e-05, linear: 2.65e+06"), powers_of_ten("x = 1e3")
    ('yarn: 4.6955·10⁻⁵, linear: 2.65·10⁶', 'x = 1·10³')
    >>> powers_of_ten("GPT-2 e5 name1e-3 0.5")
    'GPT-2 e5 name1e-3 0.5'
    """
    if "e" not in text:
        return text

    def power(match: re.Match[str]) -> str:
        sign = "−" if match.group(2) == "-" else ""
        digits = str(int(match.group(3)))
        return f"{match.group(1)}·10{(sign + digits).translate(_SUPERSCRIPTS)}"

    return _E_NOTATION.sub(power, text)


def minus_signs(text: str) -> str:
    """``text`` with each negative value's sign, a hyphen before a digit as Python's
    formatting writes it, set as the minus U+2212; a hyphen inside a word or name
    ("GPT-2", "x-1") or an exponent ("1e-05") is kept.

    Examples
    --------
    >>> minus_signs("-0.5"), minus_signs("m − n = -7"), minus_signs("GPT-2"), minus_signs("1e-05")
    ('−0.5', 'm − n = −7', 'GPT-2', '1e-05')
    """
    return _NEGATIVE.sub("−", text) if "-" in text else text


class FormulaError(ValueError):
    """Malformed markup (a view's bug: the message names the markup)."""


def number(value: float, decimals: int = 4) -> str:
    """A parameter's value as a formula shows it: rounded to ``decimals`` (the fields'
    four), then its shortest exact decimals, never an exponent nor padding ("10000",
    "1000000" for CodeLlama's and Qwen2's rope_theta, "500000", "0.5", "1234567.8912"),
    where ``f"{value:g}"`` wrote "1e+06" and "1.23457e+06" (the latter not even the
    value). The parameter fields write the same
    (:class:`gui.widgets.float_field.FloatField`); an animated value (a base swept
    geometrically, 130700.93329390632 mid-sweep) reads as its field, "130700.9333".

    Examples
    --------
    >>> number(1e6), number(10000.0), number(0.5), number(1234567.8912), number(-0.0)
    ('1000000', '10000', '0.5', '1234567.8912', '0')
    >>> number(130700.93329390632)
    '130700.9333'
    """
    value = round(float(value), decimals)
    if value == 0:
        return "0"
    text = repr(float(value))
    if "e" not in text and "E" not in text:
        whole, _, frac = text.partition(".")
        return whole if frac.strip("0") == "" else f"{whole}.{frac.rstrip('0')}"
    from decimal import Decimal

    text = format(Decimal(repr(float(value))), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def approx(value: float, digits: int = 3) -> str:
    """A derived value to ``digits`` significant digits as formula markup: ``g``
    formatting, with a power of ten set as one ("2.65·10^{6}", not "2.65e+06").

    Examples
    --------
    >>> approx(2652213.3), approx(6.2832), approx(1.5e-7, 2)
    ('2.65·10^{6}', '6.28', '1.5·10^{−7}')
    """
    mantissa, power = _power_of_ten(value, digits)
    return mantissa if power is None else f"{mantissa}·10^{{{power}}}"


def _power_of_ten(value: float, digits: int) -> tuple[str, str | None]:
    """``value`` to ``digits`` significant digits by ``g`` formatting, split into the
    mantissa and the power of ten it printed (``None`` when it printed none), the
    power's sign a minus U+2212 (for :func:`approx` and :func:`approx_text`)."""
    mantissa, e, exponent = f"{value:.{digits}g}".partition("e")
    if not e:
        return mantissa, None
    power = int(exponent)
    return mantissa, f"{'−' if power < 0 else ''}{abs(power)}"


_SUPERSCRIPTS = str.maketrans("0123456789−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def approx_text(value: float, digits: int = 3) -> str:
    """:func:`approx` as plain text, its power of ten in superscript characters: a
    tiny difference in a plot title, a verdict or a note ("max 5.6·10⁻¹⁷", where ``g``
    formatting wrote "5.6e-17"), as a text shown where no markup is read (the verdict
    line, a menu).

    Examples
    --------
    >>> approx_text(5.55e-17, 2), approx_text(3.1234e-7), approx_text(0.422), approx_text(2.2e6, 2)
    ('5.6·10⁻¹⁷', '3.12·10⁻⁷', '0.422', '2.2·10⁶')
    """
    mantissa, power = _power_of_ten(value, digits)
    return mantissa if power is None else f"{mantissa}·10{power.translate(_SUPERSCRIPTS)}"


def escape(text: str) -> str:
    """``text`` as markup that shows it literally (e.g. a file name with ``_``)."""
    return re.sub(r"([\\_^{}])", r"\\\1", text)


def terms(markup: str) -> list[tuple[str, str]]:
    """Split ``markup`` at its term breaks: ``[(term, separator before it), ...]``.

    Runs of two or more spaces outside braces separate terms; the first term's
    separator is ``""``.
    """
    out: list[tuple[str, str]] = []
    depth, start, sep = 0, 0, ""
    # (only what matters is looked at: an escape with the character it escapes, a
    # brace, a run of spaces; a formula that follows a slider is split on every
    # frame, and a loop over its ~150 characters was ~300 calls)
    for token in _TERM_TOKENS.finditer(markup):
        ch = token[0][0]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == " " and depth == 0:
            out.append((markup[start : token.start()], sep))
            sep, start = token[0], token.end()
    out.append((markup[start:], sep))
    return [(t, s) for t, s in out if t or s]


def parse(markup: str) -> tuple[Node, ...]:
    """The nodes of ``markup`` (term breaks are kept as spaces in the text).

    Raises
    ------
    FormulaError
        Unbalanced braces, a script with nothing to attach, an unknown command.
    """
    markup = _NEGATIVE.sub("−", markup)
    nodes, end = _parse(markup, 0, markup)
    if end != len(markup):
        raise FormulaError(f"unbalanced '}}' at {end} in formula markup {markup!r}")
    return nodes


def _parse(s: str, i: int, whole: str) -> tuple[tuple[Node, ...], int]:
    """Nodes from ``s[i:]`` up to a closing brace (not consumed) or the end."""
    nodes: list[Node] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            nodes.append(Text("".join(buf)))
            buf.clear()

    while i < len(s):
        ch = s[i]
        if ch == "}":
            break
        if ch == "{":
            group, i = _group(s, i, whole)
            flush()
            nodes.extend(group)
            continue
        if ch == "\\":
            name = re.match(r"[a-zA-Z]+", s[i + 1 :])
            if name is None:
                if i + 1 >= len(s) or s[i + 1] not in _ESCAPES:
                    raise FormulaError(f"bad escape at {i} in formula markup {whole!r}")
                buf.append(_ESCAPES[s[i + 1]])
                i += 2
                continue
            command = name.group(0)
            if command not in _COMMANDS:
                raise FormulaError(f"unknown command \\{command} in formula markup {whole!r}")
            i += 1 + len(command)
            args = []
            for _ in range(_COMMANDS[command]):
                arg, i = _group(s, i, whole)
                args.append(arg)
            flush()
            if command == "frac":
                nodes.append(Frac(args[0], args[1]))
            elif command == "sqrt":
                nodes.append(Sqrt(args[0]))
            else:
                nodes.append(Text(plain_text_nodes(args[0]), upright=True))
            continue
        if ch in "_^":
            flush()
            if not nodes:
                raise FormulaError(f"'{ch}' with no base at {i} in formula markup {whole!r}")
            arg, i = _script_arg(s, i + 1, whole)
            last = nodes[-1]
            if isinstance(last, Script) and (last.sub if ch == "_" else last.sup) is None:
                nodes[-1] = Script(arg, last.sup) if ch == "_" else Script(last.sub, arg)
            else:
                nodes.append(Script(arg, None) if ch == "_" else Script(None, arg))
            continue
        run = _PLAIN_RUN.match(s, i)
        assert run is not None  # (ch is none of the characters handled above)
        buf.append(run[0])
        i = run.end()
    flush()
    return tuple(nodes), i


def _group(s: str, i: int, whole: str) -> tuple[tuple[Node, ...], int]:
    """A braced group starting at ``s[i]``; returns its nodes and the index after it."""
    if i >= len(s) or s[i] != "{":
        raise FormulaError(f"expected '{{' at {i} in formula markup {whole!r}")
    nodes, end = _parse(s, i + 1, whole)
    if end >= len(s):
        raise FormulaError(f"unclosed '{{' at {i} in formula markup {whole!r}")
    return nodes, end + 1


def _script_arg(s: str, i: int, whole: str) -> tuple[tuple[Node, ...], int]:
    """A script's argument: a braced group, a command, or one character (with its
    combining marks)."""
    if i >= len(s):
        raise FormulaError(f"script without argument at the end of formula markup {whole!r}")
    if s[i] == "{":
        return _group(s, i, whole)
    if s[i] == "\\":
        name = re.match(r"\\([a-zA-Z]+)", s[i:])
        if name is None:  # an escaped character
            if s[i + 1 : i + 2] not in _ESCAPES:
                raise FormulaError(f"bad escape at {i} in formula markup {whole!r}")
            return (Text(_ESCAPES[s[i + 1]]),), i + 2
        j = i + 1 + len(name.group(1))
        for _ in range(_COMMANDS.get(name.group(1), 0)):
            _, j = _group(s, j, whole)
        return _parse(s[i:j], 0, whole)[0], j
    j = i + 1
    while j < len(s) and unicodedata.combining(s[j]):
        j += 1
    return (Text(s[i:j]),), j


# ----------------------------------------------------------------------------- plain text
_SIMPLE = re.compile(r"[\w.′']+")


def plain_text(markup: str) -> str:
    """The plain-text form of ``markup`` (see the module docstring).

    Made term by term, each term's form cached: a formula that follows a slider changes
    only the terms holding values (the same text as from the whole markup at once).
    """
    try:
        return "".join(sep + _plain_term(term) for term, sep in terms(markup))
    except FormulaError:
        return plain_text_nodes(parse(markup))  # the whole markup's own error


@lru_cache(maxsize=512)
def _plain_term(term: str) -> str:
    return plain_text_nodes(parse(term))


def plain_text_nodes(nodes: tuple[Node, ...]) -> str:
    """The plain-text form of parsed nodes."""
    out: list[str] = []
    for node in nodes:
        if isinstance(node, Text):
            out.append(node.text)
        elif isinstance(node, Script):
            for mark, part in (("_", node.sub), ("^", node.sup)):
                if part is not None:
                    out.append(mark + _wrapped(plain_text_nodes(part)))
        elif isinstance(node, Frac):
            num, den = plain_text_nodes(node.num), plain_text_nodes(node.den)
            out.append(f"{_operand(num)}/{_operand(den)}")
        else:
            body = plain_text_nodes(node.body)
            out.append("√" + _wrapped(body))
    return "".join(out)


def _wrapped(text: str) -> str:
    """``text`` as a script or root argument: parenthesised unless one word."""
    return text if _SIMPLE.fullmatch(text) else f"({text})"


def _operand(text: str) -> str:
    """``text`` as a side of an inline fraction: parenthesised when it holds a sum
    or another fraction."""
    return f"({text})" if re.search(r"[+−/]|\s-", text) else text


def glyph_text(markup: str) -> str:
    """The characters the typeset formula draws, in order (no markup, no brackets the
    plain form adds): what an SVG export holds as text."""

    def walk(nodes: tuple[Node, ...]) -> str:
        out = []
        for node in nodes:
            if isinstance(node, Text):
                out.append(node.text)
            elif isinstance(node, Script):
                out.extend(walk(p) for p in (node.sub, node.sup) if p is not None)
            elif isinstance(node, Frac):
                out.append(walk(node.num) + walk(node.den))
            else:
                out.append(walk(node.body))
        return "".join(out)

    return walk(parse(markup))


def scripts(markup: str) -> list[tuple[str, str | None, str | None]]:
    """Every script as ``(base, sub, sup)`` in plain text (``base``: the word or
    character it is attached to), in order, including those inside fractions and
    roots."""
    found: list[tuple[str, str | None, str | None]] = []

    def walk(nodes: tuple[Node, ...]) -> None:
        prev = ""
        for node in nodes:
            if isinstance(node, Script):
                words = re.findall(r"[\w.]+|\S", prev)
                base = words[-1] if words else ""
                sub = None if node.sub is None else plain_text_nodes(node.sub)
                sup = None if node.sup is None else plain_text_nodes(node.sup)
                found.append((base, sub, sup))
                for part in (node.sub, node.sup):
                    if part is not None:
                        walk(part)
                prev += (sub or "") + (sup or "")
                continue
            if isinstance(node, Frac):
                walk(node.num)
                walk(node.den)
            elif isinstance(node, Sqrt):
                walk(node.body)
            prev = node.text if isinstance(node, Text) else plain_text_nodes((node,))
        return None

    walk(parse(markup))
    return found


# ----------------------------------------------------------------------------- italics
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?")
# a word: Latin letters (digits, ``_`` after the first); a Greek letter is a word alone
_WORD = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*|[\u0370-\u03ff])[\u0300-\u036f]*")


def _is_variable(word: str) -> bool:
    """A single Latin letter or lowercase Greek letter (with combining marks)."""
    if word.isascii():  # (no combining marks: the word is its base)
        return len(word) == 1 and ("a" <= word <= "z" or "A" <= word <= "Z")
    base = "".join(c for c in word if not unicodedata.combining(c))
    if len(base) != 1:
        return False
    c = base
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or ("\u03b1" <= c <= "\u03c9")


def runs(text: str) -> list[tuple[str, bool]]:
    """``text`` split into ``(piece, italic)`` runs: variables italic, the rest upright.

    Numbers (``1e-05`` included) and words of two or more letters (``sin``, ``PE``,
    ``T5``, ``d_head``'s ``head``) are upright.
    """
    out: list[tuple[str, bool]] = []
    # (one pass over the tokens: a number, a word, or any other character, tried in
    # that order at each place; a formula that follows a slider splits its value
    # terms anew on every frame, and a match of each kind a place was ~6 calls)
    italic_last = None
    for token in _RUN_TOKENS.finditer(text):
        piece = token[0]
        italic = token.lastindex == 2 and _is_variable(piece)
        if italic is italic_last:
            out[-1] = (out[-1][0] + piece, italic)
        else:
            out.append((piece, italic))
            italic_last = italic
    return out


_RUN_TOKENS = re.compile(f"({_NUMBER.pattern})|({_WORD.pattern})|(.)", re.DOTALL)


# ----------------------------------------------------------------------------- labels
_WORD_CHAR = re.compile(r"\w|\.\w")  # a script character followed by this starts a word
_SCRIPT_SIGNS = "*′+−"  # a one-character script besides letters and digits (x^*, x^′)


def _group_end(text: str, start: int, pair: str = "{}") -> int:
    """The index of the bracket closing the one at ``text[start]`` (``pair``: the
    opening and closing brackets, a brace by default, ``"()"`` for a parenthesised
    superscript); -1 when unclosed."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == pair[0]:
            depth += 1
        elif text[i] == pair[1]:
            depth -= 1
            if depth == 0:
                return i
    return -1


#: what a parenthesised superscript ``^(…)`` may follow, ending at the ``^``: a number,
#: a variable (letters and digits, ``base``, ``θ``, ``ζᵢ``) or one with a subscript
#: (``ζ_i``, ``R_{i−j}``), not continuing an identifier, a name after a dot or an escape
#: (``d_rot^(2)``, ``torch.x^(2)``, ``\\x^(2)`` stay as written)
_PAREN_BASE = re.compile(
    r"(?<![\w.\\])(?:\d+(?:\.\d+)?|[^\W\d_][^\W_]*(?:_(?:[^\W_]|\{[^{}]+\}))?)\Z"
)


@lru_cache(maxsize=4096)
def label_markup(text: str) -> str:
    """A label's plain text (a title, an axis title, a legend entry) as markup: each
    ``_`` / ``^`` with a base before it and a braced group or one letter, digit or
    sign (``*′+−``) after it that starts no longer word (``m_h``, ``q_i·k_j``,
    ``R_{i−j}``, ``2^{−8h/n}``) is a script, and so is ``^(…)`` after a number or a
    (subscripted) variable: ``2^(−8h/n)`` as ``2^{−8h/n}``; every other ``_``, ``^``,
    ``\\``, ``{`` and ``}`` is escaped (shown as it stands: ``get_rope_index``,
    ``A_ij``, ``pos_1.npy``, ``d_rot^(2)``). See the module docstring."""
    out: list[str] = []
    closes: list[int] = []  # where the script groups opened so far close
    i = 0
    while i < len(text):
        ch = text[i]
        if closes and i == closes[-1]:
            out.append("}")
            closes.pop()
            i += 1
            continue
        if ch in "_^" and i > 0 and not text[i - 1].isspace() and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "{":
                end = _group_end(text, i + 1)
                if end > i + 2 and (not closes or end < closes[-1]):
                    out.append(ch + "{")
                    closes.append(end)
                    i += 2
                    continue
            elif nxt == "(":
                # a superscript written in parentheses, as prose writes it: 2^(−8h/n)
                end = _group_end(text, i + 1, "()")
                if (
                    ch == "^"
                    and end > i + 2
                    and (not closes or end < closes[-1])
                    and _PAREN_BASE.search(text, 0, i)
                ):
                    out.append("^{")
                    closes.append(end)
                    i += 2
                    continue
            elif (nxt.isalnum() or nxt in _SCRIPT_SIGNS) and not _WORD_CHAR.match(text, i + 2):
                out.append(ch + nxt)
                i += 2
                continue
        # a label's hyphen stays one (code such as "bias = -0.1 * torch.arange(8)" in
        # prose): the formula line sets a value's minus (_NEGATIVE), and the app sets it
        # with minus_signs where it draws a view's titles, legends, verdict and notes
        out.append("\\" + ch if ch in "\\{}_^" or (ch == "-" and _NEGATIVE.match(text, i)) else ch)
        i += 1
    return "".join(out)


def rich_text(markup: str) -> str:
    """``markup`` as Qt rich text: its text escaped, scripts as ``<sub>`` / ``<sup>``,
    a fraction inline (``a/b``), a root as ``√``. Raises :class:`FormulaError` for
    malformed markup."""

    def walk(nodes: tuple[Node, ...]) -> str:
        out: list[str] = []
        for node in nodes:
            if isinstance(node, Text):
                out.append(html.escape(node.text, quote=False))
            elif isinstance(node, Script):
                for tag, part in (("sub", node.sub), ("sup", node.sup)):
                    if part is not None:
                        out.append(f"<{tag}>{walk(part)}</{tag}>")
            elif isinstance(node, Frac):
                num, den = plain_text_nodes(node.num), plain_text_nodes(node.den)
                out.append(
                    _parens(walk(node.num), _operand(num) != num)
                    + "/"
                    + _parens(walk(node.den), _operand(den) != den)
                )
            else:
                body = plain_text_nodes(node.body)
                out.append("√" + _parens(walk(node.body), _wrapped(body) != body))
        return "".join(out)

    return walk(parse(markup))


def _parens(text: str, wrap: bool) -> str:
    return f"({text})" if wrap else text


#: the characters :func:`label_markup` may read as markup (scripts, groups, escapes)
_MARKUP_CHARS = re.compile(r"[\\{}_^]")


def marks_nothing(text: str) -> bool:
    """Whether ``text`` has no character that :func:`label_markup` may read as markup
    (``_ ^ \\ { }``): its markup then draws the text as it stands (a hyphen before a
    digit is escaped and read back as the hyphen), and :func:`label_rich_text` is the
    text HTML-escaped, :func:`glyph_text` of its markup the text itself."""
    return _MARKUP_CHARS.search(text) is None


@lru_cache(maxsize=1024)
def label_rich_text(text: str) -> str:
    """A label's plain text as the rich text a plot draws: :func:`rich_text` of
    :func:`label_markup` (escaped text alone should the markup still not parse).

    A text that marks nothing (:func:`marks_nothing`) is escaped without being parsed:
    the same rich text. Titles and notes that follow a slider are new texts on every
    frame of a drag (the clock's plane title and its note: ~500 calls a frame parsed)."""
    if marks_nothing(text):
        return html.escape(text, quote=False)
    try:
        return rich_text(label_markup(text))
    except FormulaError:  # (label_markup makes none: kept safe for any text)
        return html.escape(text, quote=False)
