"""What an undo of a Sword of Rome step says to change on the table (``GameRules.undone``).

The device keeps the tracks and the rolls; the map and the track markers are the players'. An undo
takes the step back on the device, so its sentence says, after the step's own, what to turn back
on the table: a VP change (W-11) or a scoring phase's, the marker on the VP track back to its value
before; a Desperate Times card (W-12), the card back to its power and its action taken back; a draw
of the consuls (W-10), those back into the cup and the ones before back where they stood;
Carthage's unrest (W-13), the unrest marker back; a battle (W-2..W-5), the units lost back on the
map and the support gained for it taken back; retreat losses (W-5), how many of the loser's units
go back on the map (or off it again, where they replaced larger ones) and how many of the winner's
support points are taken back (or added again), or that the support stays; a roll's result (W-1,
W-8, W-9), what was done for it; ``advance``, the turn and round it is again (its own sentence
names the ones it went to); the end after turn 9, that the game goes on at turn 9, round 5. (An
automatic victory's undo has nothing to change on the table: its own.) A sentence stored by an
older Legatus without the values its undo needs (an unrest set without ``before``, retreat losses
without ``was``) keeps ``Undone: <sentence>``.
"""
from __future__ import annotations

from typing import Any

from engine.sword import tracks as V
from engine.sword.text import N_, Msg
from engine.text import Msg as AnyMsg

VP_SET = N_("{} VP {} -> {}.")
SCORED = N_("Scoring: {} {} VP ({} -> {}).")
UNREST_SET = N_("Carthaginian unrest {}: hand size {}, VP {}.")
"""``unrest``'s sentence; it carries ``before=`` (not said), the level before, for its undo."""
BATTLES = (N_("Battle: attacker {}{} = {} vs defender {}{} = {}: {}; losses {} / {}; support +{}."),
           N_("Battle: attacker {}{} = {} vs defender {}{} = {}: {}; losses {} / {}, retreat losses {}; "
              "support +{}."))
RETREATS = (N_("Retreat losses of the attacker: {} ({} lost in all); the defender's support +{} (W-5)."),
            N_("Retreat losses of the defender: {} ({} lost in all); the attacker's support +{} (W-5)."))
DESPERATE = (N_("Plays a Desperate Times card: {} (W-12){}"),
             N_("Desperate Times at the end of round 5, most VP first (W-12): {}."))
DESPERATE_END = N_("Desperate Times at the end of round 5: {}.")
"""The cards played at the end of round 5 (:data:`DESPERATE`'s second) as an undo names them."""
CONSULS = (N_("Consuls drawn from the cup: {} and {} (W-10)."), N_("Consuls drawn from the cup: {} (W-10)."))
ADVANCED = N_("Turn {}, round {}.")
FINISHED = N_("Turn {} is over: won on VP by {} (ties by W-11 order).")
ROLLS = (N_("Naval move: {}{} = {}: {}."), N_("{} roll: {}+{}{} = {}."),
         N_("Tactics {} test ({} chance): rolled {}{} = {}, {}: {}."),
         N_("Tactics {} test ({} chance): rolled {}{} = {}, {}."))


def undone(sentence: Any) -> Msg | None:
    """The sentence of an undo of the step whose log sentence is ``sentence`` (module docstring);
    None for any other step (``Undone: <sentence>``)."""
    if not isinstance(sentence, AnyMsg):
        return None
    t, a = sentence.template, sentence.args
    if t == VP_SET and len(a) == 3:
        return Msg("Undone: {} Move the marker on the VP track back to {}.", sentence, a[1])
    if t == SCORED and len(a) == 4:
        return Msg("Undone: {} Move the marker on the VP track back to {}.", sentence, a[2])
    if t == UNREST_SET and isinstance(sentence.kwargs.get("before"), int):
        before = sentence.kwargs["before"]         # the level's effects follow the marker (W-13)
        return Msg("Undone: Carthaginian unrest {} -> {}. Move the unrest marker back to {}.", before, a[0], before)
    if t in BATTLES and len(a) >= 10:
        return Msg("Undone: the battle (losses {} / {}). Put the units lost back on the map and take back the "
                   "support +{}.", a[7], a[8], a[-1])
    was, support = sentence.kwargs.get("was"), sentence.kwargs.get("support_was")
    if (t in RETREATS and len(a) == 3 and isinstance(a[0], int) and isinstance(a[2], int) and isinstance(was, int)
            and isinstance(support, int)):
        return _retreat_undone(a[0], a[2], was, support)
    if t == DESPERATE[0] and a:        # the power that played it (those keeping theirs keep them still)
        return Msg("Undone: Desperate Times ({}). Return the card and take back its action on the map.", a[0])
    if t == DESPERATE[1] and len(a) == 1:
        return Msg("Undone: Desperate Times ({}). Return the cards and take back their actions on the map.", a[0])
    if t == CONSULS[0] and len(a) == 2:
        return Msg("Undone: consuls {}. Put them back in the cup, the ones before back in place.",
                   Msg("{} and {}", *a))
    if t == CONSULS[1] and len(a) == 1:
        return Msg("Undone: consuls {}. Put them back in the cup, the ones before back in place.", a[0])
    if t == ADVANCED and len(a) == 2 and all(isinstance(x, int) for x in a):
        turn, rnd = (a[0], a[1] - 1) if a[1] > 1 else (a[0] - 1, V.game_length()[1])    # the round before
        return Msg("Undone: {} It is turn {}, round {} again.", sentence, turn, rnd)
    if t == FINISHED and len(a) == 2 and isinstance(a[0], int):
        return Msg("Undone: {} The game goes on: it is turn {}, round {} again.", sentence, a[0], V.game_length()[1])
    if t in ROLLS[2:] and len(a) >= 6:          # «проверка» / «перевірка»: her result, not his
        return Msg("Undone: the tactics {} test ({}{} = {}, {}). Take back on the map anything done for it.",
                   a[0], a[2], a[3], a[4], a[5])
    if t in ROLLS:                              # «переход», «бросок» / «перехід», «кидок»: «по нему», «за ним»
        return Msg("Undone: {} Take back on the map anything done for it.", sentence)
    return None


def _retreat_undone(losses: int, support: int, was: int, support_was: int) -> Msg:
    """An undo of retreat losses (W-5): those given (``losses``, the winner's support then
    ``support``) and what they were before (``was``, ``support_was``), in a sentence each: the
    loser's units to put back on the map (or to take off it again, where they replaced larger
    ones), and the winner's support points to take back (or to add again), or that it stays."""
    said = [Msg("Undone: retreat losses {}.", losses) if was == 0 else
            Msg("Undone: the retreat losses are {} again.", was)]
    if losses > was:
        said.append(Msg("Put {n} unit back on the map.", n=losses - was, plural="Put {n} units back on the map."))
    elif losses < was:
        said.append(Msg("Take {n} unit off the map again.", n=was - losses, plural="Take {n} units off the map again."))
    if support > support_was:
        said.append(Msg("Take back {n} support point.", n=support - support_was,
                        plural="Take back {n} support points."))
    elif support < support_was:
        said.append(Msg("Add {n} support point again.", n=support_was - support, plural="Add {n} support points again."))
    else:
        said.append(Msg("The support stays +{}.", support))
    return Msg("{} {} {}", *said) if len(said) == 3 else Msg("{} {}", *said)


def undo_asked(sentence: Any) -> Msg | None:
    """The undo question's sentence where the step's own is long: a battle (W-2..W-5, its dice and
    totals over four pages) named by its losses and support; retreat losses (W-5, three or four
    pages with the losses in all and the rule) by the side that lost them and the support; a
    tactics test (W-1, three pages with its chance and what it does) by its rating, roll and
    verdict; a Desperate Times card (W-12) by the power that plays it (the powers that keep theirs
    made it three pages), those played at the end of round 5 by their powers. None for every
    other step (``Take back: <sentence>``)."""
    if isinstance(sentence, AnyMsg) and sentence.template in BATTLES and len(sentence.args) >= 10:
        a = sentence.args
        return Msg("The battle with losses {} / {} and support +{}.", a[7], a[8], a[-1])
    if not isinstance(sentence, AnyMsg):
        return None
    t, a = sentence.template, sentence.args
    if t in RETREATS and len(a) == 3:
        if t == RETREATS[0]:
            return Msg("The attacker's retreat losses {} and support +{}.", a[0], a[2])
        return Msg("The defender's retreat losses {} and support +{}.", a[0], a[2])
    if t in ROLLS[2:] and len(a) >= 6:
        return Msg("The tactics {} test: rolled {}{} = {}, {}.", a[0], a[2], a[3], a[4], a[5])
    if t == DESPERATE[0] and len(a) == 2:
        return Msg(DESPERATE[0], a[0], ".")
    if t == DESPERATE[1] and len(a) == 1:
        return Msg(DESPERATE_END, a[0])
    return None
