"""Presenter view and speaker note: what the lecturer sees that the audience does not.

With two screens, presentation mode puts the stage full screen on the audience screen
(the projector: the largest screen that is not the primary one) and opens a
:class:`PresenterWindow` on the lecturer's screen (the primary one): the current and
next scene (titles, a live preview of the stage, the next scene's view and values), the
speaker note, a timer and the current view's parameter panel. The next scene is shown as
a picture too: drawn off-screen at :data:`THUMB_SIZE`, laid out at :data:`THUMB_LAYOUT`,
by the deck export's code path (:attr:`Presenter.scene_renderer`, given by the
composition root), once the stage has
been still for a moment (never in the way of the audience's frames), cached per scene
and theme, and the scene after it drawn ahead in the next quiet moment; one part of a picture is
drawn per pass of the event loop, and none while a sweep animates the stage. :func:`plan_screens` makes
the choice from plain screen geometries, so it is testable without screens.

With one screen the audience sees everything the lecturer sees, so the speaker note is
never drawn over the plots: Ctrl+Shift+N shows it in a strip docked below the stage (the
stage gives up the room; :class:`NoteDock`), and Ctrl+Shift+V opens the presenter window
anyway (to rehearse, or to drag it to a screen attached later).

The window's shortcuts work in the presenter window too (its actions are added there),
so a clicker keeps stepping the deck whichever window has the keyboard; the fields of
its parameter panel keep their own keys (arrows, typing), as in the main window.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from PySide6 import QtCore, QtGui, QtWidgets

from core.scenes import Scene
from core.views import VIEWS
from gui.lecture.deck import DeckController
from gui.lecture.display import DisplayController
from gui.lecture.editors import EDITOR_WIDGETS
from gui.lecture.stage_strip import StageControls
from gui.lecture.sweep import SweepController
from gui.render.math_text import set_math_text, source_text
from gui.theme import current_theme, stylesheet
from gui.widgets.param_panel import ParamPanel
from gui.widgets.steady_scroll import SteadyScrollArea
from gui.window.protocol import StudioWindow

PREVIEW_QUIET_MS = 400  # the stage preview is grabbed after this long without change
THUMB_SIZE = (640, 360)  # pixels of the next scene's picture (16:9) ...
# ... laid out as the slide export lays out 1600 x 900 (laid out at 640 x 360 itself,
# Word order's eleven plots were squashed to slivers under titles lying over each
# other; at 1280 x 720 its word axes' titles still touch their tick labels)
THUMB_LAYOUT = (1600, 900)
THUMB_SCALE = THUMB_SIZE[0] / THUMB_LAYOUT[0]
THUMB_CACHE = 32  # pictures kept (scenes × themes)
NO_NOTE = "(no speaker note for this scene)"
# the stage shows another view than the deck's current scene (Ctrl+1 after scene 12):
# that scene's note belongs to what the audience does not see (the strip showed
# scene 12's YaRN note under Sinusoidal's plots)
LEFT_SCENE = (
    "(no speaker note: the stage shows {view}, not a scene of the deck; "
    "scene {number} \u201c{title}\u201d is on {scene_view}, {key} — "
    "its note shows again there)"
)
Key = QtCore.Qt.Key
_FIELD_KEYS = {Key.Key_Left, Key.Key_Right, Key.Key_Up, Key.Key_Down, Key.Key_Home, Key.Key_End}

Geometry = tuple[int, int, int, int] | QtCore.QRect


@dataclass(frozen=True)
class ScreenPlan:
    """Where presentation mode puts its windows.

    Attributes
    ----------
    audience
        Index of the screen that shows the stage full screen.
    presenter
        Index of the screen for the presenter window, ``None`` with a single screen.
    """

    audience: int
    presenter: int | None


def _area(geometry: Geometry) -> int:
    if isinstance(geometry, QtCore.QRect):
        return geometry.width() * geometry.height()
    return int(geometry[2]) * int(geometry[3])


def plan_screens(geometries: Sequence[Geometry], primary: int = 0) -> ScreenPlan:
    """Choose the audience and presenter screens.

    Parameters
    ----------
    geometries
        One ``(x, y, width, height)`` (or ``QRect``) per screen, in Qt's order.
    primary
        Index of the primary screen (a laptop's own display, usually).

    Returns
    -------
    ScreenPlan
        One screen: the stage on it, no presenter window. Two or more: the presenter
        window on the primary screen and the stage on the largest other screen (the
        first of equally large ones).
    """
    if not geometries:
        return ScreenPlan(0, None)
    primary = primary if 0 <= primary < len(geometries) else 0
    if len(geometries) == 1:
        return ScreenPlan(primary, None)
    others = [i for i in range(len(geometries)) if i != primary]
    audience = max(others, key=lambda i: (_area(geometries[i]), -i))
    return ScreenPlan(audience, primary)


def format_elapsed(seconds: float) -> str:
    """``seconds`` as ``m:ss``, or ``h:mm:ss`` from one hour on (negative counts as 0)."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def scene_summary(view_id: str, params: dict, limit: int = 4) -> str:
    """The view's title and its first ``limit`` number/choice parameters (``m = 40``)."""
    spec = VIEWS.get(view_id)
    if spec is None:
        return view_id
    shown = [
        f"{p.name} = {p.format(params[p.name])}"
        for p in spec.model.params
        if p.kind in ("int", "float", "choice", "bool") and p.name in params
    ][:limit]
    return spec.title + (" · " + ", ".join(shown) if shown else "")


NOTE_SHARE = 0.35  # of the window's height the speaker-note strip takes at most
# the note strip's close icon, and the button around it (its hit area), of the line
# height of its title's font
CLOSE_ICON_SHARE, CLOSE_BUTTON_SHARE = 0.8, 1.25


class _CloseButton(QtWidgets.QToolButton):
    """The note strip's close button, its icon :data:`CLOSE_ICON_SHARE` and the button
    (the area a click hits) :data:`CLOSE_BUTTON_SHARE` of its font's line height: it
    scales with the text as the rest of the chrome does. The dock's own title-bar
    button kept the style's small-icon size (about 10 px) beside a title at 150-300 %."""

    def __init__(self, parent: QtWidgets.QWidget) -> None:
        super().__init__(parent)
        self.setAutoRaise(True)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # (the stage keeps the keys)
        self.setIcon(
            self.style().standardIcon(QtWidgets.QStyle.StandardPixmap.SP_TitleBarCloseButton)
        )
        self._fit()

    def _fit(self) -> None:
        line = self.fontMetrics().height()
        icon = max(1, round(CLOSE_ICON_SHARE * line))
        self.setIconSize(QtCore.QSize(icon, icon))
        side = max(icon, round(CLOSE_BUTTON_SHARE * line))
        self.setFixedSize(side, side)

    def changeEvent(self, event: QtCore.QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:  # (a UI scale's style sheet)
            self._fit()


class NoteDock(QtWidgets.QDockWidget):
    """The speaker note in a strip docked below the stage: the stage shrinks for it, so
    the note never covers a plot. Its title bar is its own: the title and a close
    button that grow with the UI scale (:class:`_CloseButton`)."""

    def __init__(self, parent: QtWidgets.QMainWindow) -> None:
        super().__init__("Speaker note", parent)
        self.setObjectName("speaker-note-dock")
        self.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetClosable)
        bar = QtWidgets.QWidget(self)
        bar.setObjectName("speaker-note-title-bar")
        row = QtWidgets.QHBoxLayout(bar)
        row.setContentsMargins(4, 0, 0, 0)
        row.setSpacing(0)
        self.title = QtWidgets.QLabel(self.windowTitle(), bar)
        self.title.setObjectName("speaker-note-title")
        self.close_button = _CloseButton(bar)
        self.close_button.setObjectName("speaker-note-close")
        self.close_button.setToolTip("Hide the speaker note (Ctrl+Shift+N)")
        self.close_button.clicked.connect(self.close)
        row.addWidget(self.title, 1)
        row.addWidget(self.close_button)
        self.setTitleBarWidget(bar)
        self.label = QtWidgets.QLabel(self)
        self.label.setObjectName("speaker-note-strip")
        self.label.setWordWrap(True)
        self.label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # a note is not HTML
        # (set_math_text shows its math typeset, as rich text, the rest as written)
        self.label.setMargin(8)
        # as high as the note needs, its text from the top: the label's wrapped size
        # hint held the strip at 378 px of a 1050 px stage in presentation mode for a
        # note of 72 px (the text centred in it, the plots a third smaller for nothing)
        self.label.setAlignment(
            QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop
        )
        self.label.setMinimumSize(1, 1)
        self.setWidget(self.label)
        self._fit_timer = QtCore.QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self.fit)
        self._grow_only = False
        parent.addDockWidget(QtCore.Qt.DockWidgetArea.BottomDockWidgetArea, self)
        self.hide()

    def schedule_fit(self, grow_only: bool = False) -> None:
        """Fit the strip to its note once the event loop has laid it out (:meth:`fit`);
        ``grow_only``: higher when the note needs it, never lower (a verdict that
        changed with the parameters: the stage is not laid out again for a line less)."""
        self._grow_only = grow_only and (self._grow_only or not self._fit_timer.isActive())
        self._fit_timer.start()

    def fit(self) -> None:
        """Make the strip as high as its note needs at its width, at most
        :data:`NOTE_SHARE` of the window's height (a longer note: its start shows)."""
        # (the QMainWindow the strip docks in, as Qt sees it: not the StudioWindow)
        host = self.parentWidget()
        if self.isHidden() or self.isFloating() or not isinstance(host, QtWidgets.QMainWindow):
            return
        chrome = self.height() - self.label.height()  # (the title bar)
        need = self.label.heightForWidth(self.label.width()) + chrome
        high = min(need, round(NOTE_SHARE * host.height()))
        grow_only, self._grow_only = self._grow_only, False
        if grow_only and high <= self.height():
            return
        host.resizeDocks([self], [high], QtCore.Qt.Orientation.Vertical)

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        self.schedule_fit()

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():  # (it wraps anew)
            self.schedule_fit()


class PresenterWindow(QtWidgets.QWidget):
    """The lecturer's screen: current and next scene, speaker note, timer, parameters.

    Attributes
    ----------
    now_title, next_title, next_summary, note, clock, elapsed
        The labels (plain text; the note's math typeset: :func:`set_math_text`).
    preview
        The live picture of the stage.
    next_picture
        The picture of the next scene.
    panels
        The parameter panels (one per view, in a stack).
    """

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent, QtCore.Qt.WindowType.Window)
        self.setObjectName("presenter-view")
        self.setWindowTitle("Presenter view — Positional Encoding Studio")
        plain = QtCore.Qt.TextFormat.PlainText

        def label(name: str, wrap: bool = True) -> QtWidgets.QLabel:
            widget = QtWidgets.QLabel(self)
            widget.setObjectName(name)
            widget.setTextFormat(plain)
            widget.setWordWrap(wrap)
            return widget

        def picture(name: str) -> QtWidgets.QLabel:
            widget = label(name, wrap=False)
            widget.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
            widget.setMinimumSize(160, 90)
            widget.setSizePolicy(
                QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Ignored
            )
            return widget

        self.now_title = label("presenter-now")
        self.preview = picture("presenter-preview")
        self.note = label("presenter-note")
        self.note.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop)
        note_scroll = SteadyScrollArea(self)
        note_scroll.setWidgetResizable(True)
        note_scroll.setWidget(self.note)
        self.next_title = label("presenter-next")
        self.next_summary = label("presenter-next-summary")
        self.next_picture = picture("presenter-next-picture")
        self.elapsed = label("presenter-elapsed", wrap=False)
        self.clock = label("presenter-clock", wrap=False)
        self.reset_button = QtWidgets.QPushButton("Restart timer", self)
        self.reset_button.setObjectName("presenter-reset-timer")
        icon = QtWidgets.QStyle.StandardPixmap  # drawn arrows: media glyphs are boxes in
        self.prev_button = QtWidgets.QPushButton("Previous", self)  # common Debian fonts
        self.prev_button.setIcon(self.style().standardIcon(icon.SP_ArrowBack))
        self.prev_button.setObjectName("presenter-previous")
        self.next_button = QtWidgets.QPushButton("Next", self)
        self.next_button.setIcon(self.style().standardIcon(icon.SP_ArrowForward))
        self.next_button.setObjectName("presenter-next-button")
        for button in (self.reset_button, self.prev_button, self.next_button):
            button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # the keys stay with the deck
        self.panels = QtWidgets.QStackedWidget(self)
        panel_scroll = SteadyScrollArea(self)
        panel_scroll.setWidgetResizable(True)
        panel_scroll.setWidget(self.panels)

        left = QtWidgets.QVBoxLayout()
        left.addWidget(self.now_title)
        left.addWidget(self.preview, 3)
        left.addWidget(note_scroll, 2)
        right = QtWidgets.QVBoxLayout()
        right.addWidget(self.next_title)
        right.addWidget(self.next_summary)
        right.addWidget(self.next_picture, 1)
        timer_row = QtWidgets.QHBoxLayout()
        timer_row.addWidget(self.elapsed)
        timer_row.addStretch(1)
        timer_row.addWidget(self.clock)
        right.addLayout(timer_row)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(self.prev_button)
        buttons.addWidget(self.next_button)
        buttons.addWidget(self.reset_button)
        right.addLayout(buttons)
        right.addWidget(panel_scroll, 1)
        layout = QtWidgets.QHBoxLayout(self)
        layout.addLayout(left, 3)
        layout.addLayout(right, 2)
        self.restyle()

    def restyle(self) -> None:
        """Sizes that read from a lectern (independent of the stage's UI scale)."""
        theme = current_theme()
        fg = theme.foreground
        self.setStyleSheet(
            stylesheet(replace(theme, ui_scale=1.2))  # the theme's chrome at lectern size
            + f" #presenter-now {{ font-size: 20pt; font-weight: bold; color: {fg}; }} "
            f"#presenter-next {{ font-size: 15pt; font-weight: bold; color: {fg}; }} "
            f"#presenter-next-summary {{ font-size: 12pt; color: {theme.control}; }} "
            f"#presenter-note {{ font-size: 16pt; color: {fg}; }} "
            f"#presenter-elapsed {{ font-size: 24pt; font-weight: bold; color: {fg}; }} "
            f"#presenter-clock {{ font-size: 18pt; color: {theme.control}; }} "
            f"#presenter-preview, #presenter-next-picture {{ background: {theme.background}; "
            f"border: 1px solid {theme.control}; color: {theme.control}; }}"
        )


class Presenter(QtCore.QObject):
    """The presenter window, the note strip and the screen choice of one main window.

    Parameters
    ----------
    window
        The main window.
    display, deck
        Its presentation display and deck (scenes, notes).

    Attributes
    ----------
    view
        The presenter window (built on first use, ``None`` before).
    note_dock
        The speaker-note strip below the stage.
    plan
        The screen plan used when presentation mode was entered last.
    scene_renderer
        ``(scene, width, height, scale=...) → iterator``: draws a scene as its slide
        laid out at ``width`` x ``height`` (times ``scale`` in pixels) part by part,
        yielding ``None`` after each part and the ``QImage`` last (the deck export's
        :func:`gui.export.deck.scene_image_steps`); one part runs per pass of the event
        loop, so the stage keeps drawing in between. ``None``: no picture of the next
        scene, its title and values only.
    next_image
        The picture of the next scene shown now (full size), ``None`` when there is none
        (yet).
    """

    def __init__(
        self, window: StudioWindow, display: DisplayController, deck: DeckController
    ) -> None:
        super().__init__(window.qt)
        self.window = window
        self.display = display
        self.deck = deck
        self.view: PresenterWindow | None = None
        self._sized = False  # (the one-screen window was given its first size)
        self.plan: ScreenPlan | None = None
        #: the screen and geometry of the window before presentation mode moved it to
        #: the audience screen (it goes back there when the mode ends)
        self.home: tuple[QtGui.QScreen, QtCore.QRect] | None = None
        self.note_dock = NoteDock(window.qt)
        self.started = time.monotonic()
        self._presenting = False
        self._panels: dict[str, ParamPanel] = {}
        self._preview_tries = 0
        self.tick = QtCore.QTimer(self)
        self.tick.setInterval(1000)
        self.tick.timeout.connect(self._update_timer)
        self.preview_timer = QtCore.QTimer(self)
        self.preview_timer.setSingleShot(True)
        self.preview_timer.setInterval(PREVIEW_QUIET_MS)
        self.preview_timer.timeout.connect(self.update_preview)
        self.scene_renderer: Callable[..., Iterator[QtGui.QImage | None]] | None = None
        self.next_image: QtGui.QImage | None = None
        self._thumbs: OrderedDict[tuple, QtGui.QImage] = OrderedDict()
        self._thumb_tries = 0
        self._job: tuple[Scene, tuple, Iterator[QtGui.QImage | None]] | None = None
        self.job_timer = QtCore.QTimer(self)  # one part of a picture per event-loop pass
        self.job_timer.setSingleShot(True)
        self.job_timer.setInterval(0)
        self.job_timer.timeout.connect(self._advance_job)
        self.thumb_timer = QtCore.QTimer(self)
        self.thumb_timer.setSingleShot(True)
        self.thumb_timer.setInterval(PREVIEW_QUIET_MS)
        self.thumb_timer.timeout.connect(self.update_next_picture)
        display.applied.connect(self._display_changed)
        deck.note_changed.connect(self.refresh)
        window.view_changed.connect(lambda _view_id: self.refresh())
        window.first_frame.connect(self._stage_drawn)

    # ------------------------------------------------------------------ screens
    def screens(self) -> list[QtGui.QScreen]:
        """The screens in Qt's order."""
        return list(QtGui.QGuiApplication.screens())

    def current_plan(self) -> ScreenPlan:
        """The plan for the screens attached now."""
        screens = self.screens()
        primary = QtGui.QGuiApplication.primaryScreen()
        index = screens.index(primary) if primary in screens else 0
        return plan_screens([s.geometry() for s in screens], index)

    def _display_changed(self) -> None:
        if self.view is not None:
            self.view.restyle()
            self.schedule_preview()  # the theme or scale changed what the audience sees
            if self.view.isVisible():
                self._show_next_picture()  # another theme: another picture
        self._style_note()
        if self.display.presenting and not self._presenting:
            self._presenting = True
            self.enter()
        elif not self.display.presenting and self._presenting:
            self._presenting = False
            self.leave()

    def enter(self) -> None:
        """Presentation mode began: with two screens, stage to the audience screen and
        the presenter window to the lecturer's; the timer starts."""
        self.started = time.monotonic()
        self.plan = self.current_plan()
        if self.plan.presenter is None:
            return
        screens = self.screens()
        w = self.window.qt
        audience = screens[self.plan.audience]
        screen = w.screen()
        if screen is not None and screen is not audience:
            self.home = (screen, QtCore.QRect(w.normalGeometry()))
        self._move_stage(audience)
        self.open_view(screens[self.plan.presenter])

    def leave(self) -> None:
        """Presentation mode ended: the presenter window closes and the window goes
        back to the screen it was on before (on Xvfb with a laptop and a projector
        screen it stayed full size on the projector, its panels and the speaker note
        in the deck panel before the audience, the laptop's screen empty)."""
        self.close_view()
        home, self.home = self.home, None
        if home is None or home[0] not in self.screens():
            return  # (that screen is gone: the window stays where it is)
        screen, geometry = home
        if not screen.availableGeometry().intersects(geometry):
            geometry = screen.availableGeometry()
        self._move_window(screen, geometry)

    @staticmethod
    def same_desktop(screen: QtGui.QScreen, other: QtGui.QScreen) -> bool:
        """Whether ``other`` is on ``screen``'s virtual desktop (a window moves there
        without being re-created)."""
        return other in screen.virtualSiblings()

    def _move_stage(self, screen: QtGui.QScreen) -> None:
        w = self.window.qt
        if w.screen() is screen and w.isVisible():
            return
        self._move_window(screen, screen.availableGeometry())

    def _move_window(self, screen: QtGui.QScreen, geometry: QtCore.QRect) -> None:
        """Move the main window to ``screen`` at ``geometry``, keeping its full-screen or
        maximized state."""
        w = self.window.qt
        keep = w.windowState() & (
            QtCore.Qt.WindowState.WindowFullScreen | QtCore.Qt.WindowState.WindowMaximized
        )
        if keep:
            w.setWindowState(w.windowState() & ~keep)
        handle = w.windowHandle()
        # a screen of another virtual desktop (an X screen of its own, Xvfb's -screen 1):
        # Qt re-creates the native window there and left it unmapped, the audience saw
        # nothing; shown again, it is mapped there
        elsewhere = (
            handle is not None and w.isVisible() and not self.same_desktop(handle.screen(), screen)
        )
        if elsewhere:
            w.hide()
        if handle is not None:
            handle.setScreen(screen)
        w.setGeometry(geometry)
        if elsewhere:
            w.show()
        if keep:
            w.setWindowState(w.windowState() | keep)

    # ------------------------------------------------------------------ window
    def _build_view(self) -> PresenterWindow:
        view = PresenterWindow()
        view.addActions(self.window.qt.actions())  # the shortcuts work there too
        view.prev_button.clicked.connect(lambda: self.deck.step(-1))
        view.next_button.clicked.connect(lambda: self.deck.step(1))
        view.reset_button.clicked.connect(self.restart_timer)
        view.installEventFilter(self)
        controls = self.window.find_feature(StageControls)
        if controls is not None:
            controls.key_windows.add(view)  # ←/→ nudge there too
        self.window.qt.destroyed.connect(view.deleteLater)
        return view

    def open_view(self, screen: QtGui.QScreen | None = None) -> PresenterWindow:
        """Show the presenter window (on ``screen``, maximized there)."""
        if self.view is None:
            self.view = self._build_view()
        view = self.view
        if screen is not None:
            view.setGeometry(screen.availableGeometry())
            handle = view.windowHandle()
            if handle is not None:
                handle.setScreen(screen)
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)  # at most once
            app.installEventFilter(self)  # the fields' keys, while the window is open
        if screen is None and not self._sized:
            self._size_alone(view)
        view.show()
        if screen is not None:
            view.setGeometry(screen.availableGeometry())
            view.showMaximized()
        self.refresh()
        self._update_timer()
        self.tick.start()
        return view

    def _size_alone(self, view: PresenterWindow) -> None:
        """Ctrl+Shift+V with one screen, the first time: two thirds of the window's
        screen wide and three quarters high, centred on it. It opened at its size hint,
        about 500 x 330 px in the corner of a 1920 x 1080 screen, its titles and note cut
        to a few words. Later openings keep the size and place the lecturer gave it."""
        screen = self.window.qt.screen()
        if screen is None:
            return
        avail = screen.availableGeometry()
        size = QtCore.QSize(avail.width() * 2 // 3, avail.height() * 3 // 4)
        view.resize(size.expandedTo(view.minimumSizeHint()).boundedTo(avail.size()))
        frame = view.frameGeometry()
        frame.moveCenter(avail.center())
        view.move(frame.topLeft())
        self._sized = True

    def close_view(self) -> None:
        """Hide the presenter window."""
        self.tick.stop()
        self._drop_job()
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        if self.view is not None:
            self.view.hide()

    def toggle_view(self) -> None:
        """Ctrl+Shift+V: open or close the presenter window (on any number of screens)."""
        if self.view is not None and self.view.isVisible():
            self.close_view()
        else:
            self.open_view()

    def restart_timer(self) -> None:
        """Count the elapsed time from now."""
        self.started = time.monotonic()
        self._update_timer()

    def _update_timer(self) -> None:
        if self.view is not None:
            self.view.elapsed.setText(format_elapsed(time.monotonic() - self.started))
            self.view.clock.setText(time.strftime("%H:%M"))

    # ------------------------------------------------------------------ content
    def current_note(self) -> str:
        """The speaker note of the scene shown: "" without a deck, or while the window
        shows another view than the current scene's (the scene is left: its note is
        not about what the stage shows)."""
        deck = self.deck
        return deck.scenes[deck.index].note if deck.shown else ""

    def left_scene(self) -> str:
        """What the note says while the deck's current scene is not shown (another view
        chosen, Ctrl+1): which view the stage shows and where the scene's note is; ""
        while a scene is shown or there is none."""
        deck = self.deck
        if deck.shown or not 0 <= deck.index < len(deck.scenes):
            return ""
        scene, vid = deck.scenes[deck.index], self.window.current_view
        view = VIEWS[vid].title if vid in VIEWS else vid
        return LEFT_SCENE.format(
            view=view,
            number=deck.index + 1,
            title=scene.title or VIEWS[scene.view_id].title,
            scene_view=VIEWS[scene.view_id].title,
            key=f"Ctrl+{list(VIEWS).index(scene.view_id) + 1}",
        )

    def stage_verdict(self) -> str:
        """The whole verdict of the view on stage when the stage shows it in short
        (presentation mode), else "": it belongs to the lecturer's note."""
        widget = self.window.views.get(self.window.current_view)
        if widget is None or not self.display.presenting:
            return ""
        verdict = widget.verdict_text
        return verdict if verdict and widget.verdict_shown != verdict else ""

    def note_text(self) -> str:
        """The speaker note shown to the lecturer (strip and presenter window alike):
        the scene's note (a line saying the scene is left while another view shows),
        then the stage's whole verdict when the stage shows it in short."""
        note = self.current_note() or self.left_scene() or NO_NOTE
        verdict = self.stage_verdict()
        return f"{note}\n\nVerdict (in short on stage): {verdict}" if verdict else note

    def refresh(self) -> None:
        """Show the current scene's note (strip and presenter) and the presenter's texts."""
        note = self.note_text()
        set_math_text(self.note_dock.label, note)  # its math typeset (m_h: m, subscript h)
        self.note_dock.schedule_fit()
        view = self.view
        if view is None or not view.isVisible():
            return
        deck, vid = self.deck, self.window.current_view
        n = len(deck.scenes)
        if deck.shown:
            scene = deck.scenes[deck.index]
            view.now_title.setText(f"Now {deck.index + 1}/{n}: {scene.title}")
        elif 0 <= deck.index < n:  # (another view chosen: the scene is left)
            title = VIEWS[vid].title if vid in VIEWS else vid
            view.now_title.setText(f"Now: {title} (scene {deck.index + 1}/{n} left)")
        else:
            view.now_title.setText(f"Now: {VIEWS[vid].title if vid in VIEWS else vid}")
        if 0 <= deck.index + 1 < n:
            nxt = deck.scenes[deck.index + 1]
            view.next_title.setText(f"Next {deck.index + 2}/{n}: {nxt.title}")
            view.next_summary.setText(scene_summary(nxt.view_id, dict(nxt.params)))
        else:
            view.next_title.setText("Next: end of the deck" if n else "Next: no deck loaded")
            view.next_summary.setText("")
        set_math_text(view.note, note)
        self._show_panel(vid)
        self._show_next_picture()
        self.schedule_preview()

    # ------------------------------------------------------------------ next scene
    def next_scene(self) -> Scene | None:
        """The scene after the current one, ``None`` at the end or without a deck."""
        deck = self.deck
        i = deck.index + 1
        return deck.scenes[i] if 0 <= i < len(deck.scenes) else None

    @staticmethod
    def thumb_key(scene: Scene) -> tuple:
        """What a scene's picture depends on: the scene and the theme's look."""
        theme = current_theme()
        params = json.dumps(scene.params, sort_keys=True, default=repr)
        return (
            scene.view_id,
            params,
            scene.title,
            scene.panels,
            scene.highlight,
            theme.name,
            theme.sequential,
            theme.diverging,
        )

    def _show_next_picture(self) -> None:
        """The next scene's picture from the cache, else a placeholder and a drawing
        in the next quiet moment."""
        view = self.view
        if view is None:
            return
        scene = self.next_scene()
        image = self._thumbs.get(self.thumb_key(scene)) if scene is not None else None
        self._set_next_image(image)
        if scene is None:  # what the empty box means, not a blank white box
            view.next_picture.setText(
                "This is the deck's last scene"
                if self.deck.scenes
                else "No deck: the stage shows\nthe view chosen in the window\n"
                "(File ▸ Open deck… for scenes)"
            )
        elif image is None:
            view.next_picture.setText("…" if self.scene_renderer is not None else "")
            self.schedule_next_picture()
        else:
            self.schedule_next_picture()  # draw the scene after it ahead

    def _set_next_image(self, image: QtGui.QImage | None) -> None:
        view = self.view
        self.next_image = image
        if view is None:
            return
        if image is None:
            view.next_picture.setPixmap(QtGui.QPixmap())
            return
        view.next_picture.setPixmap(
            QtGui.QPixmap.fromImage(image).scaled(
                view.next_picture.size(),
                QtCore.Qt.AspectRatioMode.KeepAspectRatio,
                QtCore.Qt.TransformationMode.SmoothTransformation,
            )
        )

    def schedule_next_picture(self) -> None:
        """Draw a missing picture (the next scene's, then the one after) once the stage
        has been still for :data:`PREVIEW_QUIET_MS`."""
        if self.scene_renderer is not None and self.view is not None and self.view.isVisible():
            self.thumb_timer.start()

    def _wanted_pictures(self) -> list[Scene]:
        deck = self.deck
        return [
            deck.scenes[i]
            for i in (deck.index + 1, deck.index + 2)
            if 0 <= i < len(deck.scenes) and self.thumb_key(deck.scenes[i]) not in self._thumbs
        ]

    def stage_animating(self) -> bool:
        """Whether the stage is playing a sweep (its frames come first: pictures wait)."""
        sweep = self.window.find_feature(SweepController)
        return sweep is not None and sweep.playing

    def update_next_picture(self) -> None:
        """Start drawing one missing picture, a part per pass of the event loop."""
        view, render = self.view, self.scene_renderer
        if view is None or not view.isVisible() or render is None or self._job is not None:
            return
        wanted = self._wanted_pictures()
        if not wanted:
            return
        if self.stage_animating():
            self.thumb_timer.start()  # after the animation
            return
        if not self.window.wait_idle(0.02) and self._thumb_tries < 10:
            self._thumb_tries += 1
            self.thumb_timer.start()  # the stage is still drawing: later
            return
        self._thumb_tries = 0
        scene = wanted[0]
        self._job = (scene, self.thumb_key(scene), render(scene, *THUMB_LAYOUT, scale=THUMB_SCALE))
        self.job_timer.start(0)

    def _advance_job(self) -> None:
        job = self._job
        if job is None:
            return
        scene, key, parts = job
        view = self.view
        if view is None or not view.isVisible():
            self._drop_job()
            return
        if self.stage_animating():
            self.job_timer.start(PREVIEW_QUIET_MS)  # no part between a sweep's frames
            return
        try:
            image = next(parts)
        except (StopIteration, ValueError, MemoryError) as exc:  # e.g. a table file gone
            self._drop_job()
            if not isinstance(exc, StopIteration):
                self.window.show_status(f"No picture of the next scene: {exc}", 5000)
            return
        if image is None:
            self.job_timer.start(0)  # the next part in the next pass
            return
        self._job = None
        self._thumbs[key] = image
        while len(self._thumbs) > THUMB_CACHE:
            self._thumbs.popitem(last=False)
        nxt = self.next_scene()
        if nxt is not None and self.thumb_key(nxt) == key:
            view.next_picture.setText("")
            self._set_next_image(image)
        if self._wanted_pictures():
            self.thumb_timer.start()  # the next one (or the scene after), when quiet again

    def _drop_job(self) -> None:
        """Stop the picture being drawn (a generator releases its widget)."""
        if self._job is not None:
            close = getattr(self._job[2], "close", None)
            if close is not None:
                close()
        self._job = None

    def _show_panel(self, view_id: str) -> None:
        if self.view is None or view_id not in self.window.states:
            return
        panel = self._panels.get(view_id)
        if panel is None:
            panel = ParamPanel(self.window.states[view_id], self.view.panels)
            panel.setObjectName(f"presenter-panel-{view_id}")
            panel.state.changed.connect(lambda _values: self.schedule_preview())
            self.view.panels.addWidget(panel)
            self._panels[view_id] = panel
        # the main parameter first, as the strip on stage shows it (the same choice)
        controls = self.window.find_feature(StageControls)
        panel.set_first(controls.main_param(view_id) if controls is not None else None)
        self.view.panels.setCurrentWidget(panel)

    @property
    def panel(self) -> ParamPanel | None:
        """The parameter panel the presenter window shows now."""
        if self.view is None:
            return None
        widget = self.view.panels.currentWidget()
        return widget if isinstance(widget, ParamPanel) else None

    def schedule_preview(self) -> None:
        """Grab the stage once it has been still for :data:`PREVIEW_QUIET_MS` (a grab costs
        ~30 ms at 1920×1080: never during a drag or a sweep, where the audience's frames
        come first)."""
        if self.view is not None and self.view.isVisible():
            self.preview_timer.start()

    def _stage_drawn(self) -> None:
        self.schedule_preview()

    def update_preview(self) -> None:
        """Put a picture of the stage as the audience sees it into the presenter window."""
        view = self.view
        if view is None or not view.isVisible():
            return
        if not self.window.wait_idle(0.02) and self._preview_tries < 10:
            self._preview_tries += 1
            self.preview_timer.start()  # still drawing: try again a little later
            return
        self._preview_tries = 0
        note = self.note_text()  # the stage's verdict follows its parameters
        if source_text(view.note) != note:
            set_math_text(view.note, note)
            set_math_text(self.note_dock.label, note)
            self.note_dock.schedule_fit(grow_only=True)
        picture = self.grab_stage()
        size = view.preview.size()
        view.preview.setPixmap(
            picture.scaled(
                size,
                QtCore.Qt.AspectRatioMode.KeepAspectRatio,
                QtCore.Qt.TransformationMode.SmoothTransformation,
            )
        )

    def grab_stage(self) -> QtGui.QPixmap:
        """A picture of the stage as drawn now, after which the current view's canvas
        is repainted whole on screen. The grab is a paint of the canvas (to a picture)
        that Qt counts as its latest: on Xvfb with two screens, ``main.py present``
        kept ghosts of Word order's old axis titles on the audience's stage
        ("queriesɐs", "rows of B B"; 5 runs of 5, none with the grab left out) until
        something repainted them. The stage is still when this runs: one repaint,
        identical where nothing was stale."""
        picture = self.window.stage.grab()
        widget = self.window.views.get(self.window.current_view)
        if widget is not None:
            widget.canvas.viewport().update()
        return picture

    # ------------------------------------------------------------------ note strip
    def toggle_note(self) -> None:
        """Ctrl+Shift+N: show or hide the speaker note below the stage."""
        self.refresh()
        self._style_note()
        self.note_dock.setVisible(not self.note_dock.isVisible())

    def _style_note(self) -> None:
        theme = current_theme()
        self.note_dock.label.setStyleSheet(
            f"font-size: {theme.font_pt(12)}pt; color: {theme.foreground};"
        )
        self.note_dock.schedule_fit()  # (another UI scale: other lines)

    # ------------------------------------------------------------------ keys
    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        view = self.view
        if (
            view is not None
            and event.type() == QtCore.QEvent.Type.ShortcutOverride
            and isinstance(event, QtGui.QKeyEvent)
            and isinstance(obj, EDITOR_WIDGETS)
            and obj.window() is view
        ):
            mods = event.modifiers() & ~QtCore.Qt.KeyboardModifier.KeypadModifier
            plain = mods in (
                QtCore.Qt.KeyboardModifier.NoModifier,
                QtCore.Qt.KeyboardModifier.ShiftModifier,
            )
            typing = (
                isinstance(obj, QtWidgets.QLineEdit)
                and not isinstance(obj.parent(), (QtWidgets.QAbstractSpinBox, QtWidgets.QComboBox))
                and bool(event.text())
                and event.text().isprintable()
            )
            if plain and (event.key() in _FIELD_KEYS or typing):
                event.accept()  # the field keeps its arrows and its letters
                return True
        if obj is view and event.type() == QtCore.QEvent.Type.Resize:
            self.schedule_preview()
            self._set_next_image(self.next_image)  # scaled to the label's new size
        return False


def install_presenter(
    window: StudioWindow, display: DisplayController, deck: DeckController
) -> Presenter:
    """Add the presenter window and the note strip to ``window`` (a feature)."""
    return window.add_feature(Presenter(window, display, deck))
