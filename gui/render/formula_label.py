"""The formula line, typeset: sub- and superscripts, italic variables, fractions, roots.

:class:`FormulaLabel` shows :mod:`core.formula` markup. It lays the formula out itself
(a few boxes per term measured with ``QFontMetricsF``) and draws it with
``QPainter.drawText`` and lines, so the same drawing lands on screen, in PNG exports
and, as ``<text>`` elements plus paths, in SVG exports. A long formula wraps only
between terms (runs of two spaces in the markup); only a term wider than the whole line
is broken, at its spaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from PySide6 import QtCore, QtGui, QtWidgets

from core.formula import FormulaError, Frac, Node, Script, Sqrt, Text, parse, plain_text, runs
from core.formula import terms as split_terms
from gui.render.opaque import keep_opaque, make_opaque, paint_behind
from gui.render.scripts import SCRIPT_SHARE

FAMILIES = ["DejaVu Serif", "Cambria Math", "Cambria", "STIX Two Text", "Times New Roman"]
#: font size by script level: scripts of scripts no smaller than the first level's, a
#: minimum share of the body (0.72 and 0.58 before: 10.8 and 8.7 pt beside a 15 pt formula
#: at 100 %, 6.5 and 5.2 pt where the formula was drawn at 60 % to fit a short screen)
SCRIPT_SCALE = (1.0, SCRIPT_SHARE, SCRIPT_SHARE)  # (the plots' rich text's share too)
FRACTION_SCALE = 0.85  # fraction parts at the formula line's level 0


@dataclass
class _Piece:
    """A drawing command, relative to a box's origin (left end of its baseline)."""

    kind: str  # "text" or "path"
    x: float
    y: float
    text: str = ""
    font: QtGui.QFont | None = None
    path: QtGui.QPainterPath | None = None
    width: float = 1.0
    role: str = ""  # "sub" / "sup" for scripts (tests, layout checks)


@dataclass
class _Box:
    x_advance: float = 0.0
    ascent: float = 0.0
    descent: float = 0.0
    pieces: list[_Piece] = field(default_factory=list)

    def add(self, other: _Box, dx: float, dy: float = 0.0, role: str = "") -> None:
        """Put ``other`` with its origin at ``(dx, dy)`` of this box."""
        for p in other.pieces:
            path = p.path.translated(dx, dy) if p.path is not None else None
            self.pieces.append(
                _Piece(p.kind, p.x + dx, p.y + dy, p.text, p.font, path, p.width, p.role or role)
            )
        self.ascent = max(self.ascent, other.ascent - dy)
        self.descent = max(self.descent, other.descent + dy)


class _Typesetter:
    """Lays nodes out in boxes for one base font."""

    def __init__(self, base: QtGui.QFont) -> None:
        self.base = base
        self._fonts: dict[tuple[float, bool], tuple[QtGui.QFont, QtGui.QFontMetricsF]] = {}
        self._run_cache: dict[
            tuple[str, bool, float], list[tuple[str, bool, QtGui.QFont, float]]
        ] = {}

    def font(self, scale: float, italic: bool) -> tuple[QtGui.QFont, QtGui.QFontMetricsF]:
        key = (scale, italic)
        if key not in self._fonts:
            font = QtGui.QFont(self.base)
            font.setPointSizeF(max(4.0, self.base.pointSizeF() * scale))
            font.setItalic(italic)
            self._fonts[key] = (font, QtGui.QFontMetricsF(font))
        return self._fonts[key]

    def _runs(self, node: Text, scale: float) -> list[tuple[str, bool, QtGui.QFont, float]]:
        """``(text, italic, font, advance)`` of each run of ``node`` at ``scale``, kept
        per text: a formula that follows a slider sets its value terms anew on each
        frame, and most of their runs ("pair 0: m·θ = ") are the same as before."""
        key = (node.text, node.upright, scale)
        found = self._run_cache.get(key)
        if found is None:
            found = []
            for text, italic in [(node.text, False)] if node.upright else runs(node.text):
                font, metrics = self.font(scale, italic)
                found.append((text, italic, font, metrics.horizontalAdvance(text)))
            if len(self._run_cache) >= 2048:
                self._run_cache.clear()
            self._run_cache[key] = found
        return found

    def em(self, scale: float) -> float:
        return self.font(scale, False)[1].height() * 0.85

    def hbox(self, nodes: tuple[Node, ...], level: int, scale: float) -> _Box:
        box = _Box()
        _, fm = self.font(scale, False)
        box.ascent, box.descent = fm.ascent(), fm.descent()
        italic_end = False
        for node in nodes:
            if isinstance(node, Text):
                for text, italic, font, advance in self._runs(node, scale):
                    if italic_end and not italic:
                        box.x_advance += 0.06 * self.em(scale)  # italic correction
                    box.pieces.append(_Piece("text", box.x_advance, 0.0, text, font))
                    box.x_advance += advance
                    italic_end = italic and not text[-1:].isspace()
                continue
            if italic_end:
                box.x_advance += 0.06 * self.em(scale)
            italic_end = False
            if isinstance(node, Script):
                self._script(box, node, level, scale)
            elif isinstance(node, Frac):
                self._frac(box, node, level, scale)
            else:
                self._sqrt(box, node, level, scale)
        return box

    def _script(self, box: _Box, node: Script, level: int, scale: float) -> None:
        inner = SCRIPT_SCALE[min(level + 1, len(SCRIPT_SCALE) - 1)]
        sub_scale = scale * inner / SCRIPT_SCALE[min(level, len(SCRIPT_SCALE) - 1)]
        em = self.em(scale)
        parts = []  # subscript first: the order core.formula.glyph_text reads them
        if node.sub is not None:
            sub = self.hbox(node.sub, level + 1, sub_scale)
            shift = max(0.2 * em, sub.ascent - 0.55 * em)
            if node.sup is not None:
                shift = max(shift, 0.3 * em)
            parts.append((sub, shift, "sub"))
        if node.sup is not None:
            sup = self.hbox(node.sup, level + 1, sub_scale)
            shift = max(0.42 * em, sup.descent + 0.25 * em)
            parts.append((sup, -shift, "sup"))
        x0 = box.x_advance + 0.02 * em
        for part, dy, role in parts:
            box.add(part, x0, dy, role)
        box.x_advance = x0 + max(p.x_advance for p, _, _ in parts) + 0.04 * em

    def _axis(self, scale: float) -> float:
        """Height of the math axis (the middle of a minus sign) above the baseline."""
        _, fm = self.font(scale, False)
        return fm.tightBoundingRect("−").center().y() * -1 or fm.xHeight() / 2

    def _rule(self, scale: float) -> float:
        return max(1.0, self.em(scale) * 0.055)

    def _frac(self, box: _Box, node: Frac, level: int, scale: float) -> None:
        inner = scale * FRACTION_SCALE if level == 0 else scale
        num, den = self.hbox(node.num, level, inner), self.hbox(node.den, level, inner)
        em, rule = self.em(scale), self._rule(scale)
        axis, gap, pad = self._axis(scale), 0.12 * em, 0.1 * em
        width = max(num.x_advance, den.x_advance) + 2 * pad
        x0 = box.x_advance + 0.08 * em
        bar_y = -axis
        box.add(num, x0 + (width - num.x_advance) / 2, bar_y - rule / 2 - gap - num.descent, "num")
        box.add(den, x0 + (width - den.x_advance) / 2, bar_y + rule / 2 + gap + den.ascent, "den")
        path = QtGui.QPainterPath(QtCore.QPointF(x0, bar_y))
        path.lineTo(x0 + width, bar_y)
        box.pieces.append(_Piece("path", 0.0, 0.0, path=path, width=rule, role="bar"))
        box.x_advance = x0 + width + 0.08 * em

    def _sqrt(self, box: _Box, node: Sqrt, level: int, scale: float) -> None:
        body = self.hbox(node.body, level, scale)
        em, rule = self.em(scale), self._rule(scale)
        gap = 0.12 * em
        top, bottom = -(body.ascent + gap + rule / 2), body.descent
        x0 = box.x_advance + 0.05 * em
        sign = 0.55 * em
        path = QtGui.QPainterPath(QtCore.QPointF(x0, -0.3 * em))
        path.lineTo(x0 + 0.12 * em, -0.38 * em)
        path.lineTo(x0 + 0.3 * em, bottom)
        path.lineTo(x0 + sign, top)
        path.lineTo(x0 + sign + body.x_advance + 0.08 * em, top)
        box.pieces.append(_Piece("path", 0.0, 0.0, path=path, width=rule, role="root"))
        box.add(body, x0 + sign + 0.04 * em)
        box.ascent = max(box.ascent, -top + rule)
        box.x_advance = x0 + sign + body.x_advance + 0.12 * em


@dataclass
class _Term:
    separator: str
    box: _Box
    atoms: tuple[tuple[Node, ...], ...]  # the term cut at its single spaces (for an overlong term)


@dataclass
class FormulaLayout:
    """A laid-out formula: its lines of placed pieces and where each term went.

    Attributes
    ----------
    pieces
        Drawing commands in widget coordinates (text at its baseline).
    lines
        For each line, the indices of the terms it holds (a term broken at its spaces
        because it is wider than the line appears on several lines).
    size
        Width and height of the whole formula.
    """

    pieces: list[_Piece]
    lines: list[list[int]]
    size: QtCore.QSizeF

    def text_pieces(self, role: str | None = None) -> list[tuple[str, QtCore.QRectF, float]]:
        """``(text, ink-free box, baseline y)`` of each text piece (``role``: only
        scripts ``"sub"``/``"sup"``, ``""`` only text on the main line)."""
        out = []
        for p in self.pieces:
            if p.font is None or (role is not None and p.role != role):
                continue
            fm = QtGui.QFontMetricsF(p.font)
            rect = QtCore.QRectF(p.x, p.y - fm.ascent(), fm.horizontalAdvance(p.text), fm.height())
            out.append((p.text, rect, p.y))
        return out


@lru_cache(maxsize=64)
def _parsed(markup: str) -> tuple[tuple[str, tuple[Node, ...], tuple[tuple[Node, ...], ...]], ...]:
    """Terms of ``markup``: ``(separator, nodes, atoms)`` (atoms: split at spaces)."""
    return tuple((sep, *_parsed_term(term)) for term, sep in split_terms(markup))


@lru_cache(maxsize=512)
def _parsed_term(term: str) -> tuple[tuple[Node, ...], tuple[tuple[Node, ...], ...]]:
    """``(nodes, atoms)`` of one term. Cached per term: a formula that follows a slider
    changes a few terms (the values) and keeps the rest."""
    nodes = parse(term)
    atoms: list[list[Node]] = [[]]
    for node in nodes:
        if isinstance(node, Text) and " " in node.text and not node.upright:
            parts = node.text.split(" ")
            for k, part in enumerate(parts):
                if k:
                    atoms.append([])
                if part:
                    atoms[-1].append(Text(part + (" " if k < len(parts) - 1 else "")))
        else:
            atoms[-1].append(node)
    return nodes, tuple(tuple(a) for a in atoms if a)


class TermCache:
    """Laid-out terms by base font and term, shared by every layout (boxes are never
    changed once made: lines copy their pieces). ``hits``/``misses`` for tests."""

    MAX = 512
    boxes: dict[tuple[str, tuple[Node, ...]], _Box] = {}
    # boxes of a term's atoms, set only for a term wider than a line it is laid out in
    atom_boxes: dict[tuple[str, tuple[tuple[Node, ...], ...]], list[_Box]] = {}
    setters: dict[str, _Typesetter] = {}
    #: whole layouts and the terms of a markup (see :func:`layout_formula`)
    MAX_LAYOUTS = 32
    layouts: dict[tuple[str, str, tuple[int, ...], tuple[int, ...]], FormulaLayout] = {}
    term_lists: dict[tuple[str, str], tuple[float, list[_Term]]] = {}
    hits = 0
    misses = 0

    @classmethod
    def term(cls, font: QtGui.QFont, nodes: tuple[Node, ...]) -> _Box:
        """The box of the term ``nodes`` set in ``font``."""
        key = (font.key(), nodes)
        found = cls.boxes.get(key)
        if found is not None:
            cls.hits += 1
            return found
        cls.misses += 1
        found = cls.setter(font).hbox(nodes, 0, 1.0)
        if len(cls.boxes) >= cls.MAX:
            cls.boxes.clear()
        cls.boxes[key] = found
        return found

    @classmethod
    def atoms(cls, font: QtGui.QFont, atoms: tuple[tuple[Node, ...], ...]) -> list[_Box]:
        """The boxes of a term's ``atoms`` set in ``font`` (a term wider than its line is
        broken at its spaces: only then are its atoms set, not for every new value of
        a formula that follows a slider)."""
        key = (font.key(), atoms)
        found = cls.atom_boxes.get(key)
        if found is None:
            setter = cls.setter(font)
            found = [setter.hbox(a, 0, 1.0) for a in atoms]
            if len(cls.atom_boxes) >= cls.MAX:
                cls.atom_boxes.clear()
            cls.atom_boxes[key] = found
        return found

    @classmethod
    def clear(cls) -> None:
        """Forget every kept box, layout and typesetter (tests: a layout from nothing)."""
        for kept in (cls.boxes, cls.atom_boxes, cls.setters, cls.layouts, cls.term_lists):
            kept.clear()

    @classmethod
    def setter(cls, font: QtGui.QFont) -> _Typesetter:
        """The typesetter of ``font`` (its derived fonts and metrics made once)."""
        key = font.key()
        setter = cls.setters.get(key)
        if setter is None:
            if len(cls.setters) >= 16:
                cls.setters.clear()
            setter = cls.setters[key] = _Typesetter(QtGui.QFont(font))
        return setter


def layout_formula(markup: str, font: QtGui.QFont, width: float) -> FormulaLayout:
    """Lay ``markup`` out in lines no wider than ``width`` (wrapping between terms).

    A formula is laid out at more than one width a frame (the label's own, and its
    layout's height-for-width a few px wider): its terms' boxes are kept per markup and
    font (:func:`_term_list`), and the layout per markup, font and the terms' places in
    lines (the widths of a frame mostly break its lines alike): at a second width only
    the lines are worked out again. Each place gave a new formula ~700 calls, twice a
    frame of a drag."""
    font_key = font.key()
    em, term_boxes = _term_list(markup, font, font_key)
    # place terms (or, for a term wider than the line, its atoms) in lines
    lines: list[list[tuple[int, _Box]]] = [[]]
    xs: list[list[float]] = [[]]
    units_of: list[int] = []  # (which terms were broken into their atoms)
    x = 0.0
    for index, term in enumerate(term_boxes):
        gap = em * (1.0 if len(term.separator) >= 2 else 0.3) if term.separator else 0.0
        if term.box.x_advance <= width:
            units = [term.box]
        else:
            units = TermCache.atoms(font, term.atoms)
            units_of.append(index)
        for k, unit in enumerate(units):
            space = gap if k == 0 else 0.0
            if lines[-1] and x + space + unit.x_advance > width:
                lines.append([])
                xs.append([])
                x, space = 0.0, 0.0
            lines[-1].append((index, unit))
            xs[-1].append(x + space)
            x += space + unit.x_advance
    # (the places decide the layout: the same units at the same x in the same lines)
    key = (markup, font_key, tuple(units_of), tuple([len(line) for line in lines]))
    found = TermCache.layouts.get(key)
    if found is not None:
        return found
    pieces: list[_Piece] = []
    leading = 0.2 * em
    y = 0.0
    widest = 0.0
    for line, line_x in zip(lines, xs, strict=True):
        if not line:
            continue
        ascent = max([b.ascent for _, b in line])
        descent = max([b.descent for _, b in line])
        # (each piece placed once, at its line's x and baseline: the row's box and its
        # copy of the pieces made the same numbers, a piece more a piece)
        for (_, box), bx in zip(line, line_x, strict=True):
            for p in box.pieces:
                path = p.path.translated(bx, 0.0) if p.path is not None else None
                if path is not None:
                    path = path.translated(0.0, y + ascent)
                pieces.append(
                    _Piece(
                        p.kind,
                        p.x + bx,
                        p.y + 0.0 + y + ascent,
                        p.text,
                        p.font,
                        path,
                        p.width,
                        p.role,
                    )
                )
        widest = max(widest, line_x[-1] + line[-1][1].x_advance)
        y += ascent + descent + leading
    used = [sorted({i for i, _ in line}) for line in lines if line]
    result = FormulaLayout(pieces, used, QtCore.QSizeF(widest, max(0.0, y - leading)))
    if len(TermCache.layouts) >= TermCache.MAX_LAYOUTS:
        TermCache.layouts.clear()
    TermCache.layouts[key] = result
    return result


def _term_list(markup: str, font: QtGui.QFont, font_key: str) -> tuple[float, list[_Term]]:
    """The em of ``font`` and the terms of ``markup`` set in it, kept per markup and
    font key (:data:`TermCache.term_lists`)."""
    key = (markup, font_key)
    found = TermCache.term_lists.get(key)
    if found is None:
        setter = TermCache.setter(font)
        try:
            parsed = _parsed(markup)
        except FormulaError:
            parsed = (("", (Text(markup, upright=True),), ((Text(markup, upright=True),),)),)
        terms = [_Term(sep, TermCache.term(font, nodes), atoms) for sep, nodes, atoms in parsed]
        if len(TermCache.term_lists) >= TermCache.MAX_LAYOUTS:
            TermCache.term_lists.clear()
        found = TermCache.term_lists[key] = (setter.em(1.0), terms)
    return found


@lru_cache(maxsize=1)
def _math_family() -> str:
    """The first of :data:`FAMILIES` installed, else the system's serif font."""
    installed = set(QtGui.QFontDatabase.families())
    for family in FAMILIES:
        if family in installed:
            return family
    font = QtGui.QFont()
    font.setStyleHint(QtGui.QFont.StyleHint.Serif)
    return QtGui.QFontInfo(font).family()


class FormulaLabel(QtWidgets.QWidget):
    """Typeset formula line (a drop-in for the ``QLabel`` it replaces: ``setText`` takes
    :mod:`core.formula` markup, ``text`` gives the plain form)."""

    MARGIN = 2
    FIT_SCALES = (1.0, 0.9, 0.8, 0.7, 0.6)
    """Sizes (of the base font) tried, largest first, when a :meth:`set_max_height` is
    set: the formula is drawn at the largest at which it is no taller (at the last
    when none is). Nothing is left out: a smaller font only wraps into fewer lines."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self._markup = ""
        self._plain = ""
        # layouts by width (the label's own and its height-for-width's, a few px
        # apart: one kept layout was made again at each, twice a frame), each with
        # the fit it was made at (fit_scale: the last layout asked for)
        self._cache: dict[float, tuple[FormulaLayout, tuple[float, int, float] | None]] = {}
        # the size fitted last at each (width, maximum height): where a search starts
        self._fit_at: dict[tuple[float, int], float] = {}
        self._max_height = 0  # px; 0: none (see set_max_height)
        self._held = 0  # px kept while live frames go on (see hold_height); 0: none
        self._fit: tuple[float, int, float] | None = None  # (width, limit, scale) last fitted
        self._font = QtGui.QFont()  # own font: style sheets set every widget's font size
        policy = QtWidgets.QSizePolicy(
            QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Minimum
        )
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        copy = QtGui.QAction("Copy formula", self)
        copy.triggered.connect(lambda: QtGui.QGuiApplication.clipboard().setText(self._plain))
        self.addAction(copy)
        self.setContextMenuPolicy(QtCore.Qt.ContextMenuPolicy.ActionsContextMenu)
        make_opaque(self)  # (see gui.render.opaque)
        self.set_point_size(13)

    # ----------------------------------------------------------------- content
    def setText(self, markup: str) -> None:
        """Show ``markup`` (see :mod:`core.formula`)."""
        if markup == self._markup:
            return
        self._markup = markup
        try:
            self._plain = plain_text(markup)
        except FormulaError:
            self._plain = markup
        self.setToolTip(self._plain)
        self._changed()

    def text(self) -> str:
        """The formula's plain-text form."""
        return self._plain

    def markup(self) -> str:
        return self._markup

    def set_point_size(self, points: float) -> None:
        """Base font size (scripts and fractions are set smaller)."""
        font = QtGui.QFont()
        font.setStyleHint(QtGui.QFont.StyleHint.Serif)
        font.setFamily(_math_family())  # one name: SVG exports name the font drawn
        font.setPointSizeF(points)
        if points != self._font.pointSizeF():
            self.release_height()  # (held for another size: a new scale or mode)
        self._font = font
        self._changed()

    def set_max_height(self, height: int) -> None:
        """Keep the formula at most ``height`` px tall (0: no limit) by drawing it
        smaller, down to the last of :data:`FIT_SCALES`: at 1280 × 720 on stage at
        200 % the relative view's formula wrapped into six lines, half the screen,
        and its grids started below the fold."""
        height = max(0, int(height))
        if height != self._max_height:
            self._max_height = height
            self._changed()

    def max_height(self) -> int:
        return self._max_height

    def hold_height(self) -> None:
        """Keep the label (shown) at least as tall as it is now until
        :meth:`release_height`: a formula that needs less room leaves it below, so that
        what lies below stays where it is while a drag or a sweep goes on (values that
        wrap and values that do not alternate in a drag, and the plots jumped up and
        down with them: Word order's base at 200 % on stage, 149 or 198 px).

        The formula is drawn at its own size all the while, the size it has settled
        (the largest of :data:`FIT_SCALES` within :meth:`max_height`), and one that
        needs more room makes the label taller (held at that height from the next
        frame on). The hold drew it smaller instead, to the held height, and kept that
        size for the rest of the drag: RoPE's m dragged on the 1280 x 720 stage at 200 %
        drew it at 0.6 where its own size was 0.7, and once let go the formula grew to
        its own size and the plots below moved (104 -> 128 px). Now the drag's last
        frame is laid out as the settled one: let go, nothing moves unless the value
        shown last needs less room than the drag's tallest."""
        height = self.height()
        if self.isVisible() and height > self._held:
            self._held = height
            self.setMinimumHeight(height)

    def release_height(self) -> bool:
        """The label takes its formula's own height again; whether :meth:`hold_height`
        had held it."""
        if not self._held:
            return False
        self._held = 0
        self.setMinimumHeight(0)
        self.updateGeometry()  # (the formula is drawn as it was: its layout stands)
        return True

    def held_height(self) -> int:
        """The height :meth:`hold_height` keeps (0: none)."""
        return self._held

    def _limit(self) -> int:
        """The most px the formula may take: the maximum height (0: no limit). The
        height held through a drag (:meth:`hold_height`) is the label's least, not
        the formula's most."""
        return self._max_height

    def fit_scale(self) -> float:
        """The size the formula is drawn at, relative to its base font (1: full)."""
        return 1.0 if self._fit is None else self._fit[2]

    def formula_font(self) -> QtGui.QFont:
        """The base font of the formula."""
        return QtGui.QFont(self._font)

    def _changed(self) -> None:
        self._cache = {}
        self.updateGeometry()
        self.update()

    # ----------------------------------------------------------------- layout
    def formula_layout(self, width: float | None = None) -> FormulaLayout:
        """The layout for ``width`` (default: the label's width), cached."""
        w = float(self.width() if width is None else width) - 2 * self.MARGIN
        found = self._cache.get(w)
        if found is not None:
            self._fit = found[1]
            return found[0]
        result = self._fitted_layout(max(w, 1.0))
        if len(self._cache) >= 4:
            self._cache = {}
        self._cache[w] = (result, self._fit)
        return result

    def _scaled_font(self, scale: float) -> QtGui.QFont:
        if scale == 1.0:
            return self._font
        font = QtGui.QFont(self._font)
        font.setPointSizeF(self._font.pointSizeF() * scale)
        return font

    def _fitted_layout(self, width: float) -> FormulaLayout:
        """The layout at the largest of :data:`FIT_SCALES` that is no taller than the
        maximum height (the last when none is). The search starts from the size
        fitted last at this width and maximum (a slider drag: one layout a frame), goes
        down while too tall and up while a larger size can fit: a larger font is at
        least as tall in proportion (its lines are as many or more), so the one chosen
        does not depend on what was shown before, nor on a drag's hold
        (:meth:`hold_height`)."""
        most = self._limit()
        if most <= 0:
            self._fit = None
            return layout_formula(self._markup, self._font, width)
        limit = most - 2 * self.MARGIN
        scales = self.FIT_SCALES
        k = 0
        start = self._fit_at.get((width, most))
        if start is not None:
            k = scales.index(start)
        result = layout_formula(self._markup, self._scaled_font(scales[k]), width)
        if result.size.height() > limit:
            while k + 1 < len(scales) and result.size.height() > limit:
                k += 1
                result = layout_formula(self._markup, self._scaled_font(scales[k]), width)
        else:
            while k > 0 and result.size.height() * scales[k - 1] / scales[k] <= limit:
                larger = layout_formula(self._markup, self._scaled_font(scales[k - 1]), width)
                if larger.size.height() > limit:
                    break
                k, result = k - 1, larger
        self._fit = (width, most, scales[k])
        if len(self._fit_at) >= 8:
            self._fit_at.clear()
        self._fit_at[(width, most)] = scales[k]
        return result

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        if not self._markup:
            return 0
        return int(self.formula_layout(width).size.height() + 0.999) + 2 * self.MARGIN

    def sizeHint(self) -> QtCore.QSize:
        if not self._markup:
            return QtCore.QSize(0, 0)
        width = max(self.width(), 200)
        return QtCore.QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(0, self.heightForWidth(max(self.width(), 200)))

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.release_height()  # (held for another width: a resize, F5 or Esc)
            self.updateGeometry()  # the height follows the width

    # ----------------------------------------------------------------- drawing
    def event(self, event: QtCore.QEvent) -> bool:
        handled = super().event(event)
        keep_opaque(self, event)  # (a style sheet may clear it)
        return handled

    def paintEvent(self, _event: QtGui.QPaintEvent) -> None:
        painter = QtGui.QPainter(self)
        try:
            paint_behind(self, painter)  # opaque: a new formula repaints the label alone
            if not self._markup:
                return
            painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
            painter.translate(self.MARGIN, self.MARGIN)
            self.draw(painter)
        finally:
            painter.end()

    def draw(self, painter: QtGui.QPainter) -> None:
        """Draw the formula at the painter's origin, in the label's text colour.

        The text pen is set before the first text and again after a line (a fraction's
        bar, a root) only, a font where it changes only (a formula's pieces mostly
        share a few fonts): setting the same pen and font before each of ~25 pieces
        was two calls into Qt a piece that drew nothing different."""
        color = self.palette().color(QtGui.QPalette.ColorRole.WindowText)
        font: QtGui.QFont | None = None
        text_pen = False
        for p in self.formula_layout().pieces:
            if p.font is not None:
                if p.font is not font:
                    font = p.font
                    painter.setFont(font)
                if not text_pen:
                    painter.setPen(color)
                    text_pen = True
                painter.drawText(QtCore.QPointF(p.x, p.y), p.text)
            elif p.path is not None:
                pen = QtGui.QPen(color, p.width)
                pen.setCapStyle(QtCore.Qt.PenCapStyle.FlatCap)
                pen.setJoinStyle(QtCore.Qt.PenJoinStyle.MiterJoin)
                painter.setPen(pen)
                painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
                painter.drawPath(p.path)
                text_pen = False
