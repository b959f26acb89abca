"""Heatmap cells stay sharp in exported SVG, in librsvg and Inkscape alike (issue 14)."""

import os
import shutil
import subprocess

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6 import QtCore, QtGui
from tiers import gate_cover

from core.views import VIEW_IDS
from gui.export.headless import export_view
from gui.render import snapshot

NS = "{http://www.w3.org/2000/svg}"


def _png_href(pixels: np.ndarray) -> str:
    h, w, _ = pixels.shape
    data = np.ascontiguousarray(pixels, dtype=np.uint8)
    image = QtGui.QImage(data.data, w, h, 4 * w, QtGui.QImage.Format.Format_RGBA8888).copy()
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return "data:image/png;base64," + bytes(buffer.data().toBase64()).decode("ascii")


def _svg_with_image(pixels: np.ndarray, scale: float, scale_y: float | None = None) -> ET.Element:
    h, w, _ = pixels.shape
    sy = scale if scale_y is None else scale_y
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="400" height="400">'
        f'<g transform="matrix({scale},0,0,{sy},10,20)">'
        f'<image x="0" y="0" width="{w}" height="{h}" preserveAspectRatio="none"'
        f' xlink:href="{_png_href(pixels)}"/></g></svg>'
    )
    return ET.fromstring(snapshot.portable_svg(text))


def test_a_small_enlarged_image_becomes_one_rect_per_run_of_equal_cells(qapp):
    pixels = np.zeros((2, 3, 4), np.uint8)
    pixels[..., 3] = 255
    pixels[0, :2, 0] = 200  # two equal red cells: one rect
    pixels[0, 2, 2] = 100
    pixels[1, :, 1] = [10, 20, 30]
    pixels[1, 2, 3] = 0  # transparent: no rect
    root = _svg_with_image(pixels, 20.0)
    assert list(root.iter(f"{NS}image")) == []
    (group,) = [g for g in root.iter(f"{NS}g") if g.get("shape-rendering") == "crispEdges"]
    rects = [(r.get("x"), r.get("y"), r.get("width"), r.get("fill")) for r in group]
    assert rects == [
        ("0", "0", "2", "#c80000"),
        ("2", "0", "1", "#000064"),
        ("0", "1", "1", "#000a00"),
        ("1", "1", "1", "#001400"),
    ]


def test_a_large_enlarged_heatmap_image_asks_for_nearest_neighbour_scaling(qapp):
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, (80, 90, 4), dtype=np.uint8)
    pixels[..., 3] = 255
    (image,) = _svg_with_image(pixels, 4.0).iter(f"{NS}image")
    assert image.get("image-rendering") == "optimizeSpeed"
    assert image.get("style").endswith("image-rendering:optimizeSpeed;image-rendering:pixelated")
    # at its own resolution too (nearest-neighbour, as Qt drew it; a viewer's own
    # smoothing would only blur it)
    (plain,) = _svg_with_image(pixels, 1.0).iter(f"{NS}image")
    assert plain.get("style") == snapshot._PIXELATED


def test_an_image_enlarged_in_one_direction_only_asks_for_nearest_neighbour_scaling(qapp):
    """The PE matrix at seq_len 200, d 16 (the deck's scene 5): 16 columns ~33 px wide,
    200 rows under a pixel each. Its columns were left to the viewer's smoothing (no
    nearest-neighbour style: only images enlarged in both directions got one), so in a
    browser each column blurred into the next."""
    rng = np.random.default_rng(1)
    pixels = rng.integers(0, 256, (200, 16, 4), dtype=np.uint8)
    pixels[..., 3] = 255
    (image,) = _svg_with_image(pixels, 33.0, 0.85).iter(f"{NS}image")
    assert image.get("style").endswith("image-rendering:optimizeSpeed;image-rendering:pixelated")
    # shrunk in both directions: nearest-neighbour too, as Qt drew it (the similarity
    # heatmap at seq_len 100 in an ~80 px plot was left to a browser, which blurred it)
    (shrunk,) = _svg_with_image(pixels, 0.9, 0.85).iter(f"{NS}image")
    assert shrunk.get("style") == snapshot._PIXELATED
    assert shrunk.get("image-rendering") == "optimizeSpeed"


# every view as exported (Export all views…'s size), and views whose heatmaps are drawn
# smaller than their cells: a small page, long sequences
_SVG_EXPORTS = [(view_id, {}, None) for view_id in VIEW_IDS] + [
    ("sinusoidal", {}, (640, 400)),
    ("sinusoidal", {"seq_len": 400}, None),  # its similarity heatmap: 400 rows in ~300 px
    ("relative", {}, (640, 400)),
    ("alibi", {"seq_len": 256}, (640, 400)),
    ("learned", {}, (640, 400)),
]


# the gate: every view as exported, and the heatmaps drawn smaller than their cells by a
# long sequence (Sinusoidal's 400, ALiBi's 256 on the small page); the other small-page
# cases (Sinusoidal, Relative, Learned at 640 x 400) with --full
_SVG_GATE = [*_SVG_EXPORTS[: len(VIEW_IDS)], _SVG_EXPORTS[len(VIEW_IDS) + 1], _SVG_EXPORTS[-2]]


@pytest.mark.parametrize(
    ("view_id", "params", "size"), gate_cover(_SVG_EXPORTS, keep=_SVG_GATE, unpack=True)
)
def test_every_heatmap_image_of_an_svg_export_is_pixelated(qapp, tmp_path, view_id, params, size):
    path = tmp_path / f"{view_id}.svg"
    width, height = size or (None, None)
    export_view(view_id, params, path, width=width, height=height)
    images = list(ET.parse(path).getroot().iter(f"{NS}image"))
    blurred = [
        f"{i.get('width')}x{i.get('height')}"
        for i in images
        if not (i.get("style") or "").endswith(snapshot._PIXELATED)
        or i.get("image-rendering") != "optimizeSpeed"
    ]
    assert blurred == [], f"{view_id} {params} {size}: {len(images)} images"


@pytest.fixture(scope="module")
def grid_svg(tmp_path_factory, qapp):
    path = tmp_path_factory.mktemp("cells") / "grid.svg"
    export_view("relative", {}, path, panel="grid", width=480, height=480)  # cells > 10 px
    return path


def _cell_geometry(root: ET.Element) -> tuple[float, float, float, list[ET.Element]]:
    """``(x0, y0, cell px, rects)`` of the course grid's crisp cells in output pixels."""
    for parent in root.iter(f"{NS}g"):
        for group in parent:
            if group.get("shape-rendering") == "crispEdges":
                m = snapshot._matrix(parent.get("transform"))
                assert m is not None and m[1] == m[2] == 0
                rects = list(group)
                return m[4], m[5], m[0], rects
    raise AssertionError("no crisp cell group in the SVG")


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="librsvg2-bin not installed")
def test_librsvg_draws_the_course_grid_with_sharp_cell_edges(grid_svg, tmp_path):
    out = tmp_path / "grid.png"
    subprocess.run(
        ["rsvg-convert", "-b", "white", str(grid_svg), "-o", str(out)], check=True, timeout=120
    )
    image = QtGui.QImage(str(out)).convertToFormat(QtGui.QImage.Format.Format_RGB888)
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
    pixels = raw[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)
    x0, y0, cell, rects = _cell_geometry(ET.parse(grid_svg).getroot())
    fills = {tuple(int(r.get("fill")[i : i + 2], 16) for i in (1, 3, 5)) for r in rects}
    assert cell > 10 and len(rects) == 144  # 12 x 12 cells, each its own colour run
    for row in (0, 5, 11):  # just under a row's top edge: no value text there
        y = int(y0 + row * cell + 2)
        line = pixels[y, int(x0) + 1 : int(x0 + 12 * cell) - 1]
        colours = [tuple(p) for p in line]
        assert set(colours) <= fills  # no colour between two cells'
        changes = sum(a != b for a, b in zip(colours, colours[1:], strict=False))
        assert changes == 11  # every cell edge is one step from one colour to the next


def _texts(path) -> list[str]:
    return [t.text or "" for t in ET.parse(path).getroot().iter(f"{NS}text")]


def test_the_values_of_neighbouring_cells_stay_apart_in_svg(qapp, tmp_path):
    """A grid's cell values are each their own text in an SVG export: Word order's
    out_B − out_A grid of zeros read '00 00 …' (pairs of neighbouring cells written as
    one text at the first cell's place) and Relative's T5 buckets '1718 1920 2122', since
    a value ended within a quarter em of where its neighbour's began and was taken for
    a run of the same line. Qt's own runs of one line continue each other to 0.01 px
    (measured over every view and lecture scene); neighbouring cells are 3 px apart."""
    path = tmp_path / "word_order.svg"
    export_view("permutation", {}, path)
    texts = _texts(path)
    assert [t for t in texts if t.strip("0") == "" and len(t) > 1] == []
    assert texts.count("0") >= 3 * 16  # the no-position difference: 3 words x 16 dims
    path = tmp_path / "relative.svg"
    export_view("relative", {}, path)
    texts = _texts(path)
    # two neighbouring buckets as one text: "1718", "2424" (not the ticks' "1000")
    pairs = [t for t in texts if t.isdigit() and len(t) == 4 and int(t[2:]) - int(t[:2]) in (0, 1)]
    assert pairs == []
    assert texts.count("17") >= 8  # the T5 grid's first log bucket, on every row it shows


def test_runs_of_one_line_are_still_joined_in_svg(qapp):
    """Qt writes a line as runs (here split before a Greek letter): they become one
    text again, as before."""
    font = 'font-family="\'DejaVu Sans\'" font-size="16" font-weight="400" font-style="normal"'
    first = "Wavelength 2"
    probe = ET.Element("text", {"font-family": "'DejaVu Sans'", "font-size": "16"})
    probe.set("font-weight", "400")
    probe.set("font-style", "normal")
    width = QtGui.QFontMetricsF(snapshot._text_font(probe)).horizontalAdvance(first)
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><g>'
        f'<text x="10" y="50" {font}>{first}</text>'
        f'<text x="{10 + width:.4f}" y="50" {font}>\u03c0/\u03c9</text>'
        "</g></svg>"
    )
    root = ET.fromstring(snapshot.portable_svg(text))
    assert [t.text for t in root.iter(f"{NS}text")] == ["Wavelength 2\u03c0/\u03c9"]
