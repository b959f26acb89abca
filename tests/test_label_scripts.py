"""Plot titles, axis titles and legend entries typeset their math (m_h as m with a
subscript h, R_{i−j}, 2^{−8h/n}): as the formula line does, on screen, on stage, in
focus mode and in exports, measured as drawn (wrapping, overlap checks)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from core.formula import label_markup, label_rich_text, rich_text
from core.viewdata import ComputeContext
from core.views import VIEW_IDS, compute_view, get_view
from gui.render.scripts import SCRIPT_SHARE, script_role, typeset_scripts


@pytest.mark.parametrize(
    ("text", "rich"),
    [
        ("Slope m_h per head", "Slope m<sub>h</sub> per head"),
        ("(b) q_i·W_R R_{i−j}", "(b) q<sub>i</sub>·W<sub>R</sub> R<sub>i−j</sub>"),
        ("m_h = 2^{−8h/n}", "m<sub>h</sub> = 2<sup>−8h/n</sup>"),
        ("|x_i|² = 31.5, p_i·p_i", "|x<sub>i</sub>|² = 31.5, p<sub>i</sub>·p<sub>i</sub>"),
        ("sum A_{ij}", "sum A<sub>ij</sub>"),
        # identifiers, file names and stray characters stay as written
        ("position ids (get_rope_index)", "position ids (get_rope_index)"),
        ("longrope short_factor (L ≤ 2048)", "longrope short_factor (L ≤ 2048)"),
        ("train_len = 32, pos_1.npy", "train_len = 32, pos_1.npy"),
        ("a _b, x^, {c} d\\e", "a _b, x^, {c} d\\e"),
        ("j < i & x_{a", "j &lt; i &amp; x_{a"),
        # a power written in parentheses, as the views' prose writes it
        ("slope m_h (2^(−8h/n) for powers", "slope m<sub>h</sub> (2<sup>−8h/n</sup> for powers"),
        ("θ_i = base^(−2i/d_rot).", "θ<sub>i</sub> = base<sup>−2i/d_rot</sup>."),
        ("decays as ζ_i^((m−n)/b).", "decays as ζ<sub>i</sub><sup>(m−n)/b</sup>."),
        ("meanᵢ ζᵢ^(Δ/b)", "meanᵢ ζᵢ<sup>Δ/b</sup>"),
        ("sin(pos / 10000^(2i/d))", "sin(pos / 10000<sup>2i/d</sup>)"),
        ("R_{i−j}^(2) 1.5^(x)", "R<sub>i−j</sub><sup>2</sup> 1.5<sup>x</sup>"),
        # ... not after an identifier, a dotted name or code, nor unbalanced or empty
        ("d_rot^(2), torch.x^(2), a ^(b)", "d_rot^(2), torch.x^(2), a ^(b)"),
        ("x^(2 and x^() and x**(2)", "x^(2 and x^() and x**(2)"),
        ('re "^(.*\\D)" torch.arange(8)', 're "^(.*\\D)" torch.arange(8)'),
    ],
)
def test_label_scripts_and_literal_underscores(text, rich):
    assert label_rich_text(text) == rich
    assert rich_text(label_markup(text)) == rich


def test_every_drawn_label_of_every_view_keeps_its_characters(qapp):
    """Each title, axis title and legend entry of every view (defaults), and its
    explanation, notes and parameter descriptions, is drawn with the characters it had,
    less only the ``_``, ``^`` and braces of its scripts and the parentheses of a
    ``^(…)`` power (a hyphen stays one: only the formula line sets a minus sign). The
    powers set as superscripts are exactly the prose's ones."""
    import re

    seen = 0
    powers: list[str] = []
    for view_id in VIEW_IDS:
        spec = get_view(view_id)
        values = spec.model.validate({}, partial=True)
        data = compute_view(view_id, values, ComputeContext(64, 256))
        texts = [spec.explanation, *data.display_notes()] + [p.help for p in spec.model.params]
        for panel in data.panels:
            texts += [panel.title, panel.x_label, panel.y_label]
            texts += [s.name for s in panel.series] + [b.label for b in panel.bands]
        for text in texts:
            rich = label_rich_text(text)
            drawn = QtGui.QTextDocumentFragment.fromHtml(rich).toPlainText()
            if "<sub>" in rich or "<sup>" in rich:
                seen += 1
                sups = re.findall(r"<sup>(.*?)</sup>", rich)
                powers += [f"^({s})" for s in sups if f"^({s})" in text]
                for sup in sups:  # a ^(…) power's parentheses are not drawn
                    text = text.replace(f"^({sup})", f"^{{{sup}}}")
                kept = [c for c in text if c not in "_^{}"]
                assert [c for c in drawn if c not in "_^{}"] == kept, text
            else:
                assert drawn == text
            assert "^(" not in text  # every power of these texts set as one
    assert seen >= 20  # (m_h, θ_i, R_{i−j}, x_i + p_i, PE_p · PE_q, ...)
    assert set(powers) == {
        "^((m−n)/b)",
        "^(m/b)",
        "^(−2i/d)",
        "^(−2i/d_rot)",
        "^(−8h/n)",
        "^(−n/b)",
        "^(Δ/b)",
    }


def _painted_box(item: QtWidgets.QGraphicsTextItem) -> tuple[int, int, int, int]:
    rect = item.boundingRect()
    image = QtGui.QImage(
        int(rect.width()) + 2, int(rect.height()) + 2, QtGui.QImage.Format.Format_ARGB32
    )
    image.fill(0)
    painter = QtGui.QPainter(image)
    item.paint(painter, QtWidgets.QStyleOptionGraphicsItem(), None)
    painter.end()
    inked = [
        (x, y)
        for y in range(image.height())
        for x in range(image.width())
        if image.pixelColor(x, y).alpha() > 60
    ]
    xs, ys = [x for x, _ in inked], [y for _, y in inked]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


@pytest.mark.parametrize("four_fifths", [False, True])
def test_ink_of_a_wrapped_title_with_scripts_is_where_it_is_painted(qapp, four_fifths):
    """The layout checks measure a title's lines as drawn: its scripts smaller, lower
    or higher; a long first line and a short centred second one (Sinusoidal's "… token
    i = 10:" / "x_i + p_i") were measured with the second line's text on the first.
    Also with the scripts typeset at four fifths (their own font, moved by their
    baseline offset: :func:`typeset_scripts`)."""
    from gui.plotting.layout_check import text_ink

    item = QtWidgets.QGraphicsTextItem()
    font = QtGui.QFont()
    font.setPointSizeF(26)
    item.setFont(font)
    item.setHtml(
        "What added to the input does to token i = 10:<br>"
        + label_rich_text("x_j + p_j = 2^{−8h/n}")
    )
    if four_fifths:
        assert typeset_scripts(item.document())
    option = item.document().defaultTextOption()
    option.setAlignment(QtGui.Qt.AlignmentFlag.AlignHCenter)
    item.document().setDefaultTextOption(option)
    item.setTextWidth(item.document().idealWidth())
    ink = text_ink(item).getCoords()
    painted = _painted_box(item)
    assert all(abs(a - b) <= 1.5 for a, b in zip(ink, painted, strict=True)), (ink, painted)


def _script_sizes(item: QtWidgets.QGraphicsTextItem) -> tuple[list[float], list[float]]:
    """The point sizes ``item``'s script runs and its other runs are drawn at."""
    scripts, text = [], []
    block = item.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            size = fmt.font().pointSizeF()
            if fmt.verticalAlignment() != QtGui.QTextCharFormat.VerticalAlignment.AlignNormal:
                size = float(fmt.font().pointSize() * 2 // 3)  # Qt's own: two thirds
            (scripts if script_role(fmt) else text).append(size)
            it += 1
        block = block.next()
    return scripts, text


def test_scripts_are_four_fifths_of_their_text_on_stage(studio, show_view):
    """On a 1920 x 1080 stage at 150 % the scripts of a title (ALiBi's "Slope m_h per
    head"), an axis title ("slope m_h") and legend entries (Transformer-XL's "q_i·W_R
    R_{i−j}") are drawn at four fifths of their text's size or more, and a title line
    with a script is no taller than one without. Qt drew them at two thirds of the
    whole point size: 11 pt of a 17 pt title, under 0.65."""
    from gui.plotting.layout_check import layout_problems

    widget = show_view(studio, "alibi", (1920, 1080), 1.5, present=True)
    slopes = widget.plots["slopes"].plot
    items = {"title": slopes.titleLabel.item, "axis": slopes.getAxis("left").label}
    widget_rel = show_view(studio, "relative", (1920, 1080), 1.5, present=True)
    for _sample, label in widget_rel.plots["xl_terms"].legend.items:
        items[f"legend {label.item.toPlainText()}"] = label.item
    shares = {}
    for name, item in items.items():
        scripts, text = _script_sizes(item)
        if scripts:
            shares[name] = min(scripts) / max(text)
    assert {"title", "axis", "legend (b) qi·WR Ri−j"} <= set(shares), shares
    assert min(shares.values()) >= SCRIPT_SHARE - 0.01, shares
    first = items["title"].document().begin()
    text_font = first.begin().fragment().charFormat().font()  # "Slope m": the text's
    line = first.layout().lineAt(0).height()
    assert line <= QtGui.QFontMetricsF(text_font).height() + 1.0, line  # (whole px)
    assert layout_problems(widget_rel) == []


def _sub_runs(item: QtWidgets.QGraphicsTextItem) -> list[str]:
    """The texts of ``item``'s runs drawn as subscripts."""
    out = []
    block = item.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if script_role(fragment.charFormat()) == "sub":
                out.append(fragment.text())
            it += 1
        block = block.next()
    return out


def test_titles_axis_titles_and_legends_draw_subscripts_on_stage_and_focused(studio, show_view):
    from gui.plotting.layout_check import layout_problems

    widget = show_view(studio, "alibi", (1920, 1080), 2.0, present=True)
    slopes = widget.plots["slopes"].plot
    assert "m<sub>h</sub>" in slopes.titleLabel.text
    assert _sub_runs(slopes.titleLabel.item) == ["h"]  # "Slope m_h per head"
    assert "_" not in slopes.titleLabel.item.toPlainText()
    assert _sub_runs(slopes.getAxis("left").label) == ["h"]  # "slope m_h"
    assert layout_problems(widget) == []
    focus = studio.lecture.focus
    assert focus.focus("slopes")
    try:
        assert studio.wait_idle(60)
        assert _sub_runs(slopes.titleLabel.item) == ["h"]  # larger, still a subscript
    finally:
        focus.unfocus()
    widget = show_view(studio, "relative", (1920, 1080), 2.0, present=True)
    legend = widget.plots["xl_terms"].legend
    entries = {label.item.toPlainText(): _sub_runs(label.item) for _s, label in legend.items}
    assert entries["(b) qi·WR Ri−j"] == ["i", "R", "i−j"]
    assert entries["sum Aij"] == ["ij"]
    assert layout_problems(widget) == []


def test_a_value_is_drawn_with_the_minus_sign_and_read_out_as_data(studio, show_view):
    """A negative value in a plot title, a legend entry, an angle's label and the notes
    line and the hover readout (by the cursor and in the notes line) is drawn with the
    minus U+2212, as the formula line and the tick labels write it: RoPE's "atan2 −73.5°"
    and "m − n = −4", the clock's "−41.1°" (on a projector the same number read "−4" in
    one place and "-4" in the next; the readout read "-73.5° (0.284, -0.959)"). The data
    keep Python's "-"; a name keeps its hyphen ("GPT-2")."""
    from core.formula import minus_signs

    assert minus_signs("GPT-2, 1e-05, x-1") == "GPT-2, 1e-05, x-1"
    widget = show_view(studio, "rope", (1600, 1000), 1.0)
    plane = widget.plots["plane"]
    assert "(0 full turns; atan2 -73.5°)" in plane.panel.note  # as the view wrote it
    assert "atan2 −73.5°" in widget.status_text() and "-73.5" not in widget.status_text()
    score = widget.plots["score"]
    readout = widget.readout_at("score", -4.0, 0.0)
    assert readout.startswith("offset m − n = −4 — ") and "q at m, k at n: −4.6" in readout, readout
    assert "-" not in readout, readout
    # a title and a legend entry with a value (RoPE's were "q: m·θ = 5 rad (atan2
    # −73.5°)" and "m − n = −4"; they name what they show now, the values are the notes')
    shown = score.panel
    series = [replace(s, name=f"m − n = -4 ({s.name})") for s in shown.series]
    score.show(replace(shown, title="q: m·θ = 5 rad (atan2 -73.5°)", series=series))
    try:
        assert score.plot.titleLabel.item.toPlainText().endswith("(atan2 −73.5°)")
        entries = [label.item.toPlainText() for _s, label in score.legend.items]
        assert "m − n = −4 (q at m, k at n)" in entries, entries
        assert not [e for e in entries if "-" in e], entries
        assert score.panel.series[-1].name.startswith("m − n = -4")  # the data keep "-"
    finally:
        score.show(shown)
    hover = widget.plots["plane"]  # the RoPE plane's arrows: q at −73.5°, below the x axis
    vb = hover.plot.getViewBox()
    text = hover.probe_text(vb.mapViewToScene(QtCore.QPointF(0.2, 0.2)))
    assert text is not None and "−73.5° (" in text and "-" not in text, text
    studio.set_view("clock")
    studio.states["clock"].set_param("n", 9.0)  # m − n = 2 − 9: −7 rad, −41.1°
    try:
        clock_view = show_view(studio, "clock", (1600, 1000), 1.0)
        clock = clock_view.plots["plane"]
        assert "-41.1°" in [label.text for label in clock.panel.labels]
        texts = [item.toPlainText() for item in clock.text_labels]
        assert "−41.1°" in texts, texts
        notes = clock_view.status_text()  # (the plane's note: the angle's arithmetic)
        assert "(2 − 9)·1 = −7 rad → −41.1°;" in notes and "-41.1" not in notes, notes
    finally:
        studio.states["clock"].set_param("n", 1.0)
