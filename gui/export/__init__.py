"""Export of views and plots: the headless code path and the window's export actions."""
