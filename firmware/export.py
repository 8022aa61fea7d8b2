"""``history [N]`` and ``export format=bgstats|csv|draws [id=…]`` (PROTOCOL.md, "Added in version 1",
"third round").

``bgstats``: one play exactly in BG Stats' published push format (the ``createPlay`` link, see
:data:`PUBLISHED`): ``sourceName``, ``sourcePlayId``, ``playDate`` (local time ``YYYY-MM-DD
HH:MM:SS``, the game's start; a play with no date of its own, played through with a clock nothing
set, the first true time after it, said in its comments: firmware/export_plays.py ``sure_after``; a
date that may be wrong, taken with the clock restored from the last shutdown: its comments say that
true time it was played before), ``durationMin`` (its play time: firmware/play_time.py), ``comments``,
``game`` (``name``, ``bggId`` where verified, ``sourceGameId``,
``highestWins``, ``noPoints``) and ``players`` (``name``: the person — never a side: a side nobody
was named for is ``Player N`` in the language set, «Игрок 2», and Auto-Crassus is «Авто-Красс» in
Russian —, ``sourcePlayerId``: the person's id, the same in every play and
through renames, so BG Stats knows them again, ``role``: the side in the language set («Римляне»), ``score``, ``winner``, ``rank``: 1 for the
best, ties broken as the game's rules break them, ``startPlayer``). Nothing else goes into the
play: the fair draw (seed, share, commitment) is said in its ``comments`` and given beside the
play as ``fair``; ``link`` is the play as BG Stats' link, its JSON URL-encoded. No BoardGameGeek id
is guessed: ``bggId`` (a number, in ``game``) is given only where one is verified (``BGG_IDS``).
One play per game played (:func:`play_of`): every entry of a Julius Caesar session (its battles,
its campaign's verdict) exports the one play of that game, and so does every record of a game
reopened from Earlier games and played on in a copy (:func:`session_parts`); a dice or bag session
is no game and exports none (:func:`is_tool`; the CSV lists it).

``csv``: UTF-8 with a byte-order mark and CRLF line ends (a spreadsheet opens it with Cyrillic
intact), a header line and one row per player per game, one column per mode flag, its cells
,'-separated, or ';' when ``sep=;`` asks (Excel splits a .csv it opens at the list separator of
Windows' regional settings, ';' where the decimal separator is the comma, as in Russian and
Ukrainian: docs/protocol.md); a text cell
that starts with ``= + - @`` (a name, a players' share) gets a leading apostrophe, so a spreadsheet
never runs it as a formula.
``draws``: the game's draw record (docs/fairness.md), which scripts/verify_draws.py checks.

Why ``Player N`` and Auto-Crassus are said in the reader's language and their ids are not
(``player 2``, ``auto-crassus``): BG Stats shows the play's ``name`` to the players, once, when it
asks which of their players each is (or makes one of that name), and from then on knows them by
``sourcePlayerId``; so the name a Russian table reads is «Игрок 2», and the id stays ``player 2``
in every language, as every export made before gave it (a device switched to English, or an
export made before this, is the same BG Stats player). ``Игрок N``, «Авто-Красс» are no people's
names (firmware/players.py ``is_person``): never another's id. The ``role`` (the side, or a Glory
seat's colour) is said as the edition of the language set names it («Римляне», «Цезар»): BG Stats
has no id for a role, it shows the text to the players (and counts wins by it), so it is words, as
``Player N`` is, in the CSV too. The game's ``name`` stays English, as the box and BoardGameGeek
name it (BG Stats matches the game by it).

An ended game's entry carries its ``seed``, ``share`` and ``commitment``; a game whose session has
not ended carries none of them (null, or empty cells), and its draw record is refused.
"""
from __future__ import annotations

import csv
import io
import json
import logging
import sqlite3
import urllib.parse
from collections.abc import Mapping
from typing import Any, cast

from engine.errors import BadArguments
from engine.game import Request
from firmware.export_dates import bound_date, date_unsure, date_words, duration_min, play_date
from firmware.export_plays import copies_dated, is_tool, play_id, play_of, session_parts, sure_after
from firmware.history_text import Msg
from firmware import fairness, history, history_record
from firmware.seats import placeholder_said, seat_colour, seats_said, side_word

log = logging.getLogger(__name__)

# session game -> its box's BoardGameGeek id, only where one is verified (a link to the game's BGG
# page, boardgamegeek.com/boardgame/<id>/<name>, cited): Caesar! Seize Rome in 20 Minutes (Paolo Mori,
# PSC Games 2022) is 338957 (boardgamegeek.com/boardgame/338957/caesar-seize-rome-in-20-minutes, linked
# from zenofdesign.com's review of it). Julius Caesar (Columbia Games 2010), The Sword of Rome (GMT)
# and Teetotum's «Во славу Рима» (not BGG's "Glory to Rome", Cambridge Games 2005, another game)
# have no id found with a source yet: none is guessed.
BGG_IDS: dict[str, int] = {"caesar-solo": 338957, "caesar-duel": 338957}
# ``sourceGameId`` is the session's game (``caesar-solo``, ``caesar-duel``, ``jc-battle``, ``glory``,
# ``sword``; ``bag`` and ``dice`` in the CSV only) and stays so: BG Stats remembers which of its games a source's game id
# was matched to, so a changed id would be matched anew (or make a second game) for every play
# pushed before, and a play pushed again (the same ``sourcePlayId``) would change its game. Caesar!'s
# solo and duel keep their two ids: both carry the box's name and bggId, so BG Stats finds the one
# game for both (at most one more match the first time a duel is pushed), and the solo games pushed
# so far keep theirs (docs/protocol.md, "sourceGameId"; tests/test_export.py pins them).
LINK = "https://app.bgstatsapp.com/createPlay.html?data="     # BG Stats' published push link
# The fields of BG Stats' published push format (its "push plays from other apps" page): a play
# exported here holds these and no others (tests/test_export.py checks it).
PUBLISHED = {
    "play": frozenset({"sourceName", "sourcePlayId", "playDate", "durationMin", "comments", "board", "location",
                       "game", "players"}),
    "game": frozenset({"name", "bggId", "sourceGameId", "highestWins", "noPoints"}),
    "player": frozenset({"name", "sourcePlayerId", "role", "score", "winner", "rank", "startPlayer"}),
}
CSV_HEAD = ("id", "game", "name", "status", "started", "finished", "play_date", "duration_min", "unsynced")
CSV_TAIL = ("player", "role", "score", "winner", "rank", "start_player", "result", "seed", "share", "commitment",
            "player_id")
FORMATS = ("bgstats", "csv", "draws")


# -- players as people ----------------------------------------------------------------------------------
def people(entry: dict[str, Any], known_ids: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The entry's players as people: ``name`` (the person, or ``Player N`` for a side or a seat —
    Glory's colour — nobody was named for), ``id`` (the person's id, the same in every export and through renames:
    firmware/players.py ``ids``, given as ``known_ids``), ``role`` (the side in the language set —
    Auto-Crassus's the side the player left him —, or ""), ``score``,
    ``winner``, ``rank``, ``startPlayer``."""
    from firmware.history_text import _
    from firmware.players import person_id
    out = []
    ranks = ranks_of(entry["players"])
    left = _side_left(entry)
    for i, p in enumerate(entry["players"]):
        role = p.get("role")
        name = str(p.get("name", ""))
        pid = person_id(name, known_ids or {})
        said_role = _role_said(entry["game"], side_word(entry["game"], str(role))) if role else ""
        seat = role is not None and name.casefold() == str(role).casefold()
        if not seat and role is None and (colour := seat_colour(entry["game"], name)) is not None:
            seat, said_role = True, _role_said(entry["game"], colour)
        if seat:          # nobody named: «Игрок 1» in Russian, its id ``player 1`` in every language
            name, pid = _("Player {}").format(i + 1), f"player {i + 1}"
        elif (said := placeholder_said(entry["game"], name)) is not None:   # «Авто-Красс», ``auto-crassus``
            name = said
            if not said_role and left is not None:     # Auto-Crassus plays the side the player left him
                said_role = _role_said(entry["game"], side_word(entry["game"], left))
        out.append({"name": name, "id": pid,
                    "role": said_role,
                    "score": p.get("score"), "winner": bool(p.get("winner")), "rank": ranks[i],
                    "startPlayer": bool(p.get("startPlayer"))})
    return out


def _side_left(entry: dict[str, Any]) -> str | None:
    """The one side of the entry's game that none of its players' roles names (a solo Caesar!: the
    side Auto-Crassus plays, the one the player did not choose), or None (none, or more than one)."""
    from firmware.games import record_of
    record = record_of(entry["game"])
    taken = {str(p["role"]) for p in entry["players"] if p.get("role")}
    left = [side for side in (record.seats if record is not None else {}) if side not in taken]
    return left[0] if len(left) == 1 else None


def _role_said(game: str, word: str) -> str:
    """A side's (or Glory's seat colour's) English name, ``Romans``, as the rulebook of the language
    set names it («Римляне», «Римляни»): the words of the game's own catalog. BG Stats' ``role`` is
    text a person reads (the app shows it beside the player and counts wins by it); the format has
    no id for a role, so nothing machine-read changes with the language."""
    from firmware.games import record_of
    from firmware.i18n import catalog, language
    record = record_of(game)
    return catalog(language(), record.domain).gettext(word) if record is not None and record.domain else word


def ranks_of(players: list[dict[str, Any]]) -> list[int | None]:
    """Each player's place: the game's own (``rank``, e.g. Glory's ties broken by denarii, G-15)
    when recorded; else the winners 1 and the others by score (equal scores share a place); None
    for a game without winners or scores (abandoned), and for a lone player who did not win (Glory's
    Emperor's solo without a title, G-17: nobody is beaten there, so no place is lost either; BG
    Stats has the loss from ``winner``: «rank 1» beside ``winner: false`` read as a first place); in a
    game whose score one bad byte took (``damaged``: firmware/history_rebuild.py), 1 for the winners
    and None for the others (the lost score may have been any place below the winners': none made up)."""
    if len(players) == 1 and not players[0].get("winner"):
        return [None]
    if any(p.get("damaged") for p in players):   # a score the damage took (firmware/history_rebuild.py): it
        return [1 if p.get("winner") else None for p in players]     # may have been any place below the winners'
    if all(isinstance(p.get("rank"), int) for p in players) and players:
        return [int(p["rank"]) for p in players]
    if not any(p.get("winner") for p in players) and all(p.get("score") is None for p in players):
        return [None] * len(players)

    def key(p: dict[str, Any]) -> tuple[int, float]:      # the winners first, then by score
        score = p.get("score")
        if p.get("winner"):
            return (0, 0.0)
        return (1, -float(score) if isinstance(score, (int, float)) else 0.0)
    return [1 + sum(1 for q in players if key(q) < key(p)) for p in players]


def _fair_words(entry: dict[str, Any]) -> str:
    """The fair draw of an ended game, in whole sentences in the reader's language: its seed, the
    players' share and the commitment; for a game with no share, the commitment and why there is
    none (as History's page says it); for one started with ``seed=`` (no secret draw), that its
    seed was chosen. Empty while the seed is hidden."""
    from firmware.history_text import Msg, no_share_words, say
    if entry.get("seed") is None:
        return ""
    seed, share, code = str(entry["seed"]), entry.get("share"), entry.get("commitment")
    if not code:
        return say(Msg("No secret draw: the seed {seed} was chosen when the game was set up.", seed=seed))
    if share:
        return say(Msg("Fair draw: seed {seed}, players' share {share}, commitment {commitment}.",
                       seed=seed, share=share, commitment=code))
    return " ".join((say(Msg("Fair draw: seed {seed}, commitment {commitment}.", seed=seed, commitment=code)),
                     no_share_words(entry.get("no_share"))))


def _damaged_words(entry: dict[str, Any]) -> str:
    """Whose score the damage took (firmware/history_rebuild.py ``lost_score``), as a sentence in
    the reader's language: the play gives them no score and no place, and says why; "" for none."""
    from firmware.history_text import say
    lost = [say(seats_said(entry["game"], str(p.get("name", "")))) for p in entry["players"] if p.get("damaged")]
    if not lost:
        return ""
    return say(Msg("The score of {names} was damaged on the card, and the game's saved actions do not hold it again.",
                   plural="The scores of {names} were damaged on the card, and the game's saved actions do not hold "
                          "them again.", n=len(lost), names=", ".join(lost)))


def _setup_words(entry: dict[str, Any]) -> str:
    """The level, the modules and the rules the game was played with (Caesar!'s solo level, its
    modules and rulebook; Glory's variants), as History's detail says them, each a sentence; ""
    for a game with none."""
    from firmware.games import record_of
    from firmware.history_text import _
    from firmware.replies import HistoryEntry
    record = record_of(entry["game"])
    shown = record.shown(cast(HistoryEntry, entry)) if record is not None and record.shown is not None else entry
    mode = dict(shown["mode"])
    out = []
    if mode.get("difficulty"):
        out.append(_("Level: {}.").format(_(str(mode["difficulty"]))))
    if mode.get("expansions"):
        out.append(_("Modules: {}.").format(", ".join(str(x) for x in mode["expansions"])))
    # what History's detail adds in the player's words: Caesar!'s rulebook, Glory's variants
    out.extend(str(n) if str(n).endswith(".") else f"{n}." for n in mode.get("notes", ()))
    return " ".join(out)


def bgstats_play(entry: dict[str, Any], known_ids: Mapping[str, str] | None = None,
                 source_id: str | None = None) -> dict[str, Any]:
    """One history entry as a play in BG Stats' published format (:data:`PUBLISHED` fields only);
    each player's ``sourcePlayerId`` is the person's id (:func:`people`), by which BG Stats knows
    them again in the next play; ``source_id``: the play's ``sourcePlayId`` (:func:`play_of`),
    by default the entry's own (:func:`play_id`)."""
    from firmware.history_text import say
    game: dict[str, Any] = {"name": entry["name"], "sourceGameId": entry["game"], "highestWins": True}
    if entry["game"] in BGG_IDS:
        game["bggId"] = BGG_IDS[entry["game"]]
    players = []
    for p in people(entry, known_ids):
        out: dict[str, Any] = {"name": p["name"], "sourcePlayerId": p["id"]}
        if p["role"]:
            out["role"] = p["role"]
        if p["score"] is not None:
            out["score"] = p["score"]
        out["winner"] = p["winner"]
        if p["rank"] is not None:
            out["rank"] = p["rank"]
        out["startPlayer"] = p["startPlayer"]
        players.append(out)
    # the board game's own (BG Stats creates the game from the first play pushed): every game here
    # keeps score, even in a play ended or abandoned before any (a bag or dice session, which has
    # none, is no play: :func:`is_tool`)
    game["noPoints"] = not players
    comments = " ".join(x for x in (say(seats_said(entry["game"], entry["result"])), _damaged_words(entry),
                                    _setup_words(entry), date_words(entry), _fair_words(entry)) if x)
    play: dict[str, Any] = {"sourceName": "Legatus", "sourcePlayId": source_id or play_id(entry),
                            "playDate": play_date(entry) or bound_date(entry)}
    minutes = duration_min(entry)
    if minutes is not None:
        play["durationMin"] = minutes
    play.update({"comments": comments, "game": game, "players": players})
    return play


def bgstats_link(play: dict[str, Any]) -> str:
    """BG Stats' published link that pushes ``play`` into the app (its JSON URL-encoded)."""
    return LINK + urllib.parse.quote(json.dumps(play, ensure_ascii=False, separators=(",", ":")), safe="")


def bgstats(entry: dict[str, Any], known_ids: Mapping[str, str] | None = None,
            source_id: str | None = None) -> dict[str, Any]:
    """The ``export format=bgstats`` answer for one entry: ``id`` (its History id), ``play``, ``text`` (its JSON), ``link``,
    ``fair`` (seed, share, commitment; null before the game's session ended) and ``status``."""
    play = bgstats_play(entry, known_ids, source_id)
    return {"format": "bgstats", "id": entry["id"], "play": play, "text": json.dumps(play, ensure_ascii=False), "link": bgstats_link(play),
            "fair": {k: entry.get(k) for k in ("seed", "share", "commitment")}, "status": entry["status"]}


# -- csv ---------------------------------------------------------------------------------------------------
def _flags(mode: dict[str, Any]) -> dict[str, str]:
    """A game's mode as spreadsheet cells: one per flag (``difficulty``, ``surprise`` …), and one per
    item of a list (``expansions.poison`` = 1)."""
    out: dict[str, str] = {}
    for k, v in mode.items():
        if isinstance(v, list):
            for item in v:
                out[f"{k}.{item}"] = "1"
        elif isinstance(v, bool):
            out[k] = "1" if v else "0"
        elif v is not None:
            out[k] = str(v)
    return out


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")   # a spreadsheet runs a cell starting so as a formula


def _cell(value: Any) -> Any:
    """A CSV cell: text a spreadsheet would run as a formula (a name such as ``-A1``, a players'
    share ``=HYPERLINK(…)``: CSV injection) gets a leading apostrophe and opens as the text it is;
    numbers and other text stay as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(entries: list[dict[str, Any]], known_ids: Mapping[str, str] | None = None,
             separator: str = ",", dated: Mapping[int, dict[str, Any]] | None = None) -> str:
    """Every entry's players as rows: UTF-8 with a BOM, CRLF, cells split by ``separator`` (a
    spreadsheet reads it as it is). ``dated``: by History id, the entry as its ``play_date`` and
    ``duration_min`` read it, where not itself (a copy's record of a game: :func:`copies_dated`)."""
    from firmware.history_text import say
    flags = [_flags(e["mode"]) for e in entries]
    columns = sorted({k for f in flags for k in f}, key=lambda k: (k != "kind", k))
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=separator, lineterminator="\r\n")
    w.writerow([*CSV_HEAD, *(f"mode.{c}" for c in columns), *CSV_TAIL])
    row: list[Any]
    for e, f in zip(entries, flags):
        when = (dated or {}).get(int(e["id"]), e)
        minutes = duration_min(when)
        head = [e["id"], e["game"], e["name"], e["status"], e.get("started") or "", e.get("finished") or "",
                play_date(when), "" if minutes is None else minutes, " ".join(e.get("unsynced") or ())]
        mode = [f.get(c, "") for c in columns]
        fair = ["" if e.get(k) is None else e[k] for k in ("seed", "share", "commitment")]
        # a score the damage took leaves its cell empty: the result says whose and why, as the BG Stats comments do
        result = " ".join(x for x in (say(seats_said(e["game"], e["result"])), _damaged_words(e)) if x)
        for p in people(e, known_ids) or [{"name": "", "id": "", "role": "", "score": None, "winner": False,
                                           "rank": None, "startPlayer": False}]:   # a bag or dice: no players
            row = [*head, *mode, p["name"], p["role"], "" if p["score"] is None else p["score"],
                   int(p["winner"]), "" if p["rank"] is None else p["rank"], int(p["startPlayer"]),
                   result, *fair, p["id"]]
            w.writerow([_cell(c) for c in row])
    return "\ufeff" + buf.getvalue()


MAX_ID = 2**63 - 1             # SQLite's largest row id
MAX_LISTED = 100_000           # history N: more than any device holds


def _id(req: Request) -> int | None:
    raw = req.opts.get("id")
    if raw is None:
        return None
    try:
        value = req.number(raw, key="id")
    except ValueError:
        raise BadArguments(Msg("id= needs a history id (a whole number), not '{}'.", raw[:24])) from None
    if not 1 <= value <= MAX_ID:
        raise BadArguments(Msg("id= needs a history id from 1 to {}, not {}.", MAX_ID, raw[:24]))
    return value


def _separator(req: Request) -> str:
    """The CSV's separator: ``sep=`` (',' or ';'), else ',' in every language (RFC 4180: what a
    program reading the export expects; ``sep=;`` is the sheet Excel set to Russian or Ukrainian
    opens in columns). Raises BadArguments for any other ``sep=``."""
    raw = req.opts.get("sep")
    if raw is None:
        return ","
    if raw not in (",", ";"):
        raise BadArguments(Msg("sep= takes ',' or ';', not '{}'.", raw[:24]))
    return raw


def command(db: sqlite3.Connection, name: str, req: Request, later: bool = False) -> Any:
    """The ``history`` and ``export`` builtins (they need no session). A database that cannot be
    read now (a failing card) is a ``storage_error`` that says so, never an internal error. ``later``: ``export
    format=draws`` as its record's (ident, job), made off the device's main loop (firmware/history_record.py)."""
    from firmware.storage import StorageError
    try:
        return _command(db, name, req, later)
    except sqlite3.Error as e:
        log.error("'%s' cannot read History: %s", name, e)
        from firmware.store.reasons import reason
        raise StorageError(Msg("History cannot be read now ({}); nothing was changed. Check the card.",
                               reason(e))) from None


def _command(db: sqlite3.Connection, name: str, req: Request, later: bool = False) -> Any:
    if name == "history":
        if req.opts or len(req.args) > 1:
            raise BadArguments(Msg("Usage: history [N]."))
        n = 20
        if req.args:
            try:
                n = req.number(req.args[0])
            except ValueError:
                raise BadArguments(Msg("Usage: history [N]; '{}' is not a number.", req.args[0][:24])) from None
            if n < 1:
                raise BadArguments(Msg("history N needs N ≥ 1."))
            if n > MAX_LISTED:
                raise BadArguments(Msg("history N lists at most {} games, not {}.", MAX_LISTED, req.args[0][:24]))
        return {"games": [history.public(e, duration_min(e)) for e in fairness.attach(db, history.games(db, n))]}
    fmt = req.opts.get("format")
    unknown = set(req.opts) - {"format", "id", *(("sep",) if fmt == "csv" else ())}
    if req.args or unknown or fmt not in FORMATS:
        raise BadArguments(Msg("Usage: export format=bgstats|draws [id=<history id>], "
                               "or export format=csv [id=<history id>] [sep=,|;]."))
    separator = _separator(req) if fmt == "csv" else ","
    gid = _id(req)
    if gid is not None:
        entries = history.games(db, None, gid)
        if not entries:
            raise BadArguments(Msg("No game {} in the history; 'history' lists them.", gid))
    elif fmt == "bgstats":                       # the newest game: a dice or bag session is no play
        entries = _newest_game(db)
        if not entries and history.games(db, 1):
            raise BadArguments(Msg("No game in the history yet: a dice or bag session is no play for BG Stats."))
        if not entries:
            raise BadArguments(Msg("The history is empty: no game has finished yet."))
    else:
        entries = history.games(db, None if fmt == "csv" else 1)
        if not entries and fmt != "csv":
            raise BadArguments(Msg("The history is empty: no game has finished yet."))
    entries = fairness.attach(db, entries)
    if fmt == "draws":                  # (read now; its job makes the record: on the device's worker, ``later``)
        made = history_record.draws(db, entries[0])
        return made if later else made[1]()
    from firmware.players import ids
    known_ids = ids(db, strict=True)
    if fmt == "csv":
        return {"format": "csv", "separator": separator,
                "text": csv_text(entries, known_ids, separator, copies_dated(db, entries))}
    if is_tool(entries[0]):
        raise BadArguments(Msg("No. {} is a dice or bag session, not a game: BG Stats has no play for it "
                               "(the CSV lists it).", entries[0]["id"]))
    parts = session_parts(db, entries[0])
    entry, ident = play_of(entries[0], parts)
    if not play_date(entry) or date_unsure(entry):     # (no date of its own: BG Stats needs one, a true
        entry = {**entry, "before": sure_after(db, parts)}    # one; a date that may be wrong: the true bound)
    return bgstats(entry, known_ids, ident)


def _newest_game(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """The newest History entry that is a game (:func:`is_tool`), as a list of one; [] for none."""
    skip, page = 0, 20
    while rows := history.games(db, page, skip=skip):
        games = [e for e in rows if not is_tool(e)]
        if games:
            return games[:1]
        skip += page
    return []
