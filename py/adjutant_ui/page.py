"""The page as its parts see it: the protocols through which the group code, the panels and the page's
own parts (saving, the keyboard, order entry, games with secrets) reach :class:`adjutant_ui.app.App`.

No module of the page imports ``adjutant_ui.app`` but the entry point: each part is given the page (and
the other parts it needs) when App makes it, and names here only what it uses of it, so that the page's
modules form no import cycle (tests/test_architecture.py checks it). App satisfies every protocol here;
mypy checks that where App hands itself to a part.

>>> from adjutant_ui.page import GroupPage, Page
>>> GroupPage in Page.__mro__  # the page's parts use all that the group code uses, and more
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .group_state import GroupState
from .proxies import Proxies
from .saves import Saves
from .sealed import SealedLink
from .session import Session

if TYPE_CHECKING:  # (the board is the DOM's: it imports js, which only Pyodide has)
    from .board import Board


class GroupSaving(Protocol):
    """What the group code uses of the page's saving (:class:`adjutant_ui.saving.Saving`)."""

    @property
    def saves(self) -> Saves: ...

    def replacing(self, game_id: str = "") -> None: ...

    def remember(self, fragment: str, replace_hash: bool = True) -> None: ...


class GroupSecrets(Protocol):
    """What Cluster's group code uses of the page's games with secrets (:class:`adjutant_ui.sealing.Sealing`)."""

    passphrases: dict[str, str]

    def unlock_refused(self, text: str) -> None: ...

    def unlock_done(self) -> None: ...


class GroupSeats(Protocol):
    """What the group code uses of the computer players' panel (:class:`adjutant_ui.computer_page.ComputerPlayers`)."""

    def group_dialog(self, variant_id: str) -> None: ...

    def seat_group_game(self, game: Any) -> None: ...


class GroupPage(Protocol):
    """The page as the group code (adjutant_ui.group, group_intake, group_sending, cluster_group) uses it."""

    @property
    def session(self) -> Session | None: ...

    @property
    def saving(self) -> GroupSaving: ...

    @property
    def sealing(self) -> GroupSecrets: ...

    @property
    def computer(self) -> GroupSeats: ...

    def on(self, element: Any, event: str, handler: Any) -> Any: ...

    def message(self, text: str, kind: str = "error", beside: bool = False) -> None: ...

    def clear_message(self, only: str = "") -> None: ...

    def render(self) -> None: ...

    def changed(self, replace_hash: bool = True) -> None: ...

    def list_problems(self, list_id: str, problems: list[str]) -> bool: ...

    async def show(self, new_session: Session, role: str = "", link: SealedLink | None = None,
                   keys: dict[str, Any] | None = None, passphrases: dict[str, str] | None = None) -> None: ...


class Intake(Protocol):
    """The game master's intake of codes (:class:`adjutant_ui.group_intake.CodeIntake`) as Cluster's group code
    uses it."""

    async def unlock(self, phrase: str) -> None: ...


class GroupControl(Protocol):
    """The group controller (:class:`adjutant_ui.group.GroupController`) as the group code (Cluster's, the
    intake of codes, a player's sending) uses it."""

    state: GroupState | None
    pending: GroupState | None

    @property
    def app(self) -> GroupPage: ...

    def busy(self, text: str) -> AbstractContextManager[None]: ...

    def lead_to_players_link(self, started: str) -> None: ...

    def remember_power(self, power: str) -> None: ...

    queued: str

    @property
    def intake(self) -> Intake: ...

    def restore_draft(self, state: GroupState, since: str) -> None: ...

    def keep_draft(self, state: GroupState) -> None: ...

    def say(self, status: str, text: str, kind: str = "info") -> None: ...

    def refused_insecure(self, status: str = "") -> bool: ...

    async def copy_text(self, text: str, status: str, done: str, field_id: str = "") -> None: ...


class InHand(NamedTuple):
    """The game in hand as the page shows it (``App.in_hand``), to be put back if opening another game
    fails."""

    session: Session | None
    role: str
    link: SealedLink | None
    keys: dict[str, Any]
    passphrases: dict[str, str]
    keys_task: Any
    group: GroupState | None
    last_link: str
    #: the save's slot: (game id, saved, keep the autosave)
    slot: tuple[str, bool, bool]


class Saving(GroupSaving, Protocol):
    """What the panels use of the page's saving."""

    def may_replace(self) -> bool: ...


class Secrets(GroupSecrets, Protocol):
    """What the panels use of the page's games with secrets."""

    def open_passphrases(self, purpose: str, variant_id: str = "") -> None: ...


class MapFocus(Protocol):
    """What the set-up panel uses of the map's keyboard (:class:`adjutant_ui.keyboard.MapKeys`)."""

    map_focus: str | None

    def rove(self) -> Any: ...

    def focus_after_action(self, was: str | None) -> None: ...


class GroupView(Protocol):
    """What the computer players' panel reads of the group game."""

    @property
    def state(self) -> GroupState | None: ...


class Page(GroupPage, Protocol):
    """The page as its parts (saving, the keyboard, order entry, secrets) and its panels (set-up, computer
    players) use it: the game shown, who is looking, the link, and the page's plumbing."""

    session: Session | None
    board: Board | None
    role: str
    link: SealedLink | None
    last_link: str
    proxies: Proxies
    message_proxies: list[Any]
    #: what each button drawn at a render does, by its data-action (adjutant_ui.panels fills it)
    actions: dict[str, Any]

    @property
    def embed(self) -> bool: ...

    @property
    def saving(self) -> Saving: ...

    @property
    def sealing(self) -> Secrets: ...

    @property
    def keyboard(self) -> MapFocus: ...

    @property
    def group(self) -> GroupView: ...

    def in_hand(self) -> InHand: ...

    async def put_back(self, before: InHand) -> None: ...

    async def read_link(self, fragment: str) -> tuple[Session, SealedLink | None]: ...

    def when_idle(self, steps: Iterator[None], done: Callable[[], None], what: str = "rehearsal") -> None: ...

    def draw_board(self) -> dict[str, int]: ...

    def board_steps(self) -> Iterator[None]: ...

    def render_steps(self) -> Iterator[None]: ...

    def orders_panel(self) -> None: ...

    def copy(self, text: str, what: str) -> None: ...

