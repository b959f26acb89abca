"""Sub- and superscripts drawn at four fifths of their text, for the back row.

Qt's rich text draws a ``<sub>`` or ``<sup>`` run at two thirds of its font's whole
point size (``QTextEngine``: 11 pt text, 7 pt scripts; the θ_i, m_h and 10000^{−2i/d}
of the plots' titles, axis titles and legends, unreadable on a projector). A larger
font on the run does not help: Qt then makes the whole line as tall as that font
(a 30 pt line with a 36 pt subscript run: 56 px rather than 47). :func:`typeset_scripts`
sets each script run of a text document instead at :data:`SCRIPT_SHARE` of its text's
size on the normal baseline, raised or lowered by a share of its own height
(:data:`SUPER_RAISE`, :data:`SUB_DROP`; ``QTextCharFormat.setBaselineOffset``, which
leaves the line's height as it is), and marks it as a script (:func:`script_role`: the
layout checks and the tests find it). The formula line's typesetter
(:mod:`gui.render.formula_label`) draws its scripts at the same :data:`SCRIPT_SHARE`.

A view's explanation and notes line (:class:`gui.render.math_text.MathLabel`,
``MathLineLabel``) typeset the text document Qt lays their rich text out with before
each paint (:func:`gui.render.math_text.typeset_label`); their lines keep the heights
they are measured with. Tooltips, the presenter's note and the handout's note keep Qt's
two-thirds scripts (read close up, not from the back row).
"""

from __future__ import annotations

from PySide6 import QtGui

__all__ = ["SCRIPT_SHARE", "SUB_DROP", "SUPER_RAISE", "script_role", "typeset_scripts"]

SCRIPT_SHARE = 0.8  # a script's size: this share of its text's
#: how far a superscript's baseline is raised and a subscript's lowered, in percent of
#: the script's own height (ascent + descent): Qt's own scripts (half, a sixth) placed
#: at four fifths, their ink as high and as low as Qt's two-thirds scripts reached
SUPER_RAISE = 30.0
SUB_DROP = 15.0
#: the format property that marks a run typeset here as a script: "sub" or "sup"
ROLE = QtGui.QTextFormat.Property.UserProperty + 17

_Align = QtGui.QTextCharFormat.VerticalAlignment
_POINT = QtGui.QTextFormat.Property.FontPointSize
_PIXEL = QtGui.QTextFormat.Property.FontPixelSize


def script_role(fmt: QtGui.QTextCharFormat) -> str:
    """``"sub"`` or ``"sup"`` for a run drawn as a sub- or superscript (typeset here,
    or Qt's own), ``""`` otherwise."""
    role = fmt.property(ROLE)
    if role in ("sub", "sup"):
        return str(role)
    align = fmt.verticalAlignment()
    if align == _Align.AlignSubScript:
        return "sub"
    if align == _Align.AlignSuperScript:
        return "sup"
    return ""


def _scripted(fmt: QtGui.QTextCharFormat, role: str, default: QtGui.QFont) -> QtGui.QTextCharFormat:
    """``fmt`` of a ``role`` run as typeset here: its text's size times
    :data:`SCRIPT_SHARE` (the run's own size, else the document's), on the normal
    baseline moved by :data:`SUPER_RAISE` or :data:`SUB_DROP`."""
    out = QtGui.QTextCharFormat(fmt)
    out.setVerticalAlignment(_Align.AlignNormal)
    if fmt.hasProperty(_PIXEL) and not fmt.hasProperty(_POINT):
        out.setProperty(_PIXEL, max(1, round(fmt.intProperty(_PIXEL) * SCRIPT_SHARE)))
    elif fmt.hasProperty(_POINT):
        out.setFontPointSize(fmt.fontPointSize() * SCRIPT_SHARE)
    elif default.pointSizeF() > 0:
        out.setFontPointSize(default.pointSizeF() * SCRIPT_SHARE)
    else:
        out.setProperty(_PIXEL, max(1, round(default.pixelSize() * SCRIPT_SHARE)))
    out.setBaselineOffset(SUPER_RAISE if role == "sup" else -SUB_DROP)
    out.setProperty(ROLE, role)
    return out


def typeset_scripts(document: QtGui.QTextDocument) -> bool:
    """Set ``document``'s sub- and superscript runs (Qt's, from ``<sub>`` / ``<sup>``)
    at :data:`SCRIPT_SHARE` of their text's size (see the module docstring); whether
    any was. Runs typeset before are left as they are."""
    runs: list[tuple[int, int, QtGui.QTextCharFormat]] = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.verticalAlignment() in (_Align.AlignSubScript, _Align.AlignSuperScript):
                role = "sub" if fmt.verticalAlignment() == _Align.AlignSubScript else "sup"
                runs.append(
                    (
                        fragment.position(),
                        fragment.length(),
                        _scripted(fmt, role, document.defaultFont()),
                    )
                )
            it += 1
        block = block.next()
    if not runs:
        return False
    cursor = QtGui.QTextCursor(document)
    # one edit: the document is laid out again once, not after each run (a notes line
    # with a dozen scripts was laid out a dozen times, 1 ms of a frame)
    cursor.beginEditBlock()
    for position, length, fmt in runs:
        cursor.setPosition(position)
        cursor.setPosition(position + length, QtGui.QTextCursor.MoveMode.KeepAnchor)
        cursor.setCharFormat(fmt)
    cursor.endEditBlock()
    return True
