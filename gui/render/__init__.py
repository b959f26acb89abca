"""Drop-in pyqtgraph items (axes, curves, images, grid, labels) and image output.

The lowest layer of the window: it knows nothing of views, panels or the window. Every
private pyqtgraph member it needs is reached through :mod:`gui.render.pg_compat`.
"""
