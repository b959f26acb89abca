"""Deck exports show scenes as the stage does (issue 14, item 2 for exports): a scene's
``panels`` (which ones, in which order), its ``highlight`` (the rest dimmed) and its
``reveal`` (one PDF page per step; image folders and handouts fully revealed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from PySide6 import QtGui

from core.scenes import load_deck
from gui import cli
from gui.export.deck import scene_image

W, H = 480, 300
SIZE = ["--width", str(W), "--height", str(H)]


def _deck(tmp_path: Path) -> Path:
    base = {"view": "sinusoidal", "params": {"seq_len": 32, "d_model": 32}}
    scenes = [
        {**base, "title": "All"},
        {**base, "title": "Heatmap left", "panels": ["heatmap", "waves"]},
        {**base, "title": "Heatmap right", "panels": ["waves", "heatmap"]},
        {
            **base,
            "title": "Row 5",
            "panels": ["heatmap", "waves"],
            "highlight": {"panel": "heatmap", "row": 5},
        },
        {**base, "title": "Reveal", "panels": ["waves", "heatmap", "sum"], "reveal": True},
    ]
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"format": "pe-studio-deck", "version": 1, "scenes": scenes}))
    return path


def _colourful(image: QtGui.QImage) -> np.ndarray:
    """Mask of strongly coloured pixels (heatmap cells; curves are thin)."""
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    data = np.frombuffer(image.constBits(), np.uint8, count=image.bytesPerLine() * h)
    rgb = data.reshape(h, image.bytesPerLine())[:, : 3 * w].reshape(h, w, 3).astype(int)
    return (rgb.max(axis=2) - rgb.min(axis=2)) > 90


def _halves(mask: np.ndarray) -> tuple[float, float]:
    w = mask.shape[1]
    return float(mask[:, : w // 2].mean()), float(mask[:, w // 2 :].mean())


@pytest.fixture(scope="module")
def slides(tmp_path_factory) -> list[np.ndarray]:
    tmp = tmp_path_factory.mktemp("deck")
    out = tmp / "slides"
    assert cli.main(["export", "--deck", str(_deck(tmp)), "-o", str(out), *SIZE], 0.0) == 0
    files = sorted(out.iterdir())
    assert len(files) == 5  # one image per scene (fully revealed), whatever the reveal
    return [_colourful(QtGui.QImage(str(f))) for f in files]


def test_panels_choose_and_order_the_plots(slides):
    every, left, right = slides[0], slides[1], slides[2]
    # two plots fill the slide: the heatmap is much larger than among all six
    assert left.mean() > 1.5 * every.mean()
    l_left, l_right = _halves(left)
    r_left, r_right = _halves(right)
    assert l_left > 3 * l_right  # heatmap first: on the left
    assert r_right > 3 * r_left  # heatmap second: on the right


def test_highlight_dims_the_rest(slides):
    plain, highlighted = slides[1], slides[3]
    assert highlighted.mean() < 0.5 * plain.mean()  # one row of 32 keeps its colours
    assert highlighted.mean() > 0  # that row is there


def _solid(mask: np.ndarray) -> np.ndarray:
    """Coloured pixels whose neighbours 2 px away are coloured too: filled areas such as
    heatmap cells survive, thin curves and legend samples do not."""
    out = np.zeros_like(mask)
    inner = mask[2:-2, 2:-2].copy()
    for dy, dx in ((2, 0), (-2, 0), (0, 2), (0, -2)):
        inner &= mask[2 + dy : mask.shape[0] - 2 + dy, 2 + dx : mask.shape[1] - 2 + dx]
    out[2:-2, 2:-2] = inner
    return out


def test_reveal_image_folder_is_fully_revealed(slides):
    revealed = slides[4]
    # the heatmap (second of three) is drawn: a filled block of colour (the same slide
    # without the heatmap has ~0.0002 of such pixels, with it ~0.02)
    assert _solid(revealed).mean() > 0.005


def _pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", path.read_bytes()))


def test_pdf_has_one_page_per_reveal_step_and_handouts_one_per_scene(tmp_path):
    # of _deck's scenes: all plots, chosen plots with a highlight, the reveal (the two
    # left out choose and order plots as the highlight's scene does: one page each)
    data = json.loads(_deck(tmp_path).read_text())
    data["scenes"] = [data["scenes"][i] for i in (0, 3, 4)]
    deck = tmp_path / "three.json"
    deck.write_text(json.dumps(data))
    pdf = tmp_path / "talk.pdf"
    assert cli.main(["export", "--deck", str(deck), "-o", str(pdf), *SIZE], 0.0) == 0
    assert _pdf_pages(pdf) == 2 + 3  # two scenes without reveal, three reveal steps
    handout = tmp_path / "handout.pdf"
    args = ["export", "--deck", str(deck), "-o", str(handout), "--notes", *SIZE]
    assert cli.main(args, 0.0) == 0
    assert _pdf_pages(handout) == 3


def test_reveal_steps_show_the_panels_one_by_one(tmp_path, qapp):
    scene = load_deck(_deck(tmp_path)).scenes[4]
    steps = [_colourful(scene_image(scene, W, H, shown)) for shown in (1, 2, 3)]
    full = _colourful(scene_image(scene, W, H))
    # step 1: the waves only (few coloured pixels); step 2 adds the heatmap, which keeps
    # its place of the full layout (the room of the hidden plots stays free)
    assert steps[1].mean() > 3 * steps[0].mean()
    assert np.mean(steps[1] == full) > 0.9
    assert np.array_equal(steps[2], full)
