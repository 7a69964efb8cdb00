"""What a group game holds as the page keeps it: :class:`GroupState` (the game master's or a player's) and,
for a Cluster group game, its :class:`ClusterSide`; and :class:`GroupKind`, what a Classic and a Cluster group
game differ in, as the controller asks it. Kept apart from the controller that changes them
(:mod:`adjutant_ui.group`) and from Cluster's group code (:mod:`adjutant_ui.cluster_group`), which both
read and make them, so that neither imports the other's module back.

>>> from adjutant_ui.group_state import ClusterSide
>>> ClusterSide("cluster", "{}", {}).sealed_link().sealed
{}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from adjutant.game import Game
from adjutant.group_play import codes as group

from . import sealed
from .session import Session


@dataclass
class ClusterSide:
    """What a Cluster group game holds beyond a group game's: the link's public part and sealed parts;
    for the game master, the players' passphrases and the keys they give (Web Crypto handles, in this
    page's memory only); for a player, whether their part is open."""

    variant: str
    public_text: str
    public: dict[str, Any]
    seals: dict[str, str] = field(default_factory=dict)
    gm_part: str = ""
    passphrases: dict[str, str] = field(default_factory=dict)
    keys: dict[str, Any] = field(default_factory=dict)
    keys_task: Any = None
    opened: bool = False  # the game master's game, or the player's own part, is open
    seal_count: int = 0
    sealing: Any = None  # the latest reseal (awaited before a link is copied)

    def sealed_link(self) -> sealed.SealedLink:
        """The parts a player's passphrase is tried on (the Secrets panel's unlock)."""
        return sealed.SealedLink(self.public, dict(self.seals))



class GroupKind(Protocol):
    """What a Classic and a Cluster group game differ in, as the group controller
    (:class:`adjutant_ui.group.GroupController`) asks it: the codes it reads and writes (what a code binds,
    the link kept after a change), the panels it shows (whether the player chooses a power, whether the view
    is the game's own yet) and the secrets it handles (the game master's part, the parts sealed again).
    Chosen once, when a group game starts or is opened: :class:`adjutant_ui.group.Classic`,
    :class:`adjutant_ui.cluster_group.Cluster`."""

    #: whether a player says which power they play (Classic's chooser); a Cluster player's passphrase says it
    chooses_power: bool

    def opened(self, state: GroupState) -> bool:
        """Whether the view shown is the game's own: always for Classic; for Cluster, once a passphrase has
        opened the game master's game or the player's part (until then it is the public view)."""
        ...

    def phase_tag(self, state: GroupState) -> int | str:
        """What tells this phase from another, cheaply (a player's drafts are kept under its digest)."""
        ...

    def phase_digest(self, state: GroupState) -> bytes:
        """The digest of the phase a player's code is bound to and their drafts are kept under."""
        ...

    def code_binding(self, state: GroupState) -> bytes | None:
        """What a player's code binds beyond the game shown (Cluster: its link's public part), or None."""
        ...

    def intake_digest(self, state: GroupState) -> bytes:
        """What the game master's codes are checked against: the digest of the phase in hand."""
        ...

    def keep_link(self, state: GroupState, replace_hash: bool) -> None:
        """The game changed: its own link goes to the address bar and the autosave (Cluster's game master's
        once its parts are sealed again)."""
        ...

    def players_link(self, state: GroupState) -> str:
        """The players' link (the fragment) of the game in hand."""
        ...

    def public_fragment(self, state: GroupState) -> str | None:
        """The players' link for the embed code and the Group game panel, or None while it cannot be made."""
        ...

    def when_sealed(self, state: GroupState, then: Callable[[], None]) -> None:
        """Call ``then`` once the links are up to date with the game (Cluster's latest seal awaited)."""
        ...

    async def open_game(self, state: GroupState, key: Any, phrase: str) -> str:
        """The game master's key is unlocked with ``phrase``: open what it holds (Cluster's game master's
        part). Returns what to say beside "Unlocked" ("" for nothing)."""
        ...

    def role_text(self, state: GroupState) -> str:
        """The Group game panel's line for a player."""
        ...

    def set_passphrases(self, state: GroupState, phrases: dict[str, str]) -> bool:
        """The passphrase dialog's passphrases, given in the group game: whether the group game takes them
        (Cluster's game master seals the players' parts under them again); a Classic group game has no
        secrets of its own, and the page uses them as for any game."""
        ...

    async def unlock(self, state: GroupState, phrase: str) -> bool:
        """The Secrets panel's passphrase, typed in the group game: whether the group game opened it
        (Cluster's: a player's part, or the game master's key and game); a Classic group game has no parts,
        and the page tries the sealed link's."""
        ...


@dataclass
class GroupState:
    """A group game as this page holds it: the game master's (with the sealed private key, the key
    itself once unlocked, and the intake) or a player's (with the power played, if chosen)."""

    session: Session
    public_key: bytes
    sealed_private: str = ""
    private_key: Any = None
    intake: group.Intake = field(default_factory=group.Intake)
    power: str = ""
    log: list[tuple[str, str]] = field(default_factory=list)  # (kind, message) of the last codes opened
    log_at: int = -1  # the phase (phases adjudicated) they were opened at; -1 before any
    message: str = ""  # the last "message to players"
    #: a Cluster game's public part, sealed parts and players' passphrases (ClusterSide)
    cluster: ClusterSide | None = None
    messaged: int = -1  # the phase number (phases adjudicated) it was made at
    #: what the game master's status line (``group-status``) last said, while it is true: "started" (a new
    #: game) and "unlocked" until codes are opened, "adjudicated" (the next step is the message) until the
    #: message is made or a code of the new phase is in; "" for a line that stays
    #: (:meth:`adjutant_ui.group_panel.GroupPanel.render`)
    said: str = ""
    #: the list of codes opened (:attr:`log`) when it was said: "started" and "unlocked" go once another is
    said_log: list[tuple[str, str]] = field(default_factory=list)
    linked: int = -1  # the phase number the players' link was last copied at
    #: a player's last sealed orders code shown, its note, and the orders it seals (order texts, sorted;
    #: kept with the drafts: saves.Draft): orders changed since make it out of
    #: date (:func:`adjutant_ui.group_sending.code_stale`)
    code: str = ""
    code_note: str = ""
    code_orders: tuple[str, ...] = ()
    #: the line saying a player's drafts were kept, until it is shown
    kept: str = ""
    #: what the orders box is to hold when this player's game is next drawn (the text typed and not yet
    #: entered, kept with the drafts); None once put there
    typed: str | None = None
    #: a later phase of this game this browser opened before, as (its title, its players' link): this
    #: link is an old one ("" when it is the latest seen)
    later: tuple[str, str] = ("", "")
    #: where a player's draft is kept ((what the phase was told by: the phases adjudicated, or a Cluster
    #: link's public part), (game, phase)): see _draft_place
    draft_place: tuple[int | str, tuple[str, str]] | None = None
    #: what this group game is (Classic or Cluster): chosen when it is started or opened
    kind: GroupKind = field(kw_only=True)

    @property
    def is_gm(self) -> bool:
        return bool(self.sealed_private)

    @property
    def game(self) -> Game:
        return self.session.game
