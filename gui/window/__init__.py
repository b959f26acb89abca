"""The main window, its update engine, and the small interface features use to reach it."""
