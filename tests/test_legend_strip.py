"""The legend strip's one-line text sizes (kept per entry) follow its entries' text."""

from __future__ import annotations

import pyqtgraph as pg

from gui.plotting.legend_strip import StripLegend


def test_one_line_sizes_follow_text_size_and_renames(qapp):
    plot = pg.PlotItem()
    legend = StripLegend(colCount=1, labelTextSize="10pt")
    legend.attach(plot)
    for name in ("sin", "cos"):
        legend.addItem(plot.plot([0, 1], [0, 1], name=name), name)
    small = legend.one_line_height()
    assert small > 0 and legend.one_line_height() == small  # asked again: the same
    widths = legend.entry_widths()
    for _sample, label in legend.items:  # the theme's larger text (a zoomed plot's)
        label.setText(label.text, size="20pt")
    assert legend.one_line_height() > 1.5 * small
    _sample, label = legend.items[0]
    label.setText("sin, renamed to a much longer entry", size="10pt")
    longer = legend.entry_widths()
    assert longer[0] > 3 * widths[0]
    legend.set_strip(120.0)  # narrow: the long entry wraps, its one-line width stays
    assert label.item.textWidth() > 0
    assert abs(legend.entry_widths()[0] - longer[0]) < 0.1 * longer[0]  # not the 120 px
