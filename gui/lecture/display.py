"""Presentation display: light/dark theme, UI scale, colormaps and presentation mode.

:class:`DisplayController` is the only place that changes the global theme from the
lecture features. Every change re-styles the window chrome (style sheet), every existing
:class:`~gui.widgets.view_widget.ViewWidget` (``apply_theme``) and emits :attr:`applied` so the
lecture overlays follow. Presentation mode hides the menu bar, the docks and the status
bar, switches to the (larger) presentation UI scale and, by default, goes full screen.
"""

from __future__ import annotations

import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from gui.theme import (
    CHROME_PT,
    DIVERGING_MAPS,
    SEQUENTIAL_MAPS,
    THEMES,
    Theme,
    compose_theme,
    current_theme,
    set_theme,
    stylesheet,
)
from gui.window.protocol import StudioWindow

MIN_SCALE, MAX_SCALE, SCALE_STEP = 1.0, 3.0, 0.25
DEFAULT_PRESENT_SCALE = 1.5
SCALE_CHOICES = (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)


def scale_tooltips(theme: Theme) -> None:
    """Tooltips at the chrome's text size of ``theme`` (its UI scale). The window's
    style sheet does not reach them: on stage at 150 % and 200 % a slider's tooltip
    stayed at the system's ~9 pt, a narrow block of small print."""
    font = QtGui.QFont(QtWidgets.QToolTip.font())
    size = theme.font_pt(CHROME_PT)
    if font.pointSizeF() != size:
        font.setPointSizeF(size)
        QtWidgets.QToolTip.setFont(font)


def clamp_scale(value: float) -> float:
    """``value`` limited to 100–300 % and rounded to 5 %."""
    return round(min(MAX_SCALE, max(MIN_SCALE, float(value))) * 20) / 20


class DisplayController(QtCore.QObject):
    """Theme, UI scale, colormaps and presentation mode of one main window.

    Attributes
    ----------
    ui_scale
        Scale used outside presentation mode (1.0 = 100 %).
    present_scale
        Scale used in presentation mode.
    presenting
        Whether presentation mode is on.
    """

    applied = QtCore.Signal()

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window.qt)
        self.window = window
        theme = current_theme()
        self.theme_name = theme.name
        self.ui_scale = clamp_scale(theme.ui_scale)
        self.present_scale = DEFAULT_PRESENT_SCALE
        self.sequential = theme.sequential
        self.diverging = theme.diverging
        self.presenting = False
        self._saved: dict[str, object] = {}
        #: the view and plot of the last change of mode, and the view's scrolls_asked
        #: then (_keep_in_sight)
        self._kept: tuple[str, str | None, int] | None = None
        window.view_changed.connect(lambda _view_id: self.sync_views())

    # ------------------------------------------------------------------ theme
    @property
    def active_scale(self) -> float:
        """The UI scale in effect now (presentation or normal)."""
        return self.present_scale if self.presenting else self.ui_scale

    def theme_at(self, scale: float) -> Theme:
        """The theme :meth:`apply` makes current at UI ``scale`` (the theme's name and
        colormaps as set now)."""
        return compose_theme(
            self.theme_name,
            ui_scale=scale,
            sequential=self.sequential,
            diverging=self.diverging,
        )

    def apply(self) -> None:
        """Make the current settings the global theme and re-style everything."""
        theme = set_theme(
            self.theme_name,
            ui_scale=self.active_scale,
            sequential=self.sequential,
            diverging=self.diverging,
        )
        # Only what is not already styled so: Qt re-polishes every widget of the window
        # on each setStyleSheet (~0.45 s with the views built), and a view re-styled is
        # redrawn. The same theme again (a mode change at the same scale, a colormap
        # that is already chosen, a settings dialog's OK) changes neither.
        sheet = stylesheet(theme)
        if self.window.qt.styleSheet() != sheet:
            self.window.qt.setStyleSheet(sheet)
        scale_tooltips(theme)
        for widget in list(self.window.views.values()):
            if widget.styled_theme != theme:
                # the mode first: the view is redrawn once, in the mode's columns (after
                # the theme, sync_views' fit rebuilt it again when the columns changed)
                widget.set_presenting(self.presenting, fit=False)
                widget.apply_theme()
        self.sync_views()  # (a view not re-styled takes the mode there, fitted if it changed)
        self.applied.emit()

    def sync_views(self) -> None:
        """Presentation mode hides each view's long explanation (the lecturer speaks it)
        and the hover hint, leaving the room to title, formula, verdict and plots."""
        for widget in list(self.window.views.values()):
            widget.show_explanation(not self.presenting)
            widget.show_hover_hint(not self.presenting)
            widget.set_presenting(self.presenting)

    def set_theme_name(self, name: str) -> None:
        """Switch to ``light`` or ``dark`` (ValueError otherwise)."""
        if name not in THEMES:
            raise ValueError(f"theme must be one of {', '.join(THEMES)}, got {name!r}")
        self.theme_name = name
        self.apply()

    def toggle_theme(self) -> None:
        """Light ↔ dark."""
        self.set_theme_name("dark" if self.theme_name == "light" else "light")
        self._say(f"Theme: {self.theme_name}")

    def set_colormaps(self, sequential: str | None = None, diverging: str | None = None) -> None:
        """Choose the colour-blind-safe colormaps (ValueError for unknown names)."""
        if sequential is not None and sequential not in SEQUENTIAL_MAPS:
            raise ValueError(f"sequential colormap must be one of {', '.join(SEQUENTIAL_MAPS)}")
        if diverging is not None and diverging not in DIVERGING_MAPS:
            raise ValueError(f"diverging colormap must be one of {', '.join(DIVERGING_MAPS)}")
        self.sequential = sequential or self.sequential
        self.diverging = diverging or self.diverging
        self.apply()

    def cycle_sequential(self) -> None:
        """Next sequential colormap (viridis → cividis → ...)."""
        i = SEQUENTIAL_MAPS.index(self.sequential) if self.sequential in SEQUENTIAL_MAPS else -1
        self.set_colormaps(sequential=SEQUENTIAL_MAPS[(i + 1) % len(SEQUENTIAL_MAPS)])
        self._say(f"Sequential colormap: {self.sequential}")

    def cycle_diverging(self) -> None:
        """Next diverging colormap."""
        i = DIVERGING_MAPS.index(self.diverging) if self.diverging in DIVERGING_MAPS else -1
        self.set_colormaps(diverging=DIVERGING_MAPS[(i + 1) % len(DIVERGING_MAPS)])
        self._say(f"Diverging colormap: {self.diverging}")

    # ------------------------------------------------------------------ scale
    def set_scale(self, value: float) -> None:
        """Set the UI scale of the active mode (clamped to 100–300 %)."""
        value = clamp_scale(value)
        if self.presenting:
            self.present_scale = value
        else:
            self.ui_scale = value
        self.apply()
        self._say(f"UI scale: {round(value * 100)} %")

    def zoom_in(self) -> None:
        self.set_scale(self.active_scale + SCALE_STEP)

    def zoom_out(self) -> None:
        self.set_scale(self.active_scale - SCALE_STEP)

    def zoom_reset(self) -> None:
        self.set_scale(DEFAULT_PRESENT_SCALE if self.presenting else 1.0)

    # ------------------------------------------------------------------ presentation
    def _chrome(self) -> list[QtWidgets.QWidget]:
        """Menu bar, status bar, docks and the docks' tab bars. (Qt never hides a tab
        bar of tabbed docks whose docks are hidden: it moves it off the window, where
        it stays visible and can take the keyboard focus; at 1280 x 720 on stage the
        "Views" / "Deck" bar did. The bars come back as they were with the docks. A bar
        hidden here is shown again by Qt's dock layout, empty, at its parking place
        off the window, (-500 - width, -500 - height); hidden again it is shown again,
        a loop: it is left there, kept from the keyboard focus while on stage.)"""
        w = self.window.qt
        docks = [d for d in w.findChildren(QtWidgets.QDockWidget) if d.parent() is w]
        bars = [b for b in w.findChildren(QtWidgets.QTabBar) if b.parent() is w]
        return [w.menuBar(), w.statusBar(), *docks, *bars]

    def enter_presentation(self, fullscreen: bool = True) -> None:
        """Hide menu bar, docks and status bar; use the presentation scale."""
        if self.presenting:
            return
        w = self.window.qt
        chromes = self._chrome()
        bars = [c for c in chromes if isinstance(c, QtWidgets.QTabBar)]
        self._saved = {
            "visible": {
                c: c.isVisible() or not w.isVisible() and not c.isHidden() for c in chromes
            },
            "state": w.windowState(),
            "focus": {bar: bar.focusPolicy() for bar in bars},
        }
        in_sight = self._plot_in_sight()
        for chrome in chromes:
            chrome.hide()
        for bar in bars:  # (see _chrome)
            bar.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.presenting = True
        if fullscreen:
            w.setWindowState(w.windowState() | QtCore.Qt.WindowState.WindowFullScreen)
        self.apply()
        self._keep_in_sight(in_sight)
        self.window.stage.setFocus()

    def leave_presentation(self, *, restyle: bool = True) -> None:
        """Bring the chrome, the normal scale and the previous window state back.

        Parameters
        ----------
        restyle
            ``False`` when the window closes (its engine stops; it is not shown again):
            the chrome and the window state come back for the saved layout, and the
            views are not re-styled in the normal scale (~1 s of every close on stage).
        """
        if not self.presenting:
            return
        in_sight = self._plot_in_sight()
        self.presenting = False
        visible = self._saved.get("visible", {})
        for chrome, was_visible in visible.items():  # type: ignore[union-attr]
            if shiboken6.isValid(chrome):  # (Qt deletes a docks' tab bar no longer used)
                chrome.setVisible(bool(was_visible))
        focus = self._saved.get("focus")
        for bar, policy in focus.items() if isinstance(focus, dict) else ():
            if shiboken6.isValid(bar):
                bar.setFocusPolicy(policy)
        state = self._saved.get("state")
        if state is not None:
            self.window.qt.setWindowState(state)  # type: ignore[arg-type]
        self._saved = {}
        if restyle:
            self.apply()
            self._keep_in_sight(in_sight)

    def _plot_in_sight(self) -> tuple[str, str | None]:
        """The current view and the plot its scroll position is at (``None``: its top):
        the one kept in sight at the last change of mode where nothing scrolled the
        view since but its layout (a stage that cannot scroll that far shows that plot
        lower down, its scroll position at an earlier row's)."""
        view_id = self.window.current_view
        widget = self.window.view_widget(view_id)
        kept = self._kept
        if kept is not None and kept[0] == view_id and kept[2] == widget.scrolls_asked:
            return view_id, kept[1]
        return view_id, widget.plot_at_top()

    def _keep_in_sight(self, in_sight: tuple[str, str | None]) -> None:
        """After a change of mode the view shows the plot row it showed before (or its
        top, heading and all, where it was at its top): laid out anew at the other
        scale, the same scroll position in pixels showed another part (F5 in a window
        at 300 % scrolled to Sinusoidal's wavelengths opened the stage at its bottom,
        the heading gone and the first row's legend cut). Again once the layout's
        queued fits are done."""
        view_id, key = in_sight
        widget = self.window.view_widget(view_id)

        def scroll() -> None:
            widget.keep_plot_in_sight(key)  # (and after the layout's later passes)
            self._kept = (view_id, key, widget.scrolls_asked)

        scroll()
        QtCore.QTimer.singleShot(0, widget, scroll)

    def keep_hidden(self, widget: QtWidgets.QWidget) -> None:
        """Leave ``widget`` (a dock closed while presenting) hidden when presentation
        mode ends, whatever it was when the mode began."""
        visible = self._saved.get("visible")
        if isinstance(visible, dict) and widget in visible:
            visible[widget] = False

    def toggle_presentation(self) -> None:
        """F5: enter or leave presentation mode."""
        if self.presenting:
            self.leave_presentation()
        else:
            self.enter_presentation()

    def _say(self, text: str) -> None:
        self.window.show_status(text, 3000)
