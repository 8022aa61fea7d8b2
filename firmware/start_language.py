"""The language said before a state directory's store is open (a command line refused, the
storage problem's screen, the console's first lines): the one stored in its settings (read-only,
its checksum checked: :func:`firmware.storage.stored_language`), else the locale's, else English."""
from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

TYPE_CHECKING = False          # (as firmware/cli.py: nothing more is imported at every start)
if TYPE_CHECKING:
    from pathlib import Path


def speak_stored_language(root: Path) -> None:
    """Speak the language stored in the state directory ``root``, for what is said before its store
    is open; else go on in the current one (English at start)."""
    from firmware.i18n import LANGUAGES, set_language
    from firmware.storage import stored_language
    from firmware.store import DB_NAME
    lang = stored_language(root / DB_NAME)
    if lang in LANGUAGES:
        set_language(lang)


def speak_players_language(state_dir: str | None) -> None:
    """Say what comes before the store is open (a ``--script`` refused, the keys' names asked for)
    in :func:`player_language`; the store's own is spoken once it is open."""
    from firmware.i18n import set_language
    set_language(player_language(["--state-dir", state_dir] if state_dir else []))


def player_language(argv: list[str]) -> str:
    """The language `legatus` answers a bad command line in: the device's (Settings → Language,
    stored in the state directory that ``--state-dir``, ``$LEGATUS_STATE_DIR`` or the default names:
    read-only, its checksum checked), else the locale's (``$LANGUAGE``, ``$LC_ALL``,
    ``$LC_MESSAGES``, ``$LANG``: ``ru_RU.UTF-8`` is ``ru``), else English."""
    from firmware.i18n import LANGUAGES, locale_language
    given = None
    for i, word in enumerate(argv):     # the last --state-dir given (a subcommand's comes after), as
        name, equals, value = word.partition("=")       # argparse takes it: --state-dir=DIR, --st DIR
        if len(name) >= 4 and "--state-dir".startswith(name):
            if equals:
                given = value
            elif i + 1 < len(argv):
                given = argv[i + 1]
    stored = _stored_language(given)
    if stored in LANGUAGES:
        return stored
    return locale_language(os.environ) or "en"


def _stored_language(given: str | None) -> str | None:
    """The language stored in the state directory ``given`` names (else the default one):
    :func:`firmware.storage.stored_language`."""
    from pathlib import Path

    from firmware.storage import stored_language
    from firmware.store import DB_NAME
    from hw.config import default_state_dir
    try:
        root = Path(os.path.abspath(os.path.expanduser(given))) if given and given.strip() else default_state_dir()
    except (OSError, ValueError):
        return None
    return stored_language(root / DB_NAME)


def question_language(screens: Sequence[object]) -> str | None:
    """While the first start's language question is up (anywhere in ``screens``, the App's stack:
    a start notice or a notice over it), the language its list is on (under its cursor; before it
    is drawn, the locale's it opens on): what the device shows over it is said in that language,
    not in English. None once a language is chosen, and from Settings → Language."""
    from firmware.screens.language import LanguageScreen
    for screen in screens:
        if isinstance(screen, LanguageScreen) and screen.first_start:
            return screen.on()
    return None


@contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Speak ``lang`` (None: the language spoken) for what is made inside — the frames drawn over
    the first start's question —, then the one spoken before: the replies to the serial link stay
    in English until a language is chosen (PROTOCOL.md), as :func:`firmware.device._speak_the_last_words`
    leaves them alone at the end."""
    from firmware.i18n import language, set_language
    if lang is None or lang == language():
        yield
        return
    was = language()
    set_language(lang)
    try:
        yield
    finally:
        set_language(was)
