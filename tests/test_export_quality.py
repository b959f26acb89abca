"""Quality of exported images: scaled PNG exports look like full-size ones (issue 13)."""

import os
import re
import shutil
import subprocess

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gui.export.headless import export_view
from gui.render import snapshot

MINUS = "\u2212"  # the minus sign tick labels write
BACKGROUND_TOLERANCE = 8  # a grid shade differs from white by more (25 at least)


def _pixels(path) -> np.ndarray:
    image = QtGui.QImage(str(path), "PNG").convertToFormat(QtGui.QImage.Format.Format_RGB888)
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return raw[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """``(start, length)`` of the runs of True in a 1-D mask."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(int), [0]])))
    return [(int(a), int(b - a)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _grid_and_data_widths(pixels: np.ndarray) -> tuple[list[int], list[int]]:
    """Widths of the vertical grid lines and of the horizontal data lines of a plot.

    Grid lines: gray columns (r = g = b, not white) spanning most of the image's height.
    Data lines: vertical runs of saturated colour in a column left of the legend and
    of the dashed training-length marker.
    """
    h, w, _ = pixels.shape
    gray = (
        (np.ptp(pixels, axis=2) <= 2)
        & (pixels[..., 0] < 255 - BACKGROUND_TOLERANCE)
        & (pixels[..., 0] > 150)
    )
    tall = gray.sum(axis=0) > 0.5 * h
    grid = [length for _start, length in _runs(tall)]
    saturated = np.ptp(pixels[:, int(0.3 * w)], axis=1) > 60
    data = [length for _start, length in _runs(saturated)]
    return grid, data


def test_scaled_png_grid_is_thinner_than_the_data(tmp_path, qapp):
    # "Defined for which positions?": horizontal data lines on a vertical grid.
    path = tmp_path / "lanes.png"
    export_view("compare", {}, path, panel="extrapolation", width=800, height=500, scale=2)
    grid, data = _grid_and_data_widths(_pixels(path))
    assert len(grid) >= 4 and len(data) >= 4, (grid, data)
    assert max(grid) < np.median(data), (grid, data)


def _label_boxes(monkeypatch) -> list[list[tuple[float, float, float, float]]]:
    """Record, per render, the image-pixel boxes of legends and axis titles."""
    renders: list[list[tuple[float, float, float, float]]] = []
    real = snapshot._paint_tree

    def spy(widget, painter, opaque, top=True, offset=None):
        if top:
            ratio = painter.device().devicePixelRatio()
            boxes = []
            for view in widget.findChildren(QtWidgets.QGraphicsView):
                if view.scene() is None or not view.isVisibleTo(widget):
                    continue
                origin = view.viewport().mapTo(widget, QtCore.QPoint())
                for item in view.scene().items():
                    if not item.isVisible():
                        continue
                    if isinstance(item, pg.LegendItem):
                        rect = item.sceneBoundingRect()
                    elif isinstance(item, pg.AxisItem) and item.label.isVisible():
                        rect = item.label.sceneBoundingRect()
                    else:
                        continue
                    box = view.mapFromScene(rect).boundingRect().translated(origin)
                    boxes.append(
                        tuple(ratio * v for v in (box.x(), box.y(), box.right(), box.bottom()))
                    )
            renders.append(sorted(boxes))
        return real(widget, painter, opaque, top, offset)

    monkeypatch.setattr(snapshot, "_paint_tree", spy)
    return renders


def test_scaled_png_places_legends_and_axis_titles_as_the_full_size_image(
    tmp_path, qapp, monkeypatch
):
    # 800 x 500 at scale 2 is 1600 x 1000 pixels: the same picture as 1600 x 1000 at
    # scale 1 (UI scale 100 % in both), legends and axis titles where they are there.
    renders = _label_boxes(monkeypatch)
    export_view("compare", {}, tmp_path / "s2.png", width=800, height=500, scale=2)
    export_view("compare", {}, tmp_path / "s1.png", width=1600, height=1000)
    scaled, full = renders
    assert len(scaled) == len(full) >= 8  # 3 legends, 6 axis titles
    np.testing.assert_allclose(np.array(scaled), np.array(full), atol=3)


@pytest.mark.parametrize("scale", [2, 8])
def test_scaled_png_has_the_requested_pixel_size(tmp_path, qapp, scale):
    path = tmp_path / "x.png"
    export_view("sinusoidal", {}, path, width=300, height=200, scale=scale)
    assert _pixels(path).shape[:2] == (200 * scale, 300 * scale)


# ------------------------------------------------------------------ portable SVG
SVG_NS = "{http://www.w3.org/2000/svg}"


def _svg(body: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">{body}</svg>'


def test_portable_svg_bakes_scaled_cosmetic_strokes_into_coordinates():
    text = snapshot.portable_svg(
        _svg(
            '<g clip-path="url(#c)"><g stroke="#ff0000" stroke-width="3" '
            'transform="matrix(10,0,0,-10,100,100)">'
            '<polyline vector-effect="non-scaling-stroke" points="0,0 1,1 " />'
            '<path vector-effect="non-scaling-stroke" d="M0,0 L2,0 C2,1 1,2 0,2 Z"/>'
            '<rect vector-effect="non-scaling-stroke" x="1" y="1" width="1" height="2"/>'
            '<text x="0" y="0">kept</text>'
            "</g></g>"
        )
    )
    assert "non-scaling-stroke" not in text
    root = ET.fromstring(text)
    outer = root.find(f"{SVG_NS}g")
    baked, kept = outer.findall(f"{SVG_NS}g")  # in drawing order
    assert "transform" not in baked.attrib and baked.get("stroke-width") == "3"
    assert baked.get("stroke") == "#ff0000" and outer.get("clip-path") == "url(#c)"
    polyline, path, rect = baked
    assert polyline.get("points").split() == ["100,100", "110,90"]
    assert path.get("d") == "M100,100 L120,100 C120,90 110,80 100,80 Z"
    assert rect.tag == f"{SVG_NS}path"
    assert rect.get("d") == "M110,90 L120,90 L120,70 L110,70 Z"
    assert kept.get("transform") == "matrix(10,0,0,-10,100,100)"
    assert kept.find(f"{SVG_NS}text").text == "kept"


def test_portable_svg_joins_the_runs_of_a_line_but_not_separate_labels(qapp):
    font = QtGui.QFont("DejaVu Sans")
    font.setPixelSize(16)
    width = QtGui.QFontMetricsF(font).horizontalAdvance("by p·")
    attrs = 'y="20" font-family="\'DejaVu Sans\', sans-serif" font-size="16" font-weight="400"'
    text = snapshot.portable_svg(
        _svg(
            f'<g><text x="10" {attrs}>by p·</text><text x="{10 + width:.3f}" {attrs}>θ_i</text>'
            f'<text x="{10 + width + 200:.3f}" {attrs}>-3</text>'
            f'<text x="{10 + width + 300:.3f}" {attrs}>-2</text></g>'
        )
    )
    texts = [t.text for t in ET.fromstring(text).iter(f"{SVG_NS}text")]
    assert texts == ["by p·θ_i", "-3", "-2"]


def test_portable_svg_writes_table_break_points_as_plain_text(qapp):
    """A table cell's break points (zero-width spaces, soft hyphens) are not characters
    of an SVG's text; a line Qt broke at a soft hyphen ends with the hyphen Qt drew."""
    attrs = 'y="20" font-family="\'DejaVu Sans\', sans-serif" font-size="16"'
    text = snapshot.portable_svg(
        _svg(
            f'<g><text x="10" {attrs}>max_\u200bposi\u00adtions\u00a0× d table</text>'
            f'<text x="10" y="40" font-size="16">extra para\u00ad</text>'
            f'<text x="10" y="60" font-size="16">meters</text></g>'
        )
    )
    texts = [t.text for t in ET.fromstring(text).iter(f"{SVG_NS}text")]
    assert texts == ["max_positions\u00a0× d table", "extra para-", "meters"]


def test_compare_svg_table_has_no_invisible_break_points(tmp_path, qapp):
    path = tmp_path / "compare.svg"
    export_view("compare", {}, path, width=900, height=1400)  # narrow: cells wrap
    svg = path.read_text("utf-8")
    assert "max_positions" in svg.replace("-", "")
    assert "\u200b" not in svg and "\u00ad" not in svg


@pytest.fixture(scope="module")
def rope_svg(tmp_path_factory, qapp):
    path = tmp_path_factory.mktemp("svg") / "rope.svg"
    export_view("rope", {}, path, width=1600, height=1000)
    png = path.with_suffix(".png")
    export_view("rope", {}, png, width=1600, height=1000)
    return path, png


def test_rope_svg_has_no_non_scaling_strokes_and_whole_formula_line(rope_svg):
    from core.formula import glyph_text
    from core.viewdata import ComputeContext
    from core.views import compute_view, get_view
    from gui.render.formula_label import _math_family

    path, _png = rope_svg
    text = path.read_text(encoding="utf-8")
    assert "non-scaling-stroke" not in text
    root = ET.fromstring(text)  # parses
    values = get_view("rope").model.validate({}, partial=True)
    markup = compute_view("rope", values, ComputeContext(64, 256)).formula_markup
    # the typeset formula is text in its serif font, in runs (italic variables, scripts)
    family = f"'{_math_family()}'"
    runs = [t for t in root.iter(f"{SVG_NS}text") if t.get("font-family", "").startswith(family)]
    drawn = "".join("".join(t.itertext()) for t in runs)
    assert "".join(drawn.split()) == "".join(glyph_text(markup).split()), drawn
    at = next(k for k, t in enumerate(runs) if (t.text or "").endswith("10000"))
    base, exponent = runs[at], runs[at + 1 : at + 4]  # the runs after the base
    assert "".join(t.text for t in exponent) == "−2i/64"  # 10000^{−2i/64}
    for t in exponent:  # smaller, raised (SVG y grows downwards)
        assert float(t.get("font-size")) < 0.9 * float(base.get("font-size"))
        assert float(t.get("y")) < float(base.get("y")) - 3
    assert {t.get("font-style") for t in runs if t.text in ("θ", "p", "m")} == {"italic"}
    assert {t.get("font-style") for t in runs if "rotates" in (t.text or "")} == {"normal"}


def test_rope_svg_sets_plot_title_and_axis_title_scripts_smaller_and_lower(rope_svg):
    """A plot title's and an axis title's subscript (θ_i) is a text of its own in the
    SVG, at four fifths of the title's size (not Qt's two thirds) and below the line's
    baseline, not the characters "θ_i"."""
    path, _png = rope_svg
    runs = list(ET.fromstring(path.read_text(encoding="utf-8")).iter(f"{SVG_NS}text"))
    texts = ["".join(t.itertext()) for t in runs]
    # (the notes line under the plots keeps the panels' titles as text: "mean_i cos …")
    for plain in ("Rotation frequency θ_i", "θ_i (radians"):
        assert not [t for t in texts if plain in t], plain
    for line, after in (("Rotation frequency θ", " per pair"), ("θ", " (radians per position)")):
        at = next(k for k, t in enumerate(texts) if t == line and texts[k + 2].startswith(after))
        base, sub = runs[at], runs[at + 1]
        assert texts[at + 1] == "i"
        share = float(sub.get("font-size")) / float(base.get("font-size"))
        assert 0.78 <= share <= 0.82, share
        assert float(sub.get("y")) > float(base.get("y")) + 1  # (SVG y grows downwards)


def _numbers(svg: Path) -> list[str]:
    """The SVG's texts that are numbers alone (tick labels), with either sign."""
    runs = ET.fromstring(svg.read_text(encoding="utf-8")).iter(f"{SVG_NS}text")
    texts = ("".join(t.itertext()).strip() for t in runs)
    return [t for t in texts if re.fullmatch(rf"[-{MINUS}]?\d+(\.\d+)?", t)]


def test_svg_tick_labels_write_negative_values_with_the_minus_sign(rope_svg, tmp_path):
    """RoPE's view and its plane plot alone, as SVG: the tick labels of negative values
    ("−1.5", "−200") carry the minus U+2212, as in the window; none an ASCII hyphen
    (a plot exported alone had pyqtgraph's own axes: "-1.5")."""
    plane = tmp_path / "plane.svg"
    export_view("rope", {}, plane, panel="plane", width=400, height=400)
    for path in (rope_svg[0], plane):
        numbers = _numbers(path)
        # (one axis, one kind of label: "1.0" beside "0.5", not "1")
        assert {f"{MINUS}1.0", f"{MINUS}0.5", "0", "1.0"} <= set(numbers), numbers
        assert not [t for t in numbers if t.startswith("-")], numbers


def _color_box(pixels: np.ndarray, rgb: tuple[int, int, int]) -> tuple[int, ...]:
    ys, xs = np.nonzero((np.abs(pixels - np.array(rgb)) <= 12).all(axis=2))
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def test_rope_svg_renders_the_arrows_where_the_png_has_them(rope_svg, tmp_path):
    from PySide6 import QtSvg

    path, png = rope_svg
    renderer = QtSvg.QSvgRenderer(str(path))
    assert renderer.isValid()
    image = QtGui.QImage(1600, 1000, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtCore.Qt.GlobalColor.white)
    painter = QtGui.QPainter(image)
    renderer.render(painter)
    painter.end()
    image.save(str(tmp_path / "svg.png"))
    drawn, expected = _pixels(tmp_path / "svg.png"), _pixels(png)
    quadrant = (slice(60, 460), slice(0, 800))  # the rotation plot, top left
    for color in ((0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73)):  # q and k arrows (and labels)
        box = _color_box(drawn[quadrant], color)
        np.testing.assert_allclose(box, _color_box(expected[quadrant], color), atol=6)


def _imagemagick_version() -> str:
    """``convert -version``'s output if ``convert`` is ImageMagick's, else ``""`` (some
    machines put a stand-in named ``convert`` on the PATH that converts nothing)."""
    if shutil.which("convert") is None:
        return ""
    out = subprocess.run(["convert", "-version"], capture_output=True, text=True).stdout
    return out if "ImageMagick" in out else ""


IMAGEMAGICK = _imagemagick_version()


@pytest.mark.skipif(not IMAGEMAGICK, reason="ImageMagick not installed")
def test_imagemagick_draws_the_rope_arrows_as_thin_lines(tmp_path, qapp):
    # ImageMagick ignores vector-effect: a 3 px arrow scaled into data units was drawn
    # as a filled block hundreds of pixels wide.
    svg, png, out = tmp_path / "plane.svg", tmp_path / "plane.png", tmp_path / "im.png"
    export_view("rope", {}, svg, panel="plane", width=400, height=400)
    export_view("rope", {}, png, panel="plane", width=400, height=400)
    subprocess.run(["convert", str(svg), str(out)], check=True, timeout=120)
    drawn, expected = _pixels(out), _pixels(png)
    for color in ((0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73)):  # q and k arrows
        want, got = (
            (np.abs(p - np.array(color)) <= 40).all(axis=2).sum() for p in (expected, drawn)
        )
        assert 0.2 * want <= got <= 2 * want, (color, got, want)


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="librsvg2-bin not installed")
def test_librsvg_draws_the_formula_line(rope_svg, tmp_path):
    # A word-wrapped label's clip landed at the label's untranslated place in the SVG:
    # standard renderers clipped the formula line away.
    path, png = rope_svg
    out = tmp_path / "rsvg.png"
    subprocess.run(["rsvg-convert", str(path), "-o", str(out)], check=True, timeout=120)
    drawn, expected = _pixels(out), _pixels(png)
    band = (slice(44, 66), slice(0, 1600))  # the formula line under the title
    want, got = ((p[band] < 100).all(axis=2).sum() for p in (expected, drawn))
    assert want > 500 and got >= 0.5 * want, (got, want)


def _svg_rects(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """``id`` -> ``(x0, y0, x1, y1)`` of every ``<clipPath>`` (bounds of its path)."""
    rects = {}
    for clip in root.iter(f"{SVG_NS}clipPath"):
        values = [float(v) for v in re.findall(NUMBER, " ".join(p.get("d", "") for p in clip))]
        if values:
            xs, ys = values[::2], values[1::2]
            rects[clip.get("id")] = (min(xs), min(ys), max(xs), max(ys))
    return rects


NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def _clipped_away(root: ET.Element) -> list[str]:
    """Shapes drawn entirely outside the clip that applies to them (invisible in any
    renderer that clips): what a clip left active from an earlier item does."""
    rects, lost = _svg_rects(root), []

    def walk(element, matrix, clip):
        for child in element:
            m = matrix
            if (t := child.get("transform")) is not None:
                a, b, c, d, e, f = (float(v) for v in re.findall(NUMBER, t))
                m = QtGui.QTransform(a, b, c, d, e, f) * matrix
            own = clip
            if (ref := child.get("clip-path")) is not None:
                x0, y0, x1, y1 = rects[ref[5:-1]]  # url(#id), in the element's user space
                own = m.mapRect(QtCore.QRectF(QtCore.QPointF(x0, y0), QtCore.QPointF(x1, y1)))
            if child.tag in (f"{SVG_NS}path", f"{SVG_NS}polyline", f"{SVG_NS}polygon"):
                data = child.get("d") or child.get("points") or ""
                values = [float(v) for v in re.findall(NUMBER, data)]
                if values and own is not None:
                    xs, ys = values[::2], values[1::2]
                    box = m.mapRect(
                        QtCore.QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
                    )
                    if not own.adjusted(-2, -2, 2, 2).intersects(box.adjusted(-1, -1, 1, 1)):
                        lost.append(f"{child.get('stroke') or element.get('stroke')} {data[:40]}")
            walk(child, m, own)

    walk(root, QtGui.QTransform(), None)
    return lost


def test_rope_svg_leaves_no_shape_clipped_away(rope_svg):
    # Qt's SVG writer kept a text label's clip active for what was drawn after it (the
    # RoPE arrows, legend swatches): librsvg and browsers left those out.
    root = ET.fromstring(rope_svg[0].read_text(encoding="utf-8"))
    assert _clipped_away(root) == []


@pytest.mark.parametrize(("view", "params"), [("compare", {}), ("alibi", {"heads": 12})])
def test_svg_exports_keep_strokes_portable(tmp_path, qapp, view, params):
    path = tmp_path / "x.svg"
    export_view(view, params, path, width=800, height=500)
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    clips = _svg_rects(root)
    assert {e.get("clip-path")[5:-1] for e in root.iter() if e.get("clip-path")} <= set(clips)
    # non-scaling strokes only where no transform scales them (ImageMagick, old viewers)
    for group in root.iter(f"{SVG_NS}g"):
        values = [float(v) for v in re.findall(NUMBER, group.get("transform", ""))]
        if values and (abs(values[0]) != 1 or abs(values[3]) != 1 or values[1] or values[2]):
            assert not [e for e in group.iter() if e.get("vector-effect") == "non-scaling-stroke"]


def test_portable_svg_drops_only_the_clips_that_cut_nothing(qapp):
    font = QtGui.QFont("DejaVu Sans")
    font.setPixelSize(16)
    width = QtGui.QFontMetricsF(font).horizontalAdvance("a title")
    attrs = 'font-family="\'DejaVu Sans\', sans-serif" font-size="16" font-weight="400"'
    clip = '<clipPath id="{}"><path d="M{},{} L{},{} L{},{} L{},{} Z"/></clipPath>'
    defs = (
        "<defs>"
        + clip.format("fits", 0, 0, width + 8, 0, width + 8, 30, 0, 30)
        + clip.format("cuts", 0, 0, width / 2, 0, width / 2, 30, 0, 30)
        + clip.format("plot", 10, 10, 100, 10, 100, 100, 10, 100)
        + "</defs>"
    )
    text = snapshot.portable_svg(
        _svg(
            defs
            + '<g clip-path="url(#fits)"><g transform="matrix(1,0,0,1,0,0)">'
            + f'<text x="4" y="20" {attrs}>a title</text></g></g>'
            + f'<g clip-path="url(#cuts)"><text x="4" y="20" {attrs}>a title</text></g>'
            + '<g clip-path="url(#plot)" stroke="#000" stroke-width="1">'
            + '<polyline points="20,20 90,90"/></g>'
            + '<g clip-path="url(#plot)" stroke="#000" stroke-width="1">'
            + '<polyline points="20,20 190,90"/></g>'
        )
    )
    groups = [g for g in ET.fromstring(text) if g.tag == f"{SVG_NS}g"]
    assert [g.get("clip-path") for g in groups] == [None, "url(#cuts)", None, "url(#plot)"]


def _render_rsvg(svg: Path, out: Path) -> np.ndarray:
    subprocess.run(
        ["rsvg-convert", "-b", "white", str(svg), "-o", str(out)], check=True, timeout=120
    )
    return _pixels(out)


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="librsvg2-bin not installed")
def test_librsvg_draws_the_rope_arrows_legend_swatches_and_whole_titles(rope_svg, tmp_path):
    path, png = rope_svg
    drawn, expected = _render_rsvg(path, tmp_path / "rsvg.png"), _pixels(png)
    plane = (slice(100, 460), slice(50, 540))  # the rotation plot, top left (labels too)
    legend = (slice(120, 200), slice(600, 1000))  # the frequency plot's legend
    for part, colors in (
        (plane, ((0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73), (0x00, 0x72, 0xB2))),
        (legend, ((0x00, 0x9E, 0x73), (0xE6, 0x9F, 0x00))),
    ):
        for color in colors:
            want, got = (
                (np.abs(p[part] - np.array(color)) <= 40).all(axis=2).sum()
                for p in (expected, drawn)
            )
            assert 0.7 * want <= got <= 1.4 * want, (part, color, got, want)
    # no title loses its last letter to a clip: the same as with no clips at all
    unclipped = tmp_path / "unclipped.svg"
    unclipped.write_text(re.sub(r' clip-path="[^"]*"', "", path.read_text("utf-8")), "utf-8")
    bare = _render_rsvg(unclipped, tmp_path / "bare.png")
    titles = (slice(88, 124), slice(0, 1600))
    assert (np.abs(drawn[titles] - bare[titles]).sum(axis=2) > 60).sum() == 0


@pytest.mark.skipif(
    not IMAGEMAGICK
    or "MSVG"
    not in subprocess.run(["convert", "-list", "format"], capture_output=True, text=True).stdout,
    reason="ImageMagick with its own SVG renderer not installed",
)
def test_imagemagick_own_renderer_draws_the_plot_not_its_outside(tmp_path, qapp):
    # ImageMagick 6's MSVG renderer inverts clip paths: it drew only what lay outside a
    # clip (the RoPE plane's circle, grid and arrows were missing).
    svg, png, out = tmp_path / "plane.svg", tmp_path / "plane.png", tmp_path / "im.png"
    export_view("rope", {}, svg, panel="plane", width=400, height=400)
    export_view("rope", {}, png, panel="plane", width=400, height=400)
    subprocess.run(["convert", f"msvg:{svg}", str(out)], check=True, timeout=120)
    drawn, expected = _pixels(out), _pixels(png)
    for color in ((0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73), (0x99, 0x99, 0x99)):
        want, got = (
            (np.abs(p - np.array(color)) <= 40).all(axis=2).sum() for p in (expected, drawn)
        )
        # (its grey grid lines and circle take ~1.7-2.1 times our pixels: drawn wider)
        assert 0.5 * want <= got <= 2.5 * want, (color, got, want)
