"""Property tests: the scene, deck, settings and CLI parameter parsers raise only their
field-named error (SceneError, ParamError, UsageError), whatever they are given.

Fixed example budgets and ``derandomize=True`` keep the run deterministic and short; the
gating suite runs a quarter of each budget, the full suite all of it (tests/tiers.py).
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiers import examples

from core.params import ParamError
from core.scenes import CHECK_CONTEXT as CHECK
from core.scenes import (
    DECK_FORMAT,
    HIGHLIGHT_KINDS,
    SCENE_FORMAT,
    Deck,
    SceneError,
    deck_from_dict,
    load_deck,
    panel_keys,
    parse_json,
    save_deck,
    scene_from_dict,
    scene_to_dict,
)
from core.views import VIEWS, compute_view
from gui.cli import UsageError, parse_params

FAST = settings(max_examples=examples(150), deadline=None, derandomize=True)
SLOW = settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# st.text()'s default alphabet (every character but the surrogates, which "tricky_text"
# samples on its own), given without codec="utf-8": with the codec, Hypothesis tabulates
# which of the 1.1 million code points encode before its first example, ~3 s of CPU in
# every process on a clean clone (CI), where its cache (.hypothesis/) does not exist yet.
CHARS = st.characters(exclude_categories=["Cs"])


def any_text(max_size: int) -> st.SearchStrategy[str]:
    """``st.text(max_size=max_size)`` without the codec table (see ``CHARS``)."""
    return st.text(CHARS, max_size=max_size)


VIEW_IDS = tuple(VIEWS)
PARAM_NAMES = tuple(sorted({p.name for v in VIEWS.values() for p in v.model.params}))
DEFAULTS = tuple(p.default for v in VIEWS.values() for p in v.model.params)

# Text that trips naive parsers: other scripts' digits, underscores, surrogates, markup.
tricky_text = st.one_of(
    any_text(max_size=20),
    st.sampled_from(
        ["1_0", "١٢", "１２", "\ud800", "<b>x</b>", "", " ", "nan", "inf", "-0", "1e400", "0x10"]
    ),
    st.integers(min_value=1, max_value=6000).map(lambda n: "9" * n),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**500), max_value=10**500),
    st.floats(allow_nan=True, allow_infinity=True),
    tricky_text,
    st.sampled_from(DEFAULTS),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(PARAM_NAMES), any_text(max_size=8)), children, max_size=4
        ),
    ),
    max_leaves=12,
)


def near_valid(p) -> st.SearchStrategy:
    """Values of ``p``'s kind around its allowed range (valid more often than not)."""
    if p.kind == "int":
        lo, hi = int(p.minimum), int(p.maximum)
        return st.integers(lo - 1, min(hi, lo + 200) + 1) | st.sampled_from([hi, hi + 1])
    if p.kind == "float":
        return st.floats(p.minimum - 1, p.maximum + 1) | st.sampled_from([p.minimum, p.maximum])
    if p.kind == "bool":
        return st.booleans()
    if p.kind == "choice":
        return st.sampled_from(p.choices)
    if p.kind == "int_list":
        return st.lists(st.integers(int(p.minimum) - 1, int(p.minimum) + 100), max_size=5)
    return any_text(max_size=p.max_items + 2)


def odd(draw: st.DrawFn, valid: st.SearchStrategy, odd_values: st.SearchStrategy) -> object:
    """Mostly a ``valid`` value; one time in eight an odd one."""
    return draw(odd_values if draw(st.integers(0, 7)) == 5 else valid)


@st.composite
def params_objects(draw: st.DrawFn, view_id: str | None = None) -> object:
    """Mostly valid parameter objects with a few wrong, odd or extreme values."""
    view = VIEWS[view_id or draw(st.sampled_from(VIEW_IDS))]
    out: dict[str, object] = {}
    for p in view.model.params:
        if draw(st.booleans()):
            out[p.name] = odd(draw, st.just(p.default) | near_valid(p), json_values)
    if draw(st.integers(0, 9)) == 5:
        out[draw(any_text(max_size=8))] = draw(json_values)
    return draw(json_values) if draw(st.integers(0, 19)) == 5 else out


# Series names and positions the highlight field may name (some exist, some do not).
SERIES_WORDS = ["dim 0", "dim 4", "dim 40", "wavelength", "T5 bucket", "q (m=5)", "ALiBi", ""]
# What each panel is (at the views' defaults): the highlight kinds that fit it.
PANELS = {
    v: {p.key: p for p in compute_view(v, VIEWS[v].model.validate({}, partial=True), CHECK).panels}
    for v in VIEWS
}


def fitting_kinds(panel) -> list[str]:
    if panel.kind in ("curves", "arrows"):
        return ["series"]
    if panel.kind == "heatmap":
        return ["row", "cell", "head"] if panel.tiles else ["row", "cell"]
    return list(HIGHLIGHT_KINDS)


@st.composite
def staging_fields(draw: st.DrawFn, view_id: str) -> dict[str, object]:
    """Mostly valid ``panels`` / ``reveal`` / ``highlight`` fields, sometimes odd."""
    keys = list(panel_keys(view_id))
    out: dict[str, object] = {}
    if draw(st.integers(0, 2)) == 1:
        chosen = draw(st.lists(st.sampled_from(keys), max_size=len(keys), unique=True))
        out["panels"] = odd(draw, st.just(chosen), json_values | st.lists(tricky_text, max_size=3))
    if draw(st.integers(0, 2)) == 1:
        out["reveal"] = odd(draw, st.booleans(), json_values)
    if draw(st.integers(0, 2)) == 1:
        key = draw(st.sampled_from(keys))
        panel = PANELS[view_id][key]
        names = [x.name for x in panel.series] + [a.name for a in panel.arrows]
        kinds = fitting_kinds(panel) if draw(st.integers(0, 4)) else list(HIGHLIGHT_KINDS)
        kind = draw(st.sampled_from(kinds))
        value = {
            "series": st.sampled_from(names + SERIES_WORDS) | tricky_text,
            "row": st.integers(-2, 20),
            "head": st.integers(-1, 40),
            "cell": st.lists(st.integers(-2, 20), min_size=2, max_size=2),
        }[kind]
        highlight: dict[str, object] = {
            "panel": odd(draw, st.just(key), json_values),
            kind: odd(draw, value, json_values),
        }
        if draw(st.integers(0, 9)) == 5:
            highlight[draw(st.sampled_from(HIGHLIGHT_KINDS))] = draw(json_values)
        out["highlight"] = odd(draw, st.just(highlight), json_values)
    return out


@st.composite
def scene_objects(draw: st.DrawFn, in_deck: bool = False) -> object:
    view_id = draw(st.sampled_from(VIEW_IDS))
    out: dict[str, object] = {}
    if not in_deck or draw(st.booleans()):
        out["format"] = odd(draw, st.just(SCENE_FORMAT), st.just(DECK_FORMAT) | json_values)
        out["version"] = odd(draw, st.just(1), st.sampled_from([0, 2, 1.0, True]) | json_values)
    out["view"] = odd(draw, st.just(view_id), json_values)
    if draw(st.booleans()):
        out["title"] = odd(draw, any_text(max_size=30), json_values)
    if draw(st.booleans()):
        out["note"] = odd(draw, any_text(max_size=60), json_values | tricky_text)
    out["params"] = draw(params_objects(view_id))
    out.update(draw(staging_fields(view_id)))
    if draw(st.integers(0, 19)) == 5:
        out[draw(any_text(max_size=8))] = draw(json_values)
    if draw(st.integers(0, 19)) == 5:
        del out[draw(st.sampled_from(sorted(out)))]
    return out


@st.composite
def deck_objects(draw: st.DrawFn) -> object:
    out: dict[str, object] = {
        "format": odd(draw, st.just(DECK_FORMAT), st.just(SCENE_FORMAT) | json_values),
        "version": odd(draw, st.just(1), json_values),
    }
    if draw(st.booleans()):
        out["title"] = odd(draw, any_text(max_size=30), json_values)
    out["scenes"] = odd(
        draw, st.lists(scene_objects(in_deck=True), min_size=1, max_size=3), json_values
    )
    return out


@FAST
@given(scene_objects())
def test_scene_from_dict_raises_only_scene_error(data):
    try:
        scene = scene_from_dict(data)
    except SceneError as exc:
        assert "\n" not in str(exc)
        return
    assert scene.view_id in VIEWS
    VIEWS[scene.view_id].model.validate(scene.params)  # what loads is complete and valid
    keys = panel_keys(scene.view_id)
    assert set(scene.panels) <= set(keys) and len(set(scene.panels)) == len(scene.panels)
    if scene.highlight is not None:
        assert scene.highlight.panel in (scene.panels or keys)


@st.composite
def staged_scenes(draw: st.DrawFn) -> dict[str, object]:
    view_id = draw(st.sampled_from(VIEW_IDS))
    return {"view": view_id, "params": {}, **draw(staging_fields(view_id))}


@FAST
@given(staged_scenes())
def test_scene_staging_raises_only_scene_error_and_round_trips(data):
    try:
        scene = scene_from_dict(data, in_deck=True)
    except SceneError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1000
        assert exc.field.startswith(("panels", "reveal", "highlight")), exc.field
        return
    assert scene_from_dict(scene_to_dict(scene)) == scene
    assert scene_to_dict(scene).keys() >= {k for k in ("panels", "highlight") if k in data}


@settings(max_examples=examples(100), deadline=None, derandomize=True)
@given(data=deck_objects())
def test_deck_from_dict_raises_only_scene_error_and_loaded_decks_save(data, tmp_path_factory):
    try:
        deck = deck_from_dict(data)
    except SceneError as exc:
        assert "\n" not in str(exc)
        return
    path = tmp_path_factory.mktemp("deck") / "d.json"
    save_deck(deck, path)  # everything that loads can be saved ...
    assert load_deck(path) == deck  # ... and reads back the same


def _number_text(draw: st.DrawFn) -> str:
    digits = draw(st.integers(min_value=1, max_value=5000))
    return (
        draw(st.sampled_from(["", "-"])) + "7" * digits + draw(st.sampled_from(["", ".5", "e999"]))
    )


@st.composite
def json_texts(draw: st.DrawFn) -> str:
    """JSON-looking text: serialised objects, cut or spliced, with huge numbers or nesting."""
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return draw(any_text(max_size=80))
    obj = draw(deck_objects())
    try:
        text = json.dumps(obj, ensure_ascii=draw(st.booleans()))
    except ValueError:  # an integer beyond str()'s digit limit
        text = "{}"
    if kind == 1:
        cut = draw(st.integers(0, len(text)))
        return text[:cut]
    if kind == 2:
        return text.replace("1", _number_text(draw), 1)
    if kind == 3:
        depth = draw(st.integers(1, 3000))
        return text.replace("[", "[" * depth, 1).replace("]", "]" * depth, 1)
    return "\ufeff" + text


@FAST
@given(json_texts())
def test_deck_text_raises_only_scene_error(text):
    try:
        deck_from_dict(parse_json(text.removeprefix("\ufeff")))
    except SceneError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1000


@settings(max_examples=examples(60), deadline=None, derandomize=True)
@given(st.binary(max_size=200) | json_texts().map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_deck_file_bytes_raise_only_scene_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("bytes") / "deck.json"
    path.write_bytes(raw)
    try:
        deck = load_deck(path)
    except SceneError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(deck, Deck)


@st.composite
def assignments(draw: st.DrawFn) -> tuple[str, list[str]]:
    view_id = draw(st.sampled_from(VIEW_IDS))
    names = VIEWS[view_id].model.names
    items = []
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.one_of(st.sampled_from(names), any_text(max_size=8)))
        value = draw(
            st.one_of(
                tricky_text,
                st.integers().map(str),
                st.floats(allow_nan=True, allow_infinity=True).map(repr),
                st.lists(st.integers(-5, 600).map(str), max_size=5).map(",".join),
                st.sampled_from(["true", "false", "yes", "on", "sin", "half", "linear"]),
            )
        )
        sep = draw(st.sampled_from(["=", "=", "=", " = ", ""]))
        items.append(f"{name}{sep}{value}")
    return view_id, items


@FAST
@given(assignments())
def test_cli_parse_params_raises_only_param_or_usage_error(case):
    view_id, items = case
    model = VIEWS[view_id].model
    try:
        values = parse_params(model, items)
    except (ParamError, UsageError) as exc:
        assert "\n" not in str(exc)
        return
    assert model.validate(values) == values
    for p in model.params:
        if p.kind == "float":
            assert math.isfinite(values[p.name])


settings_values = st.one_of(
    json_values.map(lambda v: json.dumps(v) if not isinstance(v, int) or abs(v) < 10**400 else "1"),
    json_texts(),
    tricky_text,
)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@SLOW
@given(
    st.dictionaries(
        st.sampled_from(
            [f"params/{v}" for v in VIEW_IDS]
            + [
                "display/theme",
                "display/ui_scale",
                "display/sequential",
                "animation/speed",
                "views/last",
                "window/geometry",
            ]
        ),
        settings_values,
        max_size=4,
    )
)
def test_settings_restore_reports_only_expected_errors(window, entries):
    from gui.lecture.settings import MemoryStore, restore_settings

    store = MemoryStore()
    for key, value in entries.items():
        store.put(key, value)
    ignored = restore_settings(window, store)  # never raises
    for line in ignored:
        assert "\n" not in line
        assert "internal error" not in line, line  # only the expected, named errors
    assert len(ignored) <= len(entries)
