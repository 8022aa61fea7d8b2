"""The dice commands' requests, shared by the sessionless ``sword-*`` commands and the ``sword``
session's ``tactics``/``battle``/``odds``: parse the options, roll (or take the entered dice),
resolve, and return the response fields (PROTOCOL.md, docs/protocol/sword.md)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.errors import BadArguments
from engine.game import GlobalCommand, Request
from engine.rng import Rng
from engine.sword import battle as B
from engine.sword import tactics as T
from engine.sword.faces import parse_faces, roll_faces
from engine.sword.odds import attacker_wins
from engine.sword.tables import tables
from engine.sword.text import N_, Msg, term

MAX_UNITS = 99
MAX_MOD = 20
SIDES = {"att": B.ATTACKER, "attacker": B.ATTACKER, "def": B.DEFENDER, "defender": B.DEFENDER}


def _fraction(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


# -- tactics ---------------------------------------------------------------------------------
TACTICS_OPTS = frozenset({"mod", "die", "kind", "seed"})


def tactics_fields(req: Request, rng: Rng) -> dict[str, Any]:
    """``<rating> [mod=N] [die=D] [kind=...]`` -> the test's fields (W-1)."""
    usage = Msg("Usage: {} <rating 0-9> [mod=N] [die=D] [kind=intercept|avoid|pursuit|refuse].", req.command)
    req.check_opts(TACTICS_OPTS)
    if len(req.args) != 1 or not req.args[0].isdecimal() or int(req.args[0]) > 9:
        raise BadArguments(usage)
    rating = req.number(req.args[0])
    mod = req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True)
    kind = req.opts.get("kind")
    if kind is not None and kind not in T.KINDS:
        raise BadArguments(Msg("kind= is one of {}.", ', '.join(T.KINDS)))
    given = req.opt_int("die", None, lo=1, hi=6)
    assert mod is not None
    die = given if given is not None else rng.die(6)
    t = T.test(rating, mod, die)
    out: dict[str, Any] = {
        "rating": rating, "mod": mod, "chance": float(t.chance), "chance_fraction": _fraction(t.chance),
        "roll": t.die, "modified": t.modified, "success": t.success,
        "dice_source": "entered" if given is not None else "digital",
    }
    if kind is not None:
        out["kind"] = kind
        out["effect"] = T.effect(kind, t.success)                      # said in the player's language
    return out


def signed(n: int) -> str:
    """A figure added or taken away in a log line: ``+1``, ``−2`` with the minus sign (not a hyphen), as the
    Sword's screens and the siege line write it."""
    return f"{n:+d}".replace("-", "−")


def tactics_text(f: dict[str, Any]) -> str:
    """The log's sentence for a tactics test; with ``kind=``, what it does (W-1: the defender's ±1)."""
    verdict = term(N_("succeeds")) if f["success"] else term(N_("fails"))
    chance = str(Fraction(f["chance_fraction"]))          # «1/3», and «0» or «1» (not «0/1», «1/1»)
    if f.get("effect"):
        return Msg("Tactics {} test ({} chance): rolled {}{} = {}, {}: {}.", f["rating"], chance,
                   f["roll"], signed(f['mod']), f["modified"], verdict, f["effect"])
    return Msg("Tactics {} test ({} chance): rolled {}{} = {}, {}.", f["rating"], chance, f["roll"],
               signed(f['mod']), f["modified"], verdict)


# -- battles ---------------------------------------------------------------------------------
BATTLE_OPTS = frozenset({"att", "def", "att-flank", "def-flank", "mod", "defmod", "att-dice", "def-dice",
                         "sacred-band", "retreat", "seed"})


def battle_fields(req: Request, rng: Rng, def_rng: Rng | None = None) -> dict[str, Any]:
    """``att=<units> def=<units> mod=<net> ...`` -> the resolved battle's fields (W-2..W-5): the
    attacker's dice from ``rng``, the defender's from ``def_rng`` (``rng`` too when not given)."""
    req.check_opts(BATTLE_OPTS)
    if req.args or "att" not in req.opts or "def" not in req.opts:
        raise BadArguments(Msg("Usage: {} att=<units> def=<units> [att-flank=N] [def-flank=N] "
                               "[mod=<attacker net>] [defmod=N] [att-dice=a,b,c] [def-dice=a,b,c] "
                               "[sacred-band=att|def] [retreat=N].", req.command))
    att_units = req.opt_int("att", lo=1, hi=MAX_UNITS)
    def_units = req.opt_int("def", lo=1, hi=MAX_UNITS)
    att_flank = req.opt_int("att-flank", 0, lo=0, hi=MAX_UNITS)      # W-2: a flanking force's units, besides
    def_flank = req.opt_int("def-flank", 0, lo=0, hi=MAX_UNITS)      # the army's (they count half in its size)
    att_mod = req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True)
    def_mod = req.opt_int("defmod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True)
    retreat = req.opt_int("retreat", 0, lo=0, hi=MAX_UNITS)
    assert att_units and def_units and att_mod is not None and def_mod is not None and retreat is not None
    assert att_flank is not None and def_flank is not None
    band = _sacred_band(req)
    n_att = int(tables()["sacred_band_dice" if band == B.ATTACKER else "battle_dice"])
    n_def = int(tables()["sacred_band_dice" if band == B.DEFENDER else "battle_dice"])
    att_given = parse_faces(req.opts["att-dice"], n_att, "att-dice=", req.asked) if "att-dice" in req.opts else None
    def_given = parse_faces(req.opts["def-dice"], n_def, "def-dice=", req.asked) if "def-dice" in req.opts else None
    att_dice = att_given if att_given is not None else roll_faces(rng, n_att)
    def_dice = def_given if def_given is not None else roll_faces(rng if def_rng is None else def_rng, n_def)
    result = B.resolve(B.Side(att_units + att_flank, att_dice, att_mod, flank=att_flank),
                       B.Side(def_units + def_flank, def_dice, def_mod, flank=def_flank), retreat)
    out = result.as_dict()
    out["sacred_band"] = band
    out["dice_source"] = {"attacker": "entered" if att_given else "digital",
                          "defender": "entered" if def_given else "digital"}
    return out


def _sacred_band(req: Request) -> str | None:
    raw = req.opts.get("sacred-band")
    if raw is None:
        return None
    if raw.lower() not in SIDES:
        raise BadArguments(Msg("sacred-band= names the Carthaginian side that rolls 4 dice: att or def."))
    return SIDES[raw.lower()]


def battle_text(f: dict[str, Any]) -> str:
    a, d = f["attacker"], f["defender"]
    won = term(N_("the attacker wins")) if f["winner"] == "attacker" else term(N_("the defender wins"))
    if f.get("retreat_losses"):          # W-5: the support counts the loser's retreat losses too
        return Msg("Battle: attacker {}{} = {} vs defender {}{} = {}: {}; losses {} / {}, retreat losses {}; "
                   "support +{}.", ",".join(map(str, a["dice"])), signed(a['modifier']), a["total"],
                   ",".join(map(str, d["dice"])), signed(d['modifier']), d["total"], won, a["losses"], d["losses"],
                   f["retreat_losses"], f["support"])
    return Msg("Battle: attacker {}{} = {} vs defender {}{} = {}: {}; losses {} / {}; support +{}.",
               ",".join(map(str, a["dice"])), signed(a['modifier']), a["total"], ",".join(map(str, d["dice"])),
               signed(d['modifier']), d["total"], won, a["losses"], d["losses"], f["support"])


# -- odds ------------------------------------------------------------------------------------
def odds_fields(req: Request) -> dict[str, Any]:
    """``mod=<attacker net> [sacred-band=att|def]`` -> exact ``attacker_wins`` (W-6)."""
    req.check_opts(frozenset({"mod", "sacred-band", "seed"}))
    if req.args:
        raise BadArguments(Msg("Usage: {} mod=<attacker net modifier> [sacred-band=att|def].", req.command))
    net = req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True)
    assert net is not None
    band = _sacred_band(req)
    n_att = int(tables()["sacred_band_dice" if band == B.ATTACKER else "battle_dice"])
    n_def = int(tables()["sacred_band_dice" if band == B.DEFENDER else "battle_dice"])
    p = attacker_wins(net, n_att, n_def)
    return {"mod": net, "attacker_wins": float(p), "attacker_wins_fraction": _fraction(p),
            "defender_wins": float(1 - p), "attacker_dice": n_att, "defender_dice": n_def}


TACTICS = GlobalCommand("sword-tactics", tactics_fields,
                        "sword-tactics <rating> [mod=N] [die=D] [kind=intercept|avoid|pursuit|refuse] [seed=N]")
BATTLE = GlobalCommand("sword-battle", battle_fields,
                       "sword-battle att=<units> def=<units> [att-flank=N] [def-flank=N] mod=<net> [defmod=N] [att-dice=a,b,c] "
                       "[def-dice=a,b,c] [sacred-band=att|def] [retreat=N] [seed=N]")
ODDS = GlobalCommand("sword-odds", lambda req, rng: odds_fields(req),
                     "sword-odds mod=<attacker net> [sacred-band=att|def]")
