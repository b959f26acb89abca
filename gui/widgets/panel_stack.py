"""A stack of parameter panels that is exactly as large as the panel shown."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


class _CurrentPageLayout(QtWidgets.QStackedLayout):
    """A stacked layout whose size hints and height-for-width are the current page's.

    ``QStackedLayout`` sizes to its largest page, height-for-width included (which no
    size policy turns off), so a scroll area around it kept scrolling the short
    Sinusoidal panel after a visit to RoPE's long one.
    """

    def _page(self) -> QtWidgets.QWidget | None:
        return self.currentWidget()

    def sizeHint(self) -> QtCore.QSize:
        page = self._page()
        return page.sizeHint() if page is not None else QtCore.QSize(0, 0)

    def minimumSize(self) -> QtCore.QSize:
        page = self._page()
        if page is None:
            return QtCore.QSize(0, 0)
        return page.minimumSizeHint().expandedTo(page.minimumSize())

    def hasHeightForWidth(self) -> bool:
        page = self._page()
        return page is not None and page.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        page = self._page()
        return page.heightForWidth(width) if page is not None else -1


class PanelStack(QtWidgets.QWidget):
    """Shows one of several pages; its size is that of the page shown."""

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = _CurrentPageLayout(self)
        self._layout.currentChanged.connect(lambda _index: self._refit())

    def addWidget(self, page: QtWidgets.QWidget) -> int:
        """Add ``page`` (hidden until it is made current)."""
        return self._layout.addWidget(page)

    def setCurrentWidget(self, page: QtWidgets.QWidget) -> None:
        """Show ``page``."""
        self._layout.setCurrentWidget(page)

    def currentWidget(self) -> QtWidgets.QWidget | None:
        """The page shown."""
        return self._layout.currentWidget()

    def count(self) -> int:
        """Number of pages."""
        return self._layout.count()

    def _refit(self) -> None:
        self._layout.invalidate()
        self.updateGeometry()  # a scroll area around it re-fits it to the new page
