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
adjutant bot game.json --powers turkey,italy [--level search] [--seed N]   (computer players' orders)
adjutant selfplay cline5 --years 10 --games 3 [--seed S] [--level L]      (games between computer players)
adjutant map game.json [--phase F1903M] [--orders | --results] -o board.svg
                                          (a picture of the board, the map from the built site)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from .errors import AdjutantError
from .formats import report
from .formats.casetext import case_text, check_case, phase_index, read_cases
from .formats.gamefile import dumps, loads
from .formats.link import decode_link, encode_link
from .formats.savedgame import dumps_saved_game, loads_saved_game
from .game import Game
from .group_play.cluster_views import for_players, picture_marks
from .map.variant import available_variants
from .pictures.drawing import Drawing, MapPoints, board_svg, picture_lines, picture_title
from .pictures.scene import find_phase, scene
from .seats import DEFAULT_LEVEL, LEVELS, MAX_SEED
from .setup import read_setup_text, set_up_text
from .variants.cluster import SETUP_KEYS as CLUSTER_SETTINGS


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
    _write_text(path, dumps(game))


def _write_text(path: str, text: str) -> None:
    """Write atomically: the old file stays whole until the new one is complete."""
    target = Path(path)
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
        own = {key: getattr(args, key) for key in CLUSTER_SETTINGS if getattr(args, key)}
        return set_up_text(args.variant, args.phase, args.units, args.centres, args.dislodged, args.standoffs,
                           settings=own)
    given = (args.units, args.centres, args.dislodged, args.standoffs, *(getattr(args, k) for k in CLUSTER_SETTINGS))
    if args.phase is not None or any(given):
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
#: the most of a map SVG read (the largest built map is some 400 kB)
MAX_MAP_BYTES = 20_000_000


def _map_text(game: Game, given: str | None) -> str:
    """The variant's map SVG: the file ``given``, else the built site's (``dist/maps/<id>.svg`` in the
    current folder, or in the checkout this package runs from). The engine does not draw maps: build.py
    does (adjutant_maps, with svgwrite and shapely), so a picture needs a built one."""
    name = f"{game.variant.id}.svg"
    here = Path(__file__).resolve().parents[2] / "dist" / "maps" / name
    candidates = [Path(given)] if given else [Path("dist") / "maps" / name, here]
    for path in candidates:
        if given or path.is_file():
            try:
                with path.open("rb") as f:
                    data = f.read(MAX_MAP_BYTES + 1)
            except OSError as e:
                raise AdjutantError(f"cannot read the map {path}: {e.strerror}") from None
            if len(data) > MAX_MAP_BYTES:
                raise AdjutantError(f"the map {path} is larger than {MAX_MAP_BYTES:,} bytes")
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                raise AdjutantError(f"the map {path} is not UTF-8 text") from None
    raise AdjutantError(f"no map of {game.variant.name} found (looked for dist/maps/{name}): build the site "
                        "first (python build.py), or give the map's SVG with --map")


def board_picture(game: Game, map_svg: str, phase: str | None = None, *, orders: bool = True, results: bool = True,
                  name: str = "", secrets: bool = False) -> str:
    """The SVG picture of ``game`` at ``phase`` (None: the current phase) that the page would draw, over
    the variant's map ``map_svg``: its orders and the results of the phase that made it (either or both),
    their text below. A game with secrets is drawn as its players see it unless ``secrets``."""
    shown = game if secrets else for_players(game)
    secret = secrets and shown is not for_players(game)
    view = find_phase(shown, phase) if phase else len(shown.history)
    sites, strengths = picture_marks(shown, view)
    drawn = scene(shown, view, orders=orders, results=results, sites=sites, strengths=strengths)
    drawing = Drawing(shown.variant, MapPoints.from_svg(map_svg))
    return board_svg(map_svg, drawing, drawn, picture_title(shown, view, name, secret),
                     picture_lines(shown, view, orders, results))


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
    for key, what in (
        ("strengths", 'the multiple units, like "France: 3 Par, 2 Bre; England: 3 Lon revealed" (rule 1)'),
        ("deferred", 'the levels left to a later build, like "England: 2"'),
        ("knowledge", 'what each power knows, like "France: transfer, mattermission"'),
        ("sites", 'the Sites of the Ancients by level, like "1: Nwy, Wes; 2: Mun; 3: Nao" (none: drawn)'),
    ):
        p.add_argument(f"--{key}", default="", help=f"Cluster: {what}")
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
    p.add_argument("--secrets", action="store_true",
                   help="a game with secrets (Cluster): the set-up command with the strengths, sites and knowledge")
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
    p = sub.add_parser("map", help="write a picture of the board (SVG): the map with a phase drawn over it")
    p.add_argument("game")
    p.add_argument("-o", "--output", required=True, help="the SVG file to write (- for standard output)")
    p.add_argument("--phase", help="the phase to draw, as F1903M (default: the current one)")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--orders", action="store_true", help="only the orders given in the phase, no results")
    shown.add_argument("--results", action="store_true", help="only the results of the phase that made it")
    p.add_argument("--map", dest="map_file", help="the variant's map SVG (default: dist/maps/<variant>.svg, "
                   "as `python build.py` writes it)")
    p.add_argument("--title", default="", help="the game's name, written in the picture's title")
    p.add_argument("--secrets", action="store_true",
                   help="a game with secrets (Cluster): the game master's picture, secrets drawn (said in its title)")
    p = sub.add_parser("from-link", help="write the game in a link fragment to a file")
    p.add_argument("fragment")
    p.add_argument("game")
    p = sub.add_parser("bot", help="add computer players' orders for the current phase")
    p.add_argument("game")
    p.add_argument("--powers", required=True, help="the powers, by name, separated by commas")
    p.add_argument("--level", default=DEFAULT_LEVEL, help=f"{', '.join(LEVELS)} (default {DEFAULT_LEVEL})")
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same orders (default 0)")
    p = sub.add_parser("selfplay", help="play whole games between computer players; print the centres")
    p.add_argument("variant")
    p.add_argument("--years", type=int, default=10)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (the next games count on)")
    p.add_argument("--level", default=DEFAULT_LEVEL, help=f"every power's level: {', '.join(LEVELS)}")
    p.add_argument("--verbose", action="store_true", help="print the centres after every game year")
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
    if args.command in ("new", "setup", "import-diplomacy") and Path(args.game).exists():
        raise AdjutantError(f"{args.game} exists already; not overwriting it")
    if args.command == "new":
        game = Game.new(args.variant)
        _write_game(args.game, game)
        print(report.show(game))
        return 0
    if args.command == "setup":
        game = _set_up(args)
        _write_game(args.game, game)
        print(report.show(game))
        return 0
    if args.command == "import-diplomacy":
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
    if args.command == "selfplay":
        return _selfplay(args)
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
            from .adjudication.orders import find_power

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
        print(report.show(game, secrets=args.secrets))
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
    if args.command == "map":
        picture = board_picture(game, _map_text(game, args.map_file), args.phase, orders=not args.results,
                                results=not args.orders, name=args.title, secrets=args.secrets)
        if args.output == "-":
            sys.stdout.write(picture)
        else:
            _write_text(args.output, picture)
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
    if args.command == "bot":
        return _bot(game, args)
    raise AdjutantError(f"unknown command {args.command}")


def _bot(game: Game, args: argparse.Namespace) -> int:
    """``adjutant bot``: every power's orders are made before any is given, so an error changes nothing."""
    from .adjudication.orders import find_power, format_order
    from .bots import bot_orders
    from .seats import Seat, phase_seed, seat_problem

    problem = seat_problem(args.level, args.seed)
    if problem:
        raise AdjutantError(problem)
    if game.over:
        raise AdjutantError("the game is over: no more orders")
    powers = []
    for name in args.powers.split(","):
        found = find_power(game.variant, name.strip())
        if found is None:
            raise AdjutantError(f"{name.strip()!r} is not a power of {game.variant.name}")
        powers.append(found.id)
    made = {}
    for power in dict.fromkeys(powers):
        seed = phase_seed(Seat(args.level, args.seed), str(game.phase), power)
        orders = bot_orders(game, power, args.level, seed)
        if not orders:
            name = game.variant.powers[power].name
            raise AdjutantError(f"{name} has nothing to order in {game.phase.title}")
        made[power] = orders
    for power, orders in made.items():
        game.clear_orders(power)
        for o in orders:
            game.add_order(o)
    _write_game(args.game, game)
    for power, orders in made.items():
        print(f"{game.variant.powers[power].name}:")
        for o in orders:
            print(f"  {format_order(o)}")
    print(report.orders_status(game))
    return 0


def _selfplay(args: argparse.Namespace) -> int:
    """``adjutant selfplay``: the centres per power at the end of each game, and their mean."""
    from .bots.selfplay import play_game
    from .map.variant import load_variant

    if args.level not in LEVELS:
        raise AdjutantError(f"{args.level!r} is not a computer player's level (the levels are {', '.join(LEVELS)})")
    if not 1 <= args.years <= 200 or not 1 <= args.games <= 10_000:
        raise AdjutantError("give --years from 1 to 200 and --games from 1 to 10000")
    if not 0 <= args.seed <= MAX_SEED - args.games:
        raise AdjutantError(f"give --seed from 0 to {MAX_SEED - args.games}")
    variant = load_variant(args.variant)
    powers = sorted(variant.powers)
    totals = dict.fromkeys(powers, 0)
    print(f"{variant.name}: {args.games} game(s) of {args.years} year(s), every power at level {args.level}")
    for n in range(args.games):
        seed = args.seed + n

        def year_end(game: Game, power: str, orders: object, seconds: float) -> None:
            if power == powers[0] and game.phase.season == "spring" and game.phase.kind == "movement":
                print(f"  {game.phase.year}: " + _centres_line(game))

        game = play_game(args.variant, {}, args.years, seed, args.level, year_end if args.verbose else None)
        end = f" (won by {variant.powers[game.winner].name})" if game.winner else ""
        print(f"game {n + 1} (seed {seed}), {game.phase.title}{end}: {_centres_line(game)}")
        for p, k in game.centre_counts().items():
            totals[p] += k
    if args.games > 1:
        print("mean centres: " + ", ".join(f"{variant.powers[p].name} {totals[p] / args.games:.1f}" for p in powers))
    return 0


def _centres_line(game: Game) -> str:
    counts = game.centre_counts()
    return ", ".join(f"{game.variant.powers[p].name} {counts[p]}" for p in sorted(counts))
