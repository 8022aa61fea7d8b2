"""History → "Send the draw record": an ended game's draw record (``export format=draws``, which
scripts/verify_draws.py checks) over the serial link. The record replays the whole game (a Julius
Caesar campaign with 300 undos: 0.05 s here, most of a second on a Pi): on the device it is made
off the main loop (``Ctx.ask``), a page says so meanwhile, and any key still answers there (A or
B leaves it: nothing is sent). Once it is made it is sent and said; a refusal (the card cannot
read the game's record now, the game no longer replays) is said in its own sentence and nothing
is sent."""
from __future__ import annotations

from engine import actions as act
from engine.replies import ExportReply
from firmware.history_text import Msg, _, say
from firmware.replies import HistoryEntry
from firmware.screens.ctx import Ctx, remade
from firmware.screens.play import refusal
from firmware.screens.widgets import TextScreen


def send_draws_of(ctx: Ctx, entry: HistoryEntry, named: str) -> None:
    """Send ``entry``'s draw record (``named``: its game's name, firmware/screens/history.py
    ``game_named``): at once when it is ready (made before, or there is no worker: tests,
    scripts), else once the worker has made it, from the page that says so."""
    response = ctx.ask(act.export("draws", int(entry["id"])))
    if response is None:
        ctx.push(remade(lambda: DrawsBeingMade(entry, named)))
    else:
        _send(ctx, named, response)


def _send(ctx: Ctx, named: str, response: ExportReply) -> None:
    if not response["ok"]:
        ctx.notify(refusal(response))
        return
    tell_sent(ctx, ctx.send_reply(response), Msg("Sent the draws of: {}.", named))


def tell_sent(ctx: Ctx, sent: str, done: Msg) -> None:
    """Say on the panel what sending a line over the serial link came to (``sent``:
    :meth:`Ctx.send_reply`'s answer): ``done`` once it went."""
    if sent == "no link":
        ctx.notify(Msg("No serial link: start Legatus with --serial PORT."))
    elif sent == "failed":
        ctx.notify(Msg("The serial link did not take it."))
    else:
        ctx.notify(done)


class DrawsBeingMade(TextScreen):
    """The page shown while a game's draw record is made off the main loop: it says so and what
    leaving does (any key that does not scroll leaves, as on every text); before each frame it
    asks whether the record is ready (the worker wakes the loop when it is), and then goes, the
    record sent and said over History; asked too when it is made while the panel is asleep
    (``sends_when_made``: firmware/device.py), the notice then waiting for the waking key."""

    sends_when_made = True

    def __init__(self, entry: HistoryEntry, named: str) -> None:
        super().__init__(_("Draw record"), [_("Making the draw record of {}…").format(say(named)),
                                            _("It is sent over the serial link once it is made. Close this page "
                                              "and nothing is sent.")])
        self.entry, self.named = entry, named
        self.done = False               # sent, said, or left: nothing more to do

    def on_top(self, ctx: Ctx) -> None:
        if self.done:
            return
        response = ctx.ask(act.export("draws", int(self.entry["id"])))
        if response is not None:
            self.done = True
            ctx.pop()                   # (first: the notice is said over History)
            _send(ctx, self.named, response)

    def key(self, key: str, ctx: Ctx) -> None:
        if self.done:                   # sent as the key came (on_top, just before): the page is gone,
            return                      # the key is not for the screen under it
        depth = ctx.depth()
        super().key(key, ctx)
        self.done = self.done or ctx.depth() < depth      # left: what is made later is not sent
