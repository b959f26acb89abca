"""Keyboard help overlay (F1 or ?): every shortcut of the window, read from its QActions.

The list is generated each time the overlay opens, so actions added by any feature
installer appear automatically, grouped by menu.
"""

from __future__ import annotations

import html
import re

from PySide6 import QtCore, QtGui, QtWidgets

from gui.theme import current_theme
from gui.widgets.steady_scroll import SteadyScrollArea
from gui.window.protocol import StudioWindow


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def shortcut_text(action: QtGui.QAction) -> str:
    """All shortcuts of ``action`` as the user reads them (``Page Down, Right``)."""
    fmt = QtGui.QKeySequence.SequenceFormat.NativeText
    return ", ".join(s.toString(fmt) for s in action.shortcuts() if not s.isEmpty())


# Keys and mouse gestures that are no menu action (the stage's event filters handle
# them: gui.lecture.stage_strip, gui.widgets.view_widget, gui.lecture.focus).
STAGE_KEYS: list[tuple[str, str]] = [
    ("Nudge the main parameter (presenting; else previous / next scene)", "Left, Right"),
    ("Nudge by a larger step (presenting)", "Shift+Left, Shift+Right"),
    ("Scroll one plot row", "Down, Up"),
    ("Scroll one screen", "Shift+Down, Shift+Up"),
    ("Scroll the plots / zoom a plot", "Wheel / Ctrl+Wheel"),
    ("Focus a plot (again: back)", "Double-click"),
]


#: The help's text size: at most the theme's 11 pt (17 pt at most), and smaller, down to
#: ``HELP_MIN_PT``, until the whole list fits the window; below that it scrolls.
HELP_MAX_PT = 17
HELP_MIN_PT = 8
_NUMBERED = re.compile(r"^(.*\D)(\d+)$")


def _key_pattern(keys: str, number: int) -> str:
    """``keys`` with ``number`` (as a whole number) replaced by a placeholder."""
    return re.sub(rf"(?<![0-9]){number}(?![0-9])", "\0", keys)


def merge_numbered(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Three or more consecutive rows that differ only by a counted number, in the
    text's end and in the keys, as one row: ``Focus panel 1`` … ``Focus panel 9`` with
    ``1, Num+1`` … ``9, Num+9`` read ``Focus panel 1–9`` with ``1–9, Num+1–9`` (nine
    rows of the help said one thing)."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(rows):
        match = _NUMBERED.match(rows[i][0])
        last = i
        if match:
            stem, first = match.group(1), int(match.group(2))
            pattern = _key_pattern(rows[i][1], first)
            while last + 1 < len(rows):
                number = first + last + 1 - i
                nxt = _NUMBERED.match(rows[last + 1][0])
                if (
                    nxt is None
                    or nxt.group(1) != stem
                    or int(nxt.group(2)) != number
                    or _key_pattern(rows[last + 1][1], number) != pattern
                ):
                    break
                last += 1
        if last - i >= 2 and match is not None and "\0" in pattern:
            span = f"{first}–{first + last - i}"
            out.append((f"{stem}{span}", pattern.replace("\0", span)))
            i = last + 1
        else:
            out.append(rows[i])
            i += 1
    return out


def shortcut_table(qt_window: QtWidgets.QMainWindow) -> list[tuple[str, list[tuple[str, str]]]]:
    """``[(menu title, [(action text, shortcuts), ...]), ...]`` for every action with a
    shortcut, grouped by the menu holding it ("Other" for actions in no menu), then the
    keys and gestures that are no action (:data:`STAGE_KEYS`)."""
    sections: list[tuple[str, list[tuple[str, str]]]] = []
    seen: set[int] = set()

    def collect(menu: QtWidgets.QMenu, rows: list[tuple[str, str]]) -> None:
        for action in menu.actions():
            sub = action.menu()
            if isinstance(sub, QtWidgets.QMenu):
                collect(sub, rows)
            elif shortcut_text(action) and id(action) not in seen:
                seen.add(id(action))
                rows.append((_plain(action.text()), shortcut_text(action)))

    for top in qt_window.menuBar().actions():
        menu = top.menu()
        if not isinstance(menu, QtWidgets.QMenu):
            continue
        rows: list[tuple[str, str]] = []
        collect(menu, rows)
        if rows:
            sections.append((_plain(top.text()), merge_numbered(rows)))
    other = [
        (_plain(a.text()), shortcut_text(a))
        for a in qt_window.actions()
        if shortcut_text(a) and id(a) not in seen
    ]
    if other:
        sections.append(("Other", merge_numbered(other)))
    sections.append(("Keys and mouse on the stage", list(STAGE_KEYS)))
    return sections


MARGINS = (40, 30, 40, 30)  # the overlay's margins around the list (left, top, right, bottom)


class HelpOverlay(QtWidgets.QFrame):
    """A translucent layer over the whole window listing the shortcuts; any key that is
    not a shortcut, or a click, closes it."""

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window.qt)
        self.window_ = window.qt
        self.setObjectName("help-overlay")
        self.setAutoFillBackground(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(*MARGINS)
        self.label = QtWidgets.QLabel(self)
        self.label.setObjectName("help-text")
        self.label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.label.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        # the list scrolls where even its smallest size does not fit (a small window at
        # 300 %); the wheel scrolls it, a click still closes the overlay
        self.list_area = SteadyScrollArea(self)
        self.list_area.setObjectName("help-scroll")
        self.list_area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.list_area.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.list_area.setWidgetResizable(True)
        self.list_area.setWidget(self.label)
        layout.addWidget(self.list_area)
        self.fitted_pt = HELP_MAX_PT  # the text size the list was last fitted at
        self.window_.installEventFilter(self)
        self.hide()

    def html(
        self,
        pt: int | None = None,
        sections: list[tuple[str, list[tuple[str, str]]]] | None = None,
    ) -> str:
        """The overlay's content: ``sections`` (default: :func:`shortcut_table`'s) in up
        to three columns, its text at ``pt`` points (default: :meth:`largest_pt`)."""
        if sections is None:
            sections = shortcut_table(self.window_)
        columns: list[list[tuple[str, list[tuple[str, str]]]]] = [[], [], []]
        sizes = [0, 0, 0]
        for section in sections:  # greedy balance by row count
            i = sizes.index(min(sizes))
            columns[i].append(section)
            sizes[i] += len(section[1]) + 2
        if pt is None:
            pt = self.largest_pt()
        cells = []
        for col in columns:
            rows = []
            for title, items in col:
                rows.append(
                    f"<tr><td colspan=2 style='padding-top:10px'><b style='font-size:"
                    f"{pt + 2}pt'>{html.escape(title)}</b></td></tr>"
                )
                rows += [
                    f"<tr><td style='padding-right:14px'>{html.escape(text)}</td>"
                    f"<td><b>{html.escape(keys)}</b></td></tr>"
                    for text, keys in items
                ]
            cells.append(
                f"<td valign=top style='padding:0 22px'><table>{''.join(rows)}</table></td>"
            )
        return (
            f"<div style='font-size:{pt}pt'><p style='font-size:{pt + 6}pt'><b>Keyboard "
            "shortcuts</b></p><table><tr>" + "".join(cells) + "</tr></table>"
            "<p>Esc, F1 or a click closes this overlay.</p></div>"
        )

    @staticmethod
    def largest_pt() -> int:
        """The help's text size before fitting: the theme's 11 pt, at most 17 pt."""
        return min(current_theme().font_pt(11), HELP_MAX_PT)

    def room(self) -> tuple[int, int]:
        """Width and height (px) the list has inside the window's margins."""
        left, top, right, bottom = MARGINS
        return (
            self.window_.width() - left - right,
            self.window_.height() - top - bottom,
        )

    def fit(self) -> None:
        """The list at the largest size, down to :data:`HELP_MIN_PT`, at which it fits
        the window whole (at 150 % in a 1600 x 1000 window its last rows, the stage's
        keys among them, were cut off at the window's bottom and could not be scrolled
        to); smaller than that it scrolls."""
        width, height = self.room()
        doc = QtGui.QTextDocument()  # (the label's own measure is of its height only)
        doc.setDefaultFont(self.label.font())
        doc.setDocumentMargin(0)
        sections = shortcut_table(self.window_)
        top = self.largest_pt()
        pt = top
        for pt in range(top, min(HELP_MIN_PT, top) - 1, -1):
            text = self.html(pt, sections)
            doc.setHtml(text)
            doc.setTextWidth(width)
            self.label.setText(text)
            if doc.size().width() <= width and self.label.heightForWidth(width) <= height:
                break
        self.fitted_pt = pt

    def toggle(self) -> None:
        self.close_overlay() if self.isVisible() else self.open_overlay()

    def open_overlay(self) -> None:
        """Show the list over the window."""
        theme = current_theme()
        dark = theme.name == "dark"
        fg, bg = (
            ("#f2f2f2", "rgba(10, 12, 16, 245)")
            if dark
            else ("#111111", "rgba(255, 255, 255, 248)")
        )
        self.setStyleSheet(
            f"QFrame#help-overlay {{ background: {bg}; }} "
            f"QLabel#help-text {{ color: {fg}; background: transparent; }} "
            "QScrollArea#help-scroll, QScrollArea#help-scroll > QWidget "
            "{ background: transparent; }"
        )
        self.fit()
        self.setGeometry(self.window_.rect())
        self.show()
        self.raise_()

    def close_overlay(self) -> None:
        self.hide()

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if obj is self.window_ and event.type() == QtCore.QEvent.Type.Resize and self.isVisible():
            self.fit()
            self.setGeometry(self.window_.rect())
        return False

    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:
        self.close_overlay()
        event.accept()
