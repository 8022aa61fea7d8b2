"""What lasts from battle to battle in a session (J-2, J-3, J-17, J-19, J-20).

The campaign is plain data::

    {"year": 1, "strength": {block id: current strength}, "eliminated": [ids, this year],
     "killed": [leader ids], "trophies": {side: [{"id", "name", "battle"}]},
     "owner": {block id: side}  (Cleopatra, Jupiter defections), "levy": {block id: city},
     "control": {VP city: side or None}, "over": None | verdict,
     "pool": [block ids in the levy pool, off the map: disbanded, or eliminated and given back by
              the winter (J-3, J-19); absent in a state kept before: none known],
     "start_pool": True  (a game started with ``pool=setup``: the blocks the historical set-up
              leaves off the map start in the pool, and a side's third leader joins it when one of
              its leaders is killed; absent in a game started before: the pool starts empty),
     "remove_restores": True  (a game started with ``remove=restore``: a block taken out of the battle
              being set up gets back the strength it had before it was added; absent in a game started
              before: it keeps the one it was added at)}
"""
from __future__ import annotations

from typing import Any, cast

from engine.jc.terms import block_name
from engine.jc.text import N_, Msg, term
from engine.errors import IllegalMove
from engine.text import from_data, to_data
from engine.jc.views import Verdict
from engine.jc import battle as B
from engine.jc import mapdata, score
from engine.jc.roster import SIDES, BlockSpec, roman, roster

Campaign = dict[str, Any]
# How a block without a named levy city is levied (the roster's levy_rule), said as a term.
LEVY_RULES = {"any_friendly_city": term(N_("any friendly city")),
              "any_friendly_city_after_first_caesar_leader_lost":
                  term(N_("any friendly city after first caesar leader lost")),
              "any_friendly_city_after_first_pompey_leader_lost":
                  term(N_("any friendly city after first pompey leader lost")),
              "named_city_must_be_friendly": term(N_("named city must be friendly")),
              "any_friendly_major_port (steps: any friendly port, never at sea)":
                  term(N_("any friendly major port; steps only in a friendly port, never at sea")),
              "never levied (cannot be disbanded; never leaves play)":
                  term(N_("never levied: she never leaves play"))}
# a block of the other side added: one sentence per side and role (ru/uk decline the sides' names)
_NOT_OURS = {("attacker", "caesar"): N_("{} fights for Caesar, but the attacker is Pompey (change sides with 'owner {} {}')."),
             ("attacker", "pompey"): N_("{} fights for Pompey, but the attacker is Caesar (change sides with 'owner {} {}')."),
             ("defender", "caesar"): N_("{} fights for Caesar, but the defender is Pompey (change sides with 'owner {} {}')."),
             ("defender", "pompey"): N_("{} fights for Pompey, but the defender is Caesar (change sides with 'owner {} {}').")}
# ... said alone when 'owner' cannot be suggested: a leader or navis never changes sides (Jupiter, J-2), and a
# block in the levy pool, off the map, is in no city Jupiter takes a block from (J-20)
_OTHER_SIDE = {("attacker", "caesar"): N_("{} fights for Caesar, but the attacker is Pompey."),
               ("attacker", "pompey"): N_("{} fights for Pompey, but the attacker is Caesar."),
               ("defender", "caesar"): N_("{} fights for Caesar, but the defender is Pompey."),
               ("defender", "pompey"): N_("{} fights for Pompey, but the defender is Caesar.")}
NEVER_DEFECT = N_("Leaders and navis never change sides (J-2).")
THIRD_LEADER = {"c_octavian": ("c_caesar", "c_antonius"), "p_brutus": ("p_pompeius", "p_scipio")}


def new_campaign(year: int = 1, start_pool: bool = False) -> Campaign:
    """A campaign at the start of ``year``. ``start_pool``: the levy pool holds, from the start, every
    block the historical set-up leaves off the map (RU summary, «Свободные для найма блоки»: «место
    вне игрового поля, в котором он размещает пока еще не участвующие в игре свои блоки. Игроки
    тратят очки найма для выставления блоков на игровое поле»), but a side's third leader, who joins
    it only once one of its leaders is killed («Как только первый лидер будет уничтожен, игрок
    добавляет третьего лидера к блокам, свободным для найма»; J-2). Without it (a game started
    before), the pool starts empty, as it did."""
    camp: Campaign = {"year": year, "strength": {}, "eliminated": [], "killed": [],
                      "trophies": {s: [] for s in SIDES}, "owner": {"cleopatra": "pompey"}, "levy": {},
                      "control": score.starting_control(), "over": None, "pool": []}
    if start_pool:
        camp["start_pool"] = True
        camp["pool"] = [bid for bid, spec in roster().items()
                        if not spec.setup and spec.kind != "cleopatra" and bid not in THIRD_LEADER]
        for bid in camp["pool"]:        # as a disbanded block: levied (or added), it comes in at I
            camp["strength"][bid] = min(roster()[bid].track)
    return camp


def _third_leader_to_pool(camp: Campaign, side: str) -> None:
    """A leader of ``side`` is killed: in a game whose pool started with the set-up's off-map blocks,
    the side's third leader joins the levy pool (J-2; RU «Лидеры»: «Как только первый лидер будет
    уничтожен, игрок добавляет третьего лидера к блокам, свободным для найма»), unless the device
    already has him in play (levied, fought, killed) — nothing in a game started before."""
    if not camp.get("start_pool"):
        return
    for bid in THIRD_LEADER:
        if roster()[bid].side == side and bid not in camp["strength"] and bid not in camp["killed"] \
                and bid not in camp["eliminated"]:
            camp["strength"][bid] = min(roster()[bid].track)
            to_pool(camp, bid)


def pool(camp: Campaign) -> list[str]:
    """The roster blocks in the levy pool, off the map (J-3, J-19): disbanded, or eliminated and
    given back by a winter; none known in a campaign kept before the pool was."""
    return cast("list[str]", camp.get("pool", []))


def to_pool(camp: Campaign, bid: str) -> None:
    if bid not in pool(camp):
        camp["pool"] = [*pool(camp), bid]


def from_pool(camp: Campaign, bid: str) -> None:
    """The block is on the map again (levied: it fights, gains or loses a step)."""
    if bid in pool(camp):
        camp["pool"] = [b for b in pool(camp) if b != bid]


# a block in the levy pool is off the map: no card reaches it until a levy point places it (J-20)
POOL_NO_STEP = N_("{} is in the levy pool, off the map: it has no step to lose there (a levy point "
                  "places it on the map: gain {}).")
POOL_NO_SIDE = N_("{} is in the levy pool, off the map: only a block on the map can go over to the "
                  "other side (a levy point places it on the map: gain {}).")
ELIMINATED_NO_SIDE = N_("{} was eliminated this year: it is off the map, in its owner's levy pool, and "
                        "only a block on the map can go over to the other side (J-3).")
# a block eliminated this year is in its owner's levy pool until the winter gives it back (J-3)
ELIMINATED_NO_STEP = N_("{} was eliminated this year: it is off the map, in its owner's levy pool until the "
                        "winter, and has no step to lose (J-3).")
ELIMINATED_DISBANDED = N_("{} was eliminated this year: it is in its owner's levy pool already, until the "
                          "winter gives it back (J-3).")
POOL_ALREADY = N_("{} is in the levy pool already: only a block on the map can be disbanded (a levy "
                  "point places it on the map: gain {}).")


POOL_LEVY_STRENGTH = N_("{} is in the levy pool, off the map: a levy brings it in at {} (J-20), not at {}. "
                        "Add it at {}, or levy it and give it its steps first (gain {}).")


def check_pool_strength(camp: Campaign, spec: BlockSpec, strength: int) -> None:
    """Raise IllegalMove for a block in the levy pool added to a battle at another strength than
    the one a levy brings it in at: I, the elephant II (J-20; RU «Найм»: «выставить 1 новый блок из
    свободных для найма … с боевой силой 1»; J-2). Off the map, it fights only once levied; each
    further step costs a levy point of its own (``gain``). A rule of requests asked now
    (engine/jc/console.py ``admit``): a line an older Legatus stored replays as it was."""
    if spec.id in pool(camp) and strength != min(spec.track):
        raise IllegalMove(Msg(POOL_LEVY_STRENGTH, block_name(spec.name), roman(min(spec.track)), roman(strength),
                              roman(min(spec.track)), spec.id))


def check_on_map(camp: Campaign, spec: BlockSpec, sentence: str) -> None:
    """Raise IllegalMove (``sentence``, said with the block's name and id) for a block in the levy
    pool: off the map, no Vulcan, Jupiter or disbanding reaches it (J-3, J-19, J-20). A rule of
    requests asked now (engine/jc/console.py ``admit``): a line an older Legatus stored, which
    took such a block out of the pool with a step lost, changed its side or disbanded it again,
    replays as it was."""
    if spec.id in pool(camp):
        raise IllegalMove(Msg(sentence, block_name(spec.name), spec.id))


def owner(camp: Campaign, spec: BlockSpec) -> str:
    """Whose side the roster block fights for now."""
    return str(camp["owner"].get(spec.id, spec.side))


def waiting(camp: Campaign, spec: BlockSpec) -> bool:
    """True for a side's third leader not in play yet in a game whose pool started with the
    set-up's off-map blocks: no leader of his side killed, so not in the levy pool (J-2; RU
    «Лидеры»: «Как только первый лидер будет уничтожен, игрок добавляет третьего лидера к блокам,
    свободным для найма»), nor levied or fought since. In a game started before, never: he was
    offered, with a note (:func:`notes_for`)."""
    return bool(camp.get("start_pool")) and spec.id in THIRD_LEADER and spec.id not in pool(camp) \
        and spec.id not in camp["strength"] and spec.id not in camp["killed"]


def check_available(camp: Campaign, spec: BlockSpec, side: str, role: str) -> None:
    """Raise IllegalMove if the roster block cannot fight for ``side`` now (J-2, J-3)."""
    if spec.id in camp["killed"]:
        raise IllegalMove(Msg("{} was killed in battle and is out of the game for good (J-2).",
                              block_name(spec.name)))
    if spec.id in camp["eliminated"]:
        raise IllegalMove(Msg("{} was eliminated this year: it cannot be levied again "
                              "until the winter is over (J-3).", block_name(spec.name)))
    if waiting(camp, spec):
        raise IllegalMove(Msg("{} is not in play yet: a side's third leader joins its levy pool only once "
                              "one of its leaders is killed (J-2).", block_name(spec.name)))
    own = owner(camp, spec)
    if own != side and (spec.kind in ("leader", "navis") or spec.id in pool(camp)):   # 'owner' refuses them
        why = Msg(NEVER_DEFECT) if spec.kind in ("leader", "navis") else Msg(POOL_NO_SIDE, block_name(spec.name), spec.id)
        raise IllegalMove(Msg("{} {}", Msg(_OTHER_SIDE[role, own], block_name(spec.name)), why))
    if own != side:
        raise IllegalMove(Msg(_NOT_OURS[role, own], block_name(spec.name), spec.id, side))


def notes_for(camp: Campaign, spec: BlockSpec) -> list[str]:
    """Reminders that are not errors (the device does not know the whole table)."""
    out: list[str] = []
    needs = THIRD_LEADER.get(spec.id or "")
    if needs and not any(n in camp["killed"] for n in needs):
        out.append(Msg("{} is normally levied only after a leader of his side is killed "
                       "(rules 7.51).", block_name(spec.name)))
    return out


def default_strength(camp: Campaign, spec: BlockSpec) -> int:
    """What ``add`` gives a block named without ``strength=`` (PROTOCOL.md fixes it): the
    strength carried over from earlier battles (or set by ``lose``, ``gain``, ``disband``, the
    winter), else the block's maximum."""
    return int(camp["strength"].get(spec.id, spec.max_strength))


def likely_strength(camp: Campaign, spec: BlockSpec) -> int:
    """The strength the block most likely stands at (``roster``, the device's set-up form): the
    one carried over; else, for a block of the starting deployment, its maximum; else, for a
    block that starts in the levy pool, the strength a levy brings it in at: I (J-20; the
    elephant II, its lowest step, J-2)."""
    if spec.id in camp["strength"]:
        return int(camp["strength"][spec.id])
    return spec.max_strength if spec.setup else min(spec.track)


def roster_strength(camp: Campaign, spec: BlockSpec) -> int:
    """The strength ``roster`` (and so the device's lists and forms) gives the block: the one it
    most likely stands at (:func:`likely_strength`); for a block in the levy pool, off the map, the
    one a levy brings it in at, I (the elephant II: J-20, J-2) — whatever a line an older Legatus
    stored left it carrying there (an ``add … strength=3`` then ``remove``)."""
    return min(spec.track) if spec.id in pool(camp) else likely_strength(camp, spec)


def sync(camp: Campaign, battle: B.Battle, number: int) -> None:
    """Record what the battle did to the blocks (idempotent; call after every change)."""
    for b in battle["blocks"]:
        if b["status"] == "killed":
            trophy = {"id": b["id"], "name": b["name"], "battle": number, "key": b["key"]}
            winners = camp["trophies"][B.other(b["side"])]
            if not any(t["battle"] == number and t["key"] == b["key"] for t in winners):
                winners.append(trophy)
        if b["id"] is None:
            continue
        bid = b["id"]
        if battle["phase"] != "setup":          # fighting: levied from the pool, on the map (J-20)
            from_pool(camp, bid)
        if b["status"] == "killed":
            if bid not in camp["killed"]:
                camp["killed"].append(bid)
                _third_leader_to_pool(camp, roster()[bid].side)
            camp["strength"].pop(bid, None)
        elif b["status"] == "eliminated":
            if bid not in camp["eliminated"]:
                camp["eliminated"].append(bid)
            camp["strength"].pop(bid, None)
            camp["owner"].pop(bid, None)        # a defector goes back to its owner's pool
        else:
            camp["strength"][bid] = b["strength"]
        if b["kind"] == "cleopatra":
            camp["owner"]["cleopatra"] = b["side"]


def lose_step(camp: Campaign, spec: BlockSpec) -> dict[str, Any]:
    """One step off a roster block outside battle (Vulcan, Jupiter on a leader or navis): at its last
    step a leader is killed, a trophy for the enemy (J-2, J-17), any other block goes to the levy pool
    for the year (J-3). Returns ``block``, ``from``, ``to``, ``result`` (``reduced``, ``killed`` or
    ``eliminated``); raises IllegalMove for a block out of play, or Cleopatra at I (she is never
    eliminated: she changes side in battle, J-2; ``owner`` sets her side)."""
    bid = str(spec.id)
    if bid in camp["eliminated"]:       # not "cannot be levied": no levy was asked (J-3)
        raise IllegalMove(Msg(ELIMINATED_NO_STEP, block_name(spec.name)))
    check_available(camp, spec, owner(camp, spec), "attacker")
    before = likely_strength(camp, spec)
    lower = [s for s in spec.track if s < before]
    side = owner(camp, spec)
    from_pool(camp, bid)    # a stored line only (asked now, a block in the pool is refused: check_on_map)
    if lower:
        camp["strength"][bid] = max(lower)
        return {"block": bid, "from": before, "to": max(lower), "result": "reduced"}
    if spec.kind == "cleopatra":
        raise IllegalMove(Msg("Cleopatra is at I and never leaves the game (eliminated in battle, she joins the "
                              "other side, J-2); to give her to the other side: 'owner cleopatra {}'.", B.other(side)))
    camp["strength"].pop(bid, None)
    if spec.kind == "leader":
        camp["killed"].append(bid)
        _third_leader_to_pool(camp, spec.side)
        camp["trophies"][B.other(side)].append({"id": bid, "name": spec.name, "battle": None, "key": bid})
        return {"block": bid, "from": before, "to": 0, "result": "killed"}
    camp["eliminated"].append(bid)
    camp["owner"].pop(bid, None)            # a defector goes back to its owner's pool
    return {"block": bid, "from": before, "to": 0, "result": "eliminated"}


def gain_step(camp: Campaign, spec: BlockSpec) -> dict[str, Any]:
    """One levy point spent on a roster block (J-20; rules 2.2, RU «Найм»): a block in the levy
    pool (off the map) is levied, placed at the strength it comes in at (I; the elephant II) —
    ``from`` 0, ``levied`` true —; a block on the map gains a step, the next strength up its track
    (the elephant II -> IV). Returns ``block``, ``from``, ``to``, ``levied``; raises IllegalMove for
    a block at its maximum or out of play (killed; eliminated: in the pool, J-3)."""
    check_available(camp, spec, owner(camp, spec), "attacker")
    if spec.id in pool(camp):           # «выставить 1 новый блок из свободных для найма … с боевой силой 1»
        from_pool(camp, str(spec.id))
        camp["strength"][str(spec.id)] = min(spec.track)
        return {"block": str(spec.id), "from": 0, "to": min(spec.track), "levied": True}
    before = likely_strength(camp, spec)
    higher = [s for s in spec.track if s > before]
    if not higher:
        raise IllegalMove(Msg("{} is at its maximum ({}): a levy adds no step to it.", block_name(spec.name),
                              roman(before)))
    camp["strength"][str(spec.id)] = min(higher)
    return {"block": str(spec.id), "from": before, "to": min(higher), "levied": False}


def disband(camp: Campaign, spec: BlockSpec) -> dict[str, Any]:
    """A roster block disbanded to the levy pool (J-19: rules 8.3 navis with no friendly port, 8.4
    the winter supply's surplus, 8.5 any block but Cleopatra): its steps are forfeit, so levied
    again it comes in at its lowest strength (J-20: "at strength I"; the elephant II, J-2), and a
    Jupiter defector goes back to its owner's pool. Returns ``block``, ``from``, ``to`` and
    ``side`` (whose pool it is in now); raises IllegalMove for Cleopatra and for a block already
    out of play (killed, or eliminated this year: in the pool already)."""
    if spec.kind == "cleopatra":
        raise IllegalMove(Msg("Cleopatra is never disbanded: she never leaves play (rules 8.5)."))
    if spec.id in camp["eliminated"]:   # not "cannot be levied": no levy was asked (J-3)
        raise IllegalMove(Msg(ELIMINATED_DISBANDED, block_name(spec.name)))
    check_available(camp, spec, owner(camp, spec), "attacker")
    bid = str(spec.id)
    before = likely_strength(camp, spec)
    camp["strength"][bid] = min(spec.track)
    camp["owner"].pop(bid, None)            # a defector goes back to its owner's pool
    to_pool(camp, bid)                      # off the map: no army of the last battle any more
    return {"block": bid, "from": before, "to": min(spec.track), "side": spec.side}


def set_levy_city(camp: Campaign, block_id: str, city_name: str) -> tuple[BlockSpec, str]:
    """J-20: override where a block is levied. Raises BadArguments/IllegalMove."""
    spec = roster()[block_id]
    if spec.levy_city is None:
        raise IllegalMove(Msg("{} has no named levy city ({}).", block_name(spec.name),
                              LEVY_RULES.get(spec.levy_rule, spec.levy_rule.replace("_", " "))))
    name = mapdata.city(city_name).name
    camp["levy"][block_id] = name
    return spec, name


def levy_city(camp: Campaign, spec: BlockSpec) -> str | None:
    return cast("str | None", camp["levy"].get(spec.id, spec.levy_city))


def over_view(camp: Campaign) -> Verdict | None:
    """The campaign's verdict (J-17) as shown: ``winner``, ``reason`` (a sentence said in the
    reader's language, rebuilt from its data) and ``totals``."""
    over = camp["over"]
    if not over:
        return None
    reason = from_data(over["msg"]) if "msg" in over else over["reason"]
    return cast(Verdict, {k: v for k, v in over.items() if k != "msg"} | {"reason": reason})


def winter(camp: Campaign) -> dict[str, Any]:
    """The winter turn in the rules' order (J-19, rules v1.1 8.1-8.6): applies what the device
    keeps (Cleopatra's side, the victory check, the year reset) and lists the table's steps."""
    steps: list[dict[str, Any]] = []
    cleo_owner, sentence = score.cleopatra_goes_home(camp["owner"]["cleopatra"], camp["control"])
    camp["owner"]["cleopatra"] = cleo_owner
    if camp["control"].get(score.ALEXANDRIA) is None:
        camp["control"][score.ALEXANDRIA] = cleo_owner
    steps.append({"step": "8.1", "title": term(N_("Cleopatra goes home")), "done": True, "text": sentence})
    verdict = score.verdict(camp["control"], camp["trophies"], camp["year"])
    totals = {s: v["total"] for s, v in score.vp(camp["control"], camp["trophies"]).items()}
    steps.append({"step": "8.2", "title": term(N_("Victory")), "done": True,
                  "text": verdict["reason"] if verdict else
                  Msg("No winner yet (Caesar {} VP, Pompey {} VP).", totals["caesar"], totals["pompey"])})
    if verdict:                   # the game ends here: no navis to port, supply or disbanding for a
        # year that will not come. The reason is kept as data too: a state read back from JSON
        # holds it as English words only (see over_view).
        camp["over"] = {**verdict, "msg": to_data(verdict["reason"])}
        steps.append({"step": "8.6", "title": term(N_("Year reset")), "done": False,
                      "text": term("The game is over.")})
        return {"checklist": steps, "verdict": verdict, "totals": totals}
    steps.append({"step": "8.3", "title": term(N_("Navis to port")), "done": False,
                  "text": term("Move every navis to a friendly port on the same sea, Caesar first; "
                          "navis that cannot are disbanded (they can be rebuilt next year).")})
    steps.append({"step": "8.4", "title": term(N_("Winter supply")), "done": False,
                  "text": term("A city supports 3 blocks plus its VP value (Rome and Alexandria 5, "
                          "the other VP cities 4); the owner disbands the surplus to the levy pool.")})
    steps.append({"step": "8.5", "title": term(N_("Disbanding")), "done": False,
                  "text": term("Either player may disband any block except Cleopatra; its steps are lost.")})
    for bid in camp["eliminated"]:      # back in the levy pool: levied again at I (J-3, J-20; the elephant II)
        camp["strength"][bid] = min(roster()[bid].track)
        to_pool(camp, bid)
    camp["eliminated"] = []
    camp["year"] += 1
    steps.append({"step": "8.6", "title": term(N_("Year reset")), "done": True,
                  "text": Msg("Eliminated blocks can be levied again; {} begins: shuffle the 27 cards and "
                              "deal 6 to each player.", score.year_name(camp["year"]))})
    return {"checklist": steps, "verdict": verdict, "totals": totals}
