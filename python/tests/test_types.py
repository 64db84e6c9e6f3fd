"""The type stubs: ``_native.pyi`` names exactly what the native module has,
and ``mypy --strict`` passes on the installed package, the README's examples
and the benchmark script."""

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import igroteka
from conftest import REPO
from igroteka import _native

STUB = Path(_native.__file__).with_name("_native.pyi")


def public(names):
    return {n for n in names if not n.startswith("_")}


def stub_names():
    """The stub's public functions and classes, each class with its public
    members."""
    tree = ast.parse(STUB.read_text())
    functions, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            functions.add(node.name)
        elif isinstance(node, ast.ClassDef) and not any(
            isinstance(b, ast.Name) and b.id == "TypedDict" for b in node.bases
        ):
            classes[node.name] = public(n.name for n in node.body if isinstance(n, ast.FunctionDef))
    return functions, classes


def test_the_stub_names_what_the_module_has():
    functions, classes = stub_names()
    module = {n: getattr(_native, n) for n in public(dir(_native))}
    assert functions == {n for n, v in module.items() if callable(v) and not inspect.isclass(v)}
    assert set(classes) == {n for n, v in module.items() if inspect.isclass(v)}
    for name, members in classes.items():
        cls = getattr(_native, name)
        own = public(vars(cls)) if name != "IllegalActionError" else set()
        assert members == own, name


def test_the_package_is_typed():
    assert (Path(igroteka.__file__).parent / "py.typed").is_file()


def test_mypy_strict_passes_on_the_package_and_its_examples(tmp_path):
    pytest.importorskip("mypy")
    readme = (REPO / "python" / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert len(blocks) >= 3
    files = [str(REPO / "python" / "bench" / "playouts.py")]
    for i, block in enumerate(blocks):
        path = tmp_path / f"readme_example_{i}.py"
        path.write_text(block)
        files.append(str(path))
    # The package (as installed: its modules and stubs), then the examples
    # (mypy reports no errors of an imported package's modules).
    for targets in (["-p", "igroteka"], files):
        result = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
             "--config-file", str(REPO / "python" / "pyproject.toml"), *targets],
            cwd=tmp_path, capture_output=True, text=True,
        )
        assert result.returncode == 0, result.stdout + result.stderr
