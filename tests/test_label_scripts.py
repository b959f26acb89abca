"""Plot titles, axis titles and legend entries typeset their math (m_h as m with a
subscript h, R_{i−j}, 2^{−8h/n}): as the formula line does, on screen, on stage, in
focus mode and in exports, measured as drawn (wrapping, overlap checks)."""

from __future__ import annotations

import pytest
from PySide6 import QtGui

from core.formula import label_markup, label_rich_text, rich_text
from core.viewdata import ComputeContext
from core.views import VIEW_IDS, compute_view, get_view


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
    ],
)
def test_label_scripts_and_literal_underscores(text, rich):
    assert label_rich_text(text) == rich
    assert rich_text(label_markup(text)) == rich


def test_every_drawn_label_of_every_view_keeps_its_characters(qapp):
    """Each title, axis title and legend entry of every view (defaults) is drawn with
    the characters it had, less only the ``_``, ``^`` and braces of its scripts."""
    seen = 0
    for view_id in VIEW_IDS:
        values = get_view(view_id).model.validate({}, partial=True)
        data = compute_view(view_id, values, ComputeContext(64, 256))
        for panel in data.panels:
            texts = [panel.title, panel.x_label, panel.y_label]
            texts += [s.name for s in panel.series] + [b.label for b in panel.bands]
            for text in texts:
                rich = label_rich_text(text)
                drawn = QtGui.QTextDocumentFragment.fromHtml(rich).toPlainText()
                if "<sub>" in rich or "<sup>" in rich:
                    seen += 1
                    kept = [c for c in text if c not in "_^{}"]
                    assert [c for c in drawn if c not in "_^{}"] == kept, text
                else:
                    assert drawn == text
    assert seen >= 20  # (m_h, θ_i, R_{i−j}, x_i + p_i, PE_p · PE_q, ...)
