"""PyInstaller hook for Pygments that collects no lexers, formatters or styles.

Pygments is in the bundle only because superqt.utils imports its syntax highlighter,
which imports ``pygments`` (the app highlights nothing). PyInstaller's own hook adds
every lexer, formatter and style as a hidden import: 310 modules that the app never
loads, ~2 MB of the bundle and seconds of its build. The modules superqt imports
are found by PyInstaller's analysis as usual.
"""

hiddenimports: list[str] = []
