"""The shape of the device UI (issue 22), checked on the code: what a screen may touch is its Ctx,
the adapters import nothing of the device program, and no module imports itself round a circle."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import scripts.structure as structure
from scripts.structure import circles, import_graph, long_files

ROOT = Path(__file__).resolve().parents[1]


def _sources(folder: str) -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in (ROOT / folder).rglob("*.py")}


def test_screens_reach_nothing_around_their_ctx():
    for path, text in _sources("firmware/screens").items():
        assert not re.search(r"getattr\((ctx|c)\b", text), f"{path} probes its Ctx"
        assert not re.search(r"\bsqlite3\b|\.execute\(|\bSELECT\b.*\bFROM\b", text), f"{path} runs SQL"
        assert not re.search(r"^\s*(from|import) (hw|serial|gpiozero|luma)\b", text, re.M), f"{path} imports hardware"
        assert not re.search(r"\bctx\.(console|stack|store)\b", text), f"{path} reaches past its Ctx"


def test_the_adapters_import_nothing_of_the_device_program():
    graph = import_graph()
    for module, targets in graph.items():
        if module.startswith("hw"):
            assert not [t for t in targets if t.startswith("firmware")], module


def test_no_module_of_the_device_program_is_long_without_a_reason():
    assert [(path, n) for path, n, why in long_files() if why is None] == []


def test_a_long_module_counts_as_justified_only_with_its_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "firmware").mkdir()
    body = ["x = 1"] * 520
    (tmp_path / "firmware" / "bare.py").write_text("\n".join(['"""A long module."""', *body]), encoding="utf-8")
    (tmp_path / "firmware" / "why.py").write_text(
        "\n".join(['"""A long module."""', "# long-because: one table of the rulebook, kept whole", *body]), encoding="utf-8")
    (tmp_path / "firmware" / "short.py").write_text("\n".join(["# long-because: nothing", "x = 1"]), encoding="utf-8")
    monkeypatch.setattr(structure, "ROOT", tmp_path)
    assert long_files() == [("firmware/why.py", 522, "one table of the rulebook, kept whole"),
                            ("firmware/bare.py", 521, None)]


def test_no_import_circle_in_engine_firmware_or_hw():
    # every import counts, also those inside functions (only ``if TYPE_CHECKING:`` ones do not)
    assert circles(import_graph()) == []


def test_the_app_and_the_fake_ctx_offer_every_method_of_the_contract():
    from firmware.app import App
    from firmware.screens.ctx import Ctx
    from tests.fakectx import FakeCtx
    wanted = {n for n in vars(Ctx) if not n.startswith("_")} | {"settings"}
    for cls in (App, FakeCtx):
        missing = {n for n in wanted - {"settings"} if not callable(getattr(cls, n, None))}
        assert not missing, (cls.__name__, missing)


@pytest.mark.slow
def test_every_string_keyed_lookup_of_the_screens_is_typed():
    """Issue 22 item 1: the screens and the App read views, replies, History entries and steps
    through TypedDicts (or typed tables): none on ``Any`` or ``dict[str, Any]`` (mypy's own types)."""
    from scripts.structure import untyped_lookups
    untyped, tables, typed, where, _on_tables = untyped_lookups()
    assert untyped == 0, where
    assert typed > 900 and tables < typed
