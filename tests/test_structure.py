"""The shape of the device UI (issue 22), checked on the code: what a screen may touch is its Ctx,
the adapters import nothing of the device program, and no module imports itself round a circle."""
from __future__ import annotations

import re
from pathlib import Path

from scripts.structure import circles, import_graph

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
