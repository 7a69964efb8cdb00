"""``adjutant`` (or ``python -m adjutant``): a game master's command line.

adjutant variants
adjutant new standard game.json
adjutant setup standard game.json --phase F1905M --units "England: F Nth, A Lon" --centres "England: lon, edi"
                                          (or --from FILE: the same settings, say adjutant show's output)
adjutant orders game.json orders.txt      (any power; "-" reads standard input)
adjutant show game.json
adjutant adjudicate game.json
adjutant link game.json                   (the shareable fragment)
adjutant case game.json --phase S1903M    (a phase as a DATC-style case text)
adjutant check-case case.txt              (check each case of a DATC-style text)
adjutant import-diplomacy saved.json game.json   (a game of the diplomacy package, with its history)
adjutant export-diplomacy game.json saved.json   (a standard game, for the diplomacy package)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from . import report
from .casetext import case_text, check_case, phase_index, read_cases
from .cluster_views import for_players
from .codec import decode_link, encode_link
from .errors import AdjutantError
from .game import Game
from .gamefile import dumps, loads
from .savedgame import dumps_saved_game, loads_saved_game
from .setup import read_setup_text, set_up_text
from .variant import available_variants


def _read_game(path: str) -> Game:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise AdjutantError(f"cannot read {path}: {e.strerror}") from None
    try:
        return loads(data)
    except AdjutantError as e:
        raise AdjutantError(f"{path}: {e}") from None


def _write_game(path: str, game: Game) -> None:
    """Write atomically: the old file stays whole until the new one is complete."""
    target = Path(path)
    text = dumps(game)
    fd, tmp = tempfile.mkstemp(prefix=".adjutant-", dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _set_up(args: argparse.Namespace) -> Game:
    """The game ``adjutant setup`` sets up: from its options, or from the text ``--from`` names."""
    if args.source is None:
        if args.phase is None:
            raise AdjutantError("give the position's --phase (like --phase F1905M), or --from FILE")
        return set_up_text(args.variant, args.phase, args.units, args.centres, args.dislodged, args.standoffs)
    if args.phase is not None or args.units or args.centres or args.dislodged or args.standoffs:
        raise AdjutantError("give the position either in --from FILE or in its options, not both")
    try:
        text = sys.stdin.read() if args.source == "-" else Path(args.source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise AdjutantError(f"cannot read {args.source}: {e}") from None
    try:
        return read_setup_text(args.variant, text)
    except AdjutantError as e:
        raise AdjutantError(f"{args.source}: {e}") from None


def _check_cases(path: str, variant: str | None) -> int:
    """``adjutant check-case``: each case's name and whether Adjutant adjudicates it as it expects."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise AdjutantError(f"cannot read {path}: {e}") from None
    failed = 0
    for case in read_cases(text, variant):
        problems = check_case(case)
        failed += bool(problems)
        print(f"{case.name}: " + ("; ".join(problems) if problems else "as Adjutant adjudicates it"))
        for refused in case.refused:  # (an order refused holds, as a DATC case may expect)
            print(f"  order not taken, {refused}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="adjutant", description="Adjudicate Diplomacy games.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("variants", help="list the variants")
    p = sub.add_parser("new", help="start a game and write its file")
    p.add_argument("variant")
    p.add_argument("game", help="the game file to write")
    p = sub.add_parser(
        "setup",
        help="start a game from any position and write its file",
        description="Start a game from any position. The settings are those adjutant show prints.",
    )
    p.add_argument("variant")
    p.add_argument("game", help="the game file to write")
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="read the settings from a text file (adjutant show's output will do), or - for standard input")
    p.add_argument("--phase", help="the phase, like F1905M, F1905R or W1905A")
    p.add_argument("--units", default="", help='the units, like "England: F Nth, A Lon; France: A Par"')
    p.add_argument("--centres", default="", help='the supply centres\' owners, like "England: lon, edi; France: par"')
    p.add_argument("--dislodged", default="",
                   help='a retreat phase: the dislodged units and where the attack came from, like '
                        '"Germany: A Mun from Boh; Italy: A Tun by convoy"')
    p.add_argument("--standoffs", default="", help='a retreat phase: the provinces of a stand-off, like "Boh, Sil"')
    p = sub.add_parser("orders", help="add orders (any power) from a text file, or - for standard input")
    p.add_argument("game")
    p.add_argument("file")
    p.add_argument("--power", help="the power giving these orders, when they don't say")
    secrets_help = "a game with secrets (Cluster): print the game master's full results, not the players' report"
    p = sub.add_parser("adjudicate", help="resolve the current phase and print the results")
    p.add_argument("game")
    p.add_argument("--secrets", action="store_true", help=secrets_help)
    p = sub.add_parser("undo", help="take back the last adjudication")
    p.add_argument("game")
    p = sub.add_parser("show", help="the position, centres and orders due")
    p.add_argument("game")
    p = sub.add_parser("history", help="every phase's results")
    p.add_argument("game")
    p.add_argument("--secrets", action="store_true", help=secrets_help)
    p = sub.add_parser("link", help="print the game as a link fragment")
    p.add_argument("game")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--public", action="store_true", help="a game with secrets: the players' view only")
    which.add_argument("--secrets", action="store_true", help="a game with secrets: everything, in the clear")
    p = sub.add_parser("case", help="print an adjudicated phase as a DATC-style case text (CASE … END)")
    p.add_argument("game")
    p.add_argument("--phase", help="the phase, like S1903M (the last one adjudicated if not given)")
    p = sub.add_parser("check-case", help="check each case of a DATC-style text against Adjutant's adjudication")
    p.add_argument("file", help="the case text, or - for standard input")
    p.add_argument("--variant", help="the variant's id, when the text has no VARIANT_ALL line (else standard)")
    p = sub.add_parser("import-diplomacy", help="read a saved game of the diplomacy package into a game file")
    p.add_argument("saved", help="the package's saved game (to_saved_game_format's JSON)")
    p.add_argument("game", help="the game file to write")
    p = sub.add_parser("export-diplomacy", help="write a standard game as the diplomacy package's saved game")
    p.add_argument("game")
    p.add_argument("saved", help="the file to write")
    p = sub.add_parser("from-link", help="write the game in a link fragment to a file")
    p.add_argument("fragment")
    p.add_argument("game")
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except AdjutantError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the output was piped into something that stopped reading (| head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's flush is quiet too
        return 0


def _run(args: argparse.Namespace) -> int:
    if args.command == "variants":
        for vid, name in available_variants():
            print(f"{vid:16} {name}")
        return 0
    if args.command == "new":
        if Path(args.game).exists():
            raise AdjutantError(f"{args.game} exists already; not overwriting it")
        game = Game.new(args.variant)
        _write_game(args.game, game)
        print(report.show(game))
        return 0
    if args.command == "setup":
        if Path(args.game).exists():
            raise AdjutantError(f"{args.game} exists already; not overwriting it")
        game = _set_up(args)
        _write_game(args.game, game)
        print(report.show(game))
        return 0
    if args.command == "import-diplomacy":
        if Path(args.game).exists():
            raise AdjutantError(f"{args.game} exists already; not overwriting it")
        try:
            imported = loads_saved_game(Path(args.saved).read_bytes())
        except OSError as e:
            raise AdjutantError(f"cannot read {args.saved}: {e.strerror}") from None
        except AdjutantError as e:
            raise AdjutantError(f"{args.saved}: {e}") from None
        _write_game(args.game, imported.game)
        for reading in imported.read_as_the_package:
            print(f"note: {reading} (as the diplomacy package reads them)", file=sys.stderr)
        if imported.stopped:
            print(f"warning: read up to {imported.game.phase}: {imported.stopped}", file=sys.stderr)
        print(report.show(imported.game))
        return 0
    if args.command == "check-case":
        return _check_cases(args.file, args.variant)
    if args.command == "from-link":
        game = decode_link(args.fragment)
        _write_game(args.game, game)
        print(report.show(game))
        return 0
    game = _read_game(args.game)
    if args.command == "orders":
        try:
            text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise AdjutantError(f"cannot read {args.file}: {e}") from None
        power = None
        if args.power:
            from .orders import find_power

            found = find_power(game.variant, args.power)
            if found is None:
                raise AdjutantError(f"{args.power!r} is not a power of {game.variant.name}")
            power = found.id
        problems = game.add_orders(text, power)
        for pr in problems:
            print(("warning: " if pr.kept else "error: ") + str(pr), file=sys.stderr)
        _write_game(args.game, game)
        print(report.orders_status(game))
        return 1 if any(not pr.kept for pr in problems) else 0
    if args.command == "adjudicate":
        records = game.adjudicate()
        _write_game(args.game, game)
        shown = game if args.secrets else for_players(game)
        for r in shown.history[len(shown.history) - len(records):]:
            if not r.silent:
                print(report.results(game.variant, r))
        print(report.show(game))
        return 0
    if args.command == "undo":
        record = game.undo()
        _write_game(args.game, game)
        print(f"Took back {record.phase.title}; its orders are given again.")
        print(report.show(game))
        return 0
    if args.command == "show":
        print(report.show(game))
        return 0
    if args.command == "export-diplomacy":
        text = dumps_saved_game(game)
        if Path(args.saved).exists():
            raise AdjutantError(f"{args.saved} exists already; not overwriting it")
        Path(args.saved).write_text(text, encoding="utf-8")
        return 0
    if args.command == "case":
        if args.phase is not None:
            index = phase_index(game, args.phase)
        else:
            played = [n for n, r in enumerate(game.history) if not r.skipped]
            if not played:
                raise AdjutantError("no phase of the game has been adjudicated yet: there is no case to report")
            index = played[-1]
        print(case_text(game, index), end="")
        return 0
    if args.command == "history":
        for r in (game if args.secrets else for_players(game)).history:
            if not r.silent:
                print(report.results(game.variant, r))
        return 0
    if args.command == "link":
        players = for_players(game)
        if players is not game and not (args.public or args.secrets):
            raise AdjutantError(
                "this game has secrets, which a link would carry in the clear: give --public for the players' "
                "view, or --secrets for the game master's own copy (the page seals each secret for sharing)"
            )
        print(encode_link(players if args.public else game))
        return 0
    raise AdjutantError(f"unknown command {args.command}")
