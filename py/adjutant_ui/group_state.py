"""What a group game holds as the page keeps it: :class:`GroupState` (the game master's or a player's) and,
for a Cluster group game, its :class:`ClusterSide`. Kept apart from the controller that changes them
(:mod:`adjutant_ui.group`) and from Cluster's group code (:mod:`adjutant_ui.cluster_group`), which both
read and make them, so that neither imports the other's module back.

>>> from adjutant_ui.group_state import ClusterSide
>>> ClusterSide("cluster", "{}", {}).sealed_link().sealed
{}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    #: message is made or a code of the new phase is in; "" for a line that stays (:meth:`GroupController.render`)
    said: str = ""
    #: the list of codes opened (:attr:`log`) when it was said: "started" and "unlocked" go once another is
    said_log: list[tuple[str, str]] = field(default_factory=list)
    linked: int = -1  # the phase number the players' link was last copied at
    #: a player's last sealed orders code shown, its note, and the orders it seals (order texts, sorted;
    #: kept with the drafts: saves.Draft): orders changed since make it out of date (:func:`_code_stale`)
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

    @property
    def is_gm(self) -> bool:
        return bool(self.sealed_private)

    @property
    def game(self) -> Game:
        return self.session.game
