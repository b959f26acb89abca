"""One :class:`core.viewdata.Panel` drawn as one pyqtgraph plot (lines, heatmaps, extras)."""
