"""The lines of a legend entry as Qt wrapped them (tests of the legend strip)."""

from __future__ import annotations

import pyqtgraph as pg


def entry_lines(label: pg.LabelItem) -> list[str]:
    """A legend entry's lines as Qt wrapped them, a no-break space read as a space
    (blank lines left out)."""
    document = label.item.document()
    document.size()  # (laid out)
    block, lines = document.begin(), []
    while block.isValid():
        layout, text = block.layout(), block.text()
        for k in range(layout.lineCount()):
            line = layout.lineAt(k)
            lines.append(text[line.textStart() : line.textStart() + line.textLength()])
        block = block.next()
    return [line.replace("\u00a0", " ").strip() for line in lines if line.strip()]
