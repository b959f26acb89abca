"""Keyboard help overlay (F1 or ?): every shortcut of the window, read from its QActions.

The list is generated each time the overlay opens, so actions added by any feature
installer appear automatically, grouped by menu.
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from gui.theme import current_theme
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
            sections.append((_plain(top.text()), rows))
    other = [
        (_plain(a.text()), shortcut_text(a))
        for a in qt_window.actions()
        if shortcut_text(a) and id(a) not in seen
    ]
    if other:
        sections.append(("Other", other))
    sections.append(("Keys and mouse on the stage", list(STAGE_KEYS)))
    return sections


class HelpOverlay(QtWidgets.QFrame):
    """A translucent layer over the whole window listing the shortcuts; any key that is
    not a shortcut, or a click, closes it."""

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window.qt)
        self.window_ = window.qt
        self.setObjectName("help-overlay")
        self.setAutoFillBackground(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(40, 30, 40, 30)
        self.label = QtWidgets.QLabel(self)
        self.label.setObjectName("help-text")
        self.label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.label.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        self.window_.installEventFilter(self)
        self.hide()

    def html(self) -> str:
        """The overlay's content: sections in up to three columns."""
        theme = current_theme()
        sections = shortcut_table(self.window_)
        columns: list[list[tuple[str, list[tuple[str, str]]]]] = [[], [], []]
        sizes = [0, 0, 0]
        for section in sections:  # greedy balance by row count
            i = sizes.index(min(sizes))
            columns[i].append(section)
            sizes[i] += len(section[1]) + 2
        pt = min(theme.font_pt(11), 17)  # the whole list must fit, even at 300 %
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
            f"QLabel#help-text {{ color: {fg}; background: transparent; }}"
        )
        self.label.setText(self.html())
        self.setGeometry(self.window_.rect())
        self.show()
        self.raise_()

    def close_overlay(self) -> None:
        self.hide()

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if obj is self.window_ and event.type() == QtCore.QEvent.Type.Resize and self.isVisible():
            self.setGeometry(self.window_.rect())
        return False

    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:
        self.close_overlay()
        event.accept()
