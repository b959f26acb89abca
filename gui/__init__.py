"""Qt user interface of Positional Encoding Studio (PySide6 + pyqtgraph)."""
