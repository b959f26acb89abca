"""Widgets of the window: the generated parameter panel, the view widget and view state."""
