"""Pure computation for Positional Encoding Studio (numpy; torch optional and lazy).

This package never imports Qt, pyqtgraph or ``gui``.
"""
