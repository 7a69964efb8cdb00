"""The warnings tests issue reach pytest-xdist's controller: it finds a worker's warning class again by
the name of the class's module, so every warning class of the tests is in a module directly in tests/
(which is on the controller's path), none in a conftest (the controller's "conftest" is tests/conftest.py)
or in tests/browser/ (not on its path). A class the controller cannot find ends the whole run."""

import ast
import importlib
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def warning_classes() -> list[tuple[Path, str]]:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and base.id.endswith("Warning") for base in node.bases
            ):
                found.append((path, node.name))
    return found


def test_every_warning_class_of_the_tests_is_where_the_controller_finds_it() -> None:
    classes = warning_classes()
    assert classes, "the browser tests' warnings are found"
    for path, name in classes:
        assert path.parent == TESTS and path.stem != "conftest", f"{name} is defined in {path.relative_to(TESTS)}"
        module = importlib.import_module(path.stem)
        assert isinstance(getattr(module, name), type), f"{path.stem}.{name} cannot be imported by its name"
