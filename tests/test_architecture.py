"""How the code is put together: the engine's sub-packages are layers, each importing only those below
it; no import cycle runs among the engine's modules, nor among the page's; no engine module but Cluster's
own knows Cluster Diplomacy (the others call the hooks of adjutant.variants.hooks); and no module reaches
into another's private names."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Collection, Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "py" / "adjutant"
#: every module of ours, by dotted name (a package by its own name, for its __init__.py)
MODULES = {
    ".".join(path.relative_to(ROOT / "py").with_suffix("").parts).removesuffix(".__init__"): path
    for package in ("adjutant", "adjutant_maps", "adjutant_ui")
    for path in sorted((ROOT / "py" / package).rglob("*.py"))
    if "__pycache__" not in path.parts
}
MODULES["build"] = ROOT / "build.py"
#: the Cluster Diplomacy modules: its rules, its kinds of order, its views, its group links
CLUSTER = {
    "adjutant.variants.cluster",
    "adjutant.variants.cluster_orders",
    "adjutant.group_play.cluster_views",
    "adjutant.group_play.cluster_links",
}
#: what a NamedTuple offers under a leading underscore: public by its own documentation
NAMED_TUPLE_API = {"_replace", "_fields", "_asdict", "_make", "_field_defaults"}


def _tree(name: str) -> ast.Module:
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


def _absolute(name: str, node: ast.ImportFrom) -> str:
    """The module an ``from ... import`` names, made absolute."""
    if not node.level:
        return node.module or ""
    parts = name.split(".")
    if MODULES[name].name == "__init__.py":
        parts.append("__init__")  # a package's own module: its dots count from inside the package
    package = parts[: -node.level]
    return ".".join(package + ([node.module] if node.module else []))


def imports(name: str) -> dict[str, str]:
    """The modules of ours that ``name`` imports (at any depth of its code), by the name it binds them to
    (the module itself for what it imports from it)."""
    found: dict[str, str] = {}
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    found[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(name, node)
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:  # a module imported from its package
                    found[alias.asname or alias.name] = f"{base}.{alias.name}"
                elif base in MODULES:
                    found[f"{base}:{alias.name}"] = base
    return found


#: the engine's modules
ENGINE_MODULES = sorted(name for name in MODULES if name == "adjutant" or name.startswith("adjutant."))
#: the page's modules
UI_MODULES = sorted(name for name in MODULES if name == "adjutant_ui" or name.startswith("adjutant_ui."))

#: The engine's layers, lowest first (docs/design.md): a module imports only modules of its own layer and
#: of the layers below it. A layer is sub-packages (every module in them) and top-level modules.
LAYERS: list[tuple[str, set[str]]] = [
    ("the base", {"adjutant.errors", "adjutant.steps"}),
    ("the map", {"adjutant.map"}),
    ("adjudication", {"adjutant.adjudication"}),
    ("the variants' rules", {"adjutant.variants"}),
    ("the game", {"adjutant.game", "adjutant.legal", "adjutant.setup", "adjutant.seats", "adjutant.randomgame"}),
    ("formats", {"adjutant.formats"}),
    ("group play", {"adjutant.group_play"}),
    ("pictures", {"adjutant.pictures"}),
    ("the computer players", {"adjutant.bots"}),
    ("the front ends", {"adjutant", "adjutant.cli", "adjutant.__main__"}),
]


def layer_of(name: str) -> int | None:
    """The index in LAYERS of engine module ``name``'s layer, None if it is in none."""
    for index, (_, members) in enumerate(LAYERS):
        if name in members or any(name.startswith(f"{m}.") for m in members if m != "adjutant"):
            return index
    return None


def upward_imports(name: str) -> list[str]:
    """The engine modules ``name`` imports (at any depth of its code) from a layer above its own."""
    own = layer_of(name)
    assert own is not None, f"{name} is in no layer of LAYERS"
    found = sorted(m for m in set(imports(name).values()) if m == "adjutant" or m.startswith("adjutant."))
    return [f"{m} ({LAYERS[layer][0]})" for m in found if (layer := layer_of(m)) is not None and layer > own]


def test_every_engine_module_is_in_a_layer() -> None:
    assert [name for name in ENGINE_MODULES if layer_of(name) is None] == []


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_each_engine_module_imports_only_its_layer_and_those_below(name: str) -> None:
    layer = LAYERS[layer_of(name) or 0][0]
    assert upward_imports(name) == [], f"{name}, in {layer}, imports from a layer above it"


def test_the_layer_check_finds_an_import_from_above(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the resolver asking the registry which rules a variant plays by: adjudication importing the variants'
    path = tmp_path / "asking.py"
    path.write_text("def f(v):\n    from ..variants.registry import rules_for\n    return rules_for(v)\n", "utf-8")
    monkeypatch.setitem(MODULES, "adjutant.adjudication.asking", path)
    assert upward_imports("adjutant.adjudication.asking") == ["adjutant.variants.registry (the variants' rules)"]
#: the modules that may know Cluster: its own, and the rulebook that lists its rules; and the command
#: line, which like the page is a front end on top of the engine (no engine module imports it) and shows
#: a Cluster game master's game to the players as its public view
KNOW_CLUSTER = CLUSTER | {"adjutant.variants.registry", "adjutant.cli", "adjutant.bots.cluster"}


def classes_of(names: Iterable[str]) -> set[str]:
    """The classes modules ``names`` define at their top level."""
    return {node.name for name in names for node in _tree(name).body if isinstance(node, ast.ClassDef)}


def cluster_uses(name: str) -> list[str]:
    """Where module ``name`` knows Cluster Diplomacy itself: imports a Cluster module, or reads a
    variant's Cluster section (``.cluster``) or names a class of Cluster's modules (its state, its rules, its
    kinds of order: found from those modules' code)."""
    out = [f"imports {m}" for m in sorted(set(imports(name).values()) & CLUSTER)]
    classes = classes_of(CLUSTER)
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Attribute) and (node.attr == "cluster" or node.attr in classes):
            out.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Name) and node.id in classes:
            out.append(f"line {node.lineno}: {node.id}")
    return out


@pytest.mark.parametrize("name", sorted(set(ENGINE_MODULES) - KNOW_CLUSTER))
def test_no_engine_module_knows_cluster_but_its_own(name: str) -> None:
    """A variant's own rules are reached through its hooks (adjutant.variants.hooks), which the rulebook
    gives each variant; no other module asks whether a game is Cluster's."""
    assert cluster_uses(name) == [], f"{name} should call a hook of adjutant.variants.hooks"


def plant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str) -> None:
    """Have module ``name``, with ``source`` for its code, among our modules for this test."""
    path = tmp_path / f"{name.rsplit('.', 1)[-1]}.py"
    path.write_text(source, encoding="utf-8")
    monkeypatch.setitem(MODULES, name, path)


def test_the_cluster_check_finds_a_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        "from adjutant.group_play.cluster_links import game_digest\n"
        "\n"
        "def f(game):\n"
        "    return game.variant.cluster is not None\n"
    )
    plant(tmp_path, monkeypatch, "adjutant.asking", source)
    assert cluster_uses("adjutant.asking") == [
        "imports adjutant.group_play.cluster_links",
        "line 4: game.variant.cluster",
    ]


def test_the_cluster_check_finds_a_class_of_cluster_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the game as it kept a power's nominations: Cluster's order class, reached without importing its module
    source = (
        "def kept(orders, rules):\n"
        "    return [o for o in orders if isinstance(o, (Nominate, rules.cluster_orders.Research))]\n"
    )
    plant(tmp_path, monkeypatch, "adjutant.asking", source)
    assert cluster_uses("adjutant.asking") == [
        "line 2: Nominate",
        "line 2: rules.cluster_orders.Research",
    ]


#: the core: the layers below the variants' rules (the map, adjudication), which reach a variant's rules only
#: through the hooks of adjutant.adjudication.hooks
CORE = sorted(name for name in ENGINE_MODULES if (layer := layer_of(name)) is not None and 0 < layer < 3)
#: the modules that read the variants' data into the map model, and so define its variant-specific parts
VARIANT_DATA = {"adjutant.map.variant", "adjutant.map.options"}
#: the modules of the variants' own rules
VARIANT_MODULES = sorted(name for name in MODULES if name.startswith("adjutant.variants."))


def _fields(tree: ast.Module, cls: str | None = None) -> dict[str, str]:
    """The annotated fields of the classes of ``tree`` (of class ``cls`` only, if given), each with its
    annotation's text."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and cls in (None, node.name):
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    found[item.target.id] = ast.unparse(item.annotation)
    return found


def variant_specific_attributes() -> set[str]:
    """The attributes that belong to some variants' rules, from what the variant data's modules define: the
    fields of the option and section classes of ``map.options`` (Coast-Running's options, Cluster's sites),
    and the fields of ``Variant`` that hold them; not those ``Variant`` declares as data of its own (the
    order kinds a variant takes, the strengths it may nominate), which any variant may have."""
    sections = _fields(_tree("adjutant.map.options"))
    classes = {n.name for n in _tree("adjutant.map.options").body if isinstance(n, ast.ClassDef)}
    variant = _fields(_tree("adjutant.map.variant"), "Variant")
    holding = {name for name, annotation in variant.items() if any(c in annotation for c in classes)}
    return (set(sections) | holding) - (set(variant) - holding)


def variant_order_words() -> set[str]:
    """The words of the variants' own kinds of order, as the variants' modules list them for the parser
    (``KINDS``: each kind's token and words, its kind's name, its noun and its class's name)."""
    words: set[str] = set()
    for name in VARIANT_MODULES:
        for kind in getattr(importlib.import_module(name), "KINDS", ()):
            words |= {kind.token, *kind.words, kind.order.KIND, kind.order.NOUN, kind.order.__name__}
    return words


def _strings(tree: ast.Module) -> list[ast.Constant]:
    """The string constants of ``tree`` but its docstrings."""
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def variant_uses(name: str, attributes: set[str], words: Collection[str] = ()) -> list[str]:
    """Where module ``name`` asks which variant it is adjudicating: imports a variant's module, reads a
    variant-specific attribute (one of ``attributes``) off anything, or writes one of the words of a
    variant's own kinds of order (one of ``words``: ``kw == "RES"``, a keyword table's ``"research"``)."""
    tree = _tree(name)
    out = [f"imports {m}" for m in sorted(set(imports(name).values()) & set(VARIANT_MODULES))]
    read: list[ast.expr] = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in attributes]
    read += [node for node in _strings(tree) if node.value in words]
    read.sort(key=lambda node: (node.lineno, node.col_offset, -(node.end_col_offset or 0)))
    return out + [f"line {node.lineno}: {ast.unparse(node)}" for node in read]


def test_the_variant_specific_attributes_are_found_from_the_data_modules() -> None:
    found = variant_specific_attributes()
    assert {"options", "cluster", "protect_order", "backup_rule", "any_carrier_disrupts", "site_levels"} <= found
    assert not found & {"order_kinds", "multiples", "provinces", "powers"}


def test_the_words_of_the_variants_order_kinds_are_found_from_their_modules() -> None:
    found = variant_order_words()
    assert {"RES", "research", "TRA", "mattermission", "NOM", "nominate", "nomination", "Nominate"} <= found
    assert not found & {"H", "S", "C", "P", "protect", "hold", "move"}  # (the classic orders, Coast-Running's protect)


@pytest.mark.parametrize("name", sorted(set(CORE) - VARIANT_DATA))
def test_no_core_module_asks_which_variant_it_is(name: str) -> None:
    """The map and adjudication ask a variant's hooks (adjutant.adjudication.hooks.rules_of) and read its
    data only where every variant has it."""
    assert variant_uses(name, variant_specific_attributes(), variant_order_words()) == [], f"{name} should ask a hook"


def test_the_variant_check_finds_a_planted_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the legality check as it was: Coast-Running's option read, and its rules imported lazily
    source = (
        "def may_protect(variant, unit):\n"
        "    from ..variants.coast_running import CoastRunning\n"
        "    return variant.options.protect_order and CoastRunning().may_carry(variant, unit)\n"
        "\n"
        "def levels(v):\n"
        "    return v.cluster.site_levels, v.multiples\n"
    )
    plant(tmp_path, monkeypatch, "adjutant.adjudication.asking", source)
    assert variant_uses("adjutant.adjudication.asking", variant_specific_attributes()) == [
        "imports adjutant.variants.coast_running",
        "line 3: variant.options.protect_order",
        "line 3: variant.options",
        "line 6: v.cluster.site_levels",
        "line 6: v.cluster",
    ]


def test_the_variant_check_finds_a_planted_order_word(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the parser as it was: Cluster's keywords in its table and its branches (a docstring may name them)
    source = (
        '"""Reads ``A Par RES``."""\n'
        'KEYWORDS = {"res": "RES", "hold": "H"}\n'
        "\n"
        "def read(kw, reader):\n"
        '    """A research, or a hold."""\n'
        '    return reader.research() if kw == "RES" else reader.hold()\n'
    )
    plant(tmp_path, monkeypatch, "adjutant.adjudication.asking", source)
    assert variant_uses("adjutant.adjudication.asking", set(), variant_order_words()) == [
        "line 2: 'res'",
        "line 2: 'RES'",
        "line 6: 'RES'",
    ]


DESIGN = ROOT / "docs" / "design.md"


def design_rows() -> dict[str, str]:
    """The rows of docs/design.md's table of modules: each row's text by the path it is about (the rows
    about one folder joined)."""
    rows: dict[str, str] = {}
    for line in DESIGN.read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if len(cells) > 3 and cells[1].strip().startswith("`"):
            path = cells[1].strip().strip("`")
            rows[path] = rows.get(path, "") + "|".join(cells[2:])
    return rows


def unnamed_modules(rows: dict[str, str]) -> list[str]:
    """The modules of ours (but the sub-packages' ``__init__``) that the row of their folder does not
    name (in backticks): the table names every module and, by its row, the layer it is in."""
    out = []
    for name, path in MODULES.items():
        folder = f"{path.parent.relative_to(ROOT).as_posix()}/"
        if path.parent == ROOT:  # (build.py: a row of its own)
            named = path.name in rows
        elif path.stem == "__init__" and name != "adjutant":  # a sub-package: its row says what it holds
            named = folder in rows
        else:
            named = f"`{path.stem}`" in rows.get(folder, "")
        if not named:
            out.append(name)
    return sorted(out)


def test_the_design_notes_name_every_module() -> None:
    assert unnamed_modules(design_rows()) == []


def test_the_module_check_finds_a_module_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = design_rows()
    rows["py/adjutant/variants/"] = rows["py/adjutant/variants/"].replace("`cluster_orders`", "Cluster's orders")
    monkeypatch.setitem(MODULES, "adjutant.formats.planted", ENGINE / "formats" / "planted.py")
    assert unnamed_modules(rows) == ["adjutant.formats.planted", "adjutant.variants.cluster_orders"]


def import_cycles(names: list[str]) -> list[list[str]]:
    """The import cycles among modules ``names`` (imports at any depth of their code, a function's too),
    each as the modules it runs through, back to the first."""
    graph = {name: sorted(set(imports(name).values()) & set(names)) for name in names}
    cycles: list[list[str]] = []
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = "open"
        path.append(name)
        for other in graph[name]:
            if state.get(other) == "open":
                cycles.append([*path[path.index(other) :], other])
            elif other not in state:
                visit(other)
        path.pop()
        state[name] = "done"

    for name in names:
        if name not in state:
            visit(name)
    return cycles


def test_no_import_cycle_among_the_engines_modules() -> None:
    assert import_cycles(ENGINE_MODULES) == []


def test_no_import_cycle_among_the_pages_modules() -> None:
    """The page's parts reach App through the protocols of adjutant_ui.page, not by importing it back."""
    assert import_cycles(UI_MODULES) == []


def test_the_cycle_check_finds_a_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a lazy import in a function is an import too: the group module that imported Cluster's group links
    path = tmp_path / "lower.py"
    path.write_text("def f():\n    from .upper import g\n    return g\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, "adjutant.lower", path)
    path = tmp_path / "upper.py"
    path.write_text("from . import lower\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, "adjutant.upper", path)
    cycle = ["adjutant.lower", "adjutant.upper", "adjutant.lower"]
    assert import_cycles(["adjutant.lower", "adjutant.upper"]) == [cycle]


def _defined(tree: ast.Module) -> set[str]:
    """The private names a module defines itself: functions, classes, attributes and fields."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # a name in __slots__
    return {n for n in names if n.startswith("_")}


def private_uses(name: str) -> list[str]:
    """Where module ``name`` uses a private name of another module: imports it, reads it off another
    module, or reads a private attribute its own code does not define off something not its own."""
    tree = _tree(name)
    own = _defined(tree)
    bound = imports(name)
    # (another package's module is its own business: the check is of our modules)
    elsewhere = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            elsewhere |= {(a.asname or a.name).split(".")[0] for a in node.names if not _ours(a.name)}
        elif isinstance(node, ast.ImportFrom) and not node.level and not _ours(node.module or ""):
            elsewhere |= {a.asname or a.name for a in node.names}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _absolute(name, node) in MODULES:
            out += [f"line {node.lineno}: imports {a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in NAMED_TUPLE_API:
            base = node.value
            if isinstance(base, ast.Name) and base.id in bound:
                out.append(f"line {node.lineno}: {base.id}.{node.attr}")
            elif not (isinstance(base, ast.Name) and base.id in ("self", "cls", *elsewhere)) and node.attr not in own:
                out.append(f"line {node.lineno}: {ast.unparse(node)}")
    return out


def _ours(module: str) -> bool:
    return module.split(".")[0] in {"adjutant", "adjutant_maps", "adjutant_ui", "build"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_uses_another_modules_private_names(name: str) -> None:
    assert private_uses(name) == []


def test_the_private_name_check_finds_a_private_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a module that reads the game's private rows and imports the codec's private helper
    source = "from adjutant.formats.link import _Digits\nfrom . import game\n\ndef f(g):\n"
    source += "    return g._checks, game._count\n"
    path = tmp_path / "reaching.py"
    path.write_text(source, encoding="utf-8")
    monkeypatch.setitem(MODULES, "adjutant.reaching", path)
    assert private_uses("adjutant.reaching") == [
        "line 1: imports _Digits",
        "line 5: g._checks",
        "line 5: game._count",
    ]


#: the test modules, by their names (pytest puts tests/ and tests/browser on the path: each is imported by
#: its name alone)
TEST_MODULES = {path.stem: path for path in sorted((ROOT / "tests").rglob("test_*.py"))}


def _test_module(name: str) -> bool:
    return name.split(".")[-1] in TEST_MODULES


def borrowed_names(path: Path) -> list[str]:
    """Where test module ``path`` imports another test module (a helper the tests share belongs in a helper
    module: tests/browser/app_driver.py, group_driver.py, ...) or a private name of ours: imports it from
    one of our modules, or reads it off one it imported (a private name is the module's own business; a test
    checks what it does through its public names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound = set()  # the names this test module binds to modules of ours
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _test_module(alias.name):
                    out.append(f"line {node.lineno}: imports {alias.name}")
                elif alias.name in MODULES:
                    bound.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            base = node.module or ""
            for alias in node.names:
                if _test_module(base) or _test_module(f"{base}.{alias.name}"):
                    out.append(f"line {node.lineno}: imports {alias.name} from {base}")
                elif f"{base}.{alias.name}" in MODULES:
                    bound.add(alias.asname or alias.name)
                elif base in MODULES and _private(alias.name):
                    out.append(f"line {node.lineno}: imports {alias.name} from {base}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in NAMED_TUPLE_API:
            owner = ast.unparse(node.value)
            if owner in bound or (owner in MODULES and owner.split(".")[0] in bound):
                out.append(f"line {node.lineno}: {owner}.{node.attr}")
    return sorted(set(out), key=lambda line: (int(line.split()[1].rstrip(":")), line))


@pytest.mark.parametrize("name", sorted(TEST_MODULES))
def test_no_test_imports_another_test_module_or_a_private_name(name: str) -> None:
    assert borrowed_names(TEST_MODULES[name]) == []


def test_the_test_import_check_finds_a_planted_test_module(tmp_path: Path) -> None:
    # a browser test borrowing another file's helpers, and the engine's link writer's private parts
    path = tmp_path / "test_planted.py"
    path.write_text(
        "import test_play\n"
        "import adjutant.formats.link\n"
        "from adjutant.group_play import cluster_links as cg, codes\n"
        "from test_group_game import listed_orders\n"
        "from tests.browser import test_csp\n"
        "from adjutant.formats.link import _Digits, encode_link\n"
        "\n"
        "def test_it(game):\n"
        "    cg._deflate(codes._unit_slots(game, 'france'))\n"
        "    return adjutant.formats.link._table(game.variant), game._checks, game.position._replace()\n",
        encoding="utf-8",
    )
    assert borrowed_names(path) == [
        "line 1: imports test_play",
        "line 4: imports listed_orders from test_group_game",
        "line 5: imports test_csp from tests.browser",
        "line 6: imports _Digits from adjutant.formats.link",
        "line 9: cg._deflate",
        "line 9: codes._unit_slots",
        "line 10: adjutant.formats.link._table",
    ]
