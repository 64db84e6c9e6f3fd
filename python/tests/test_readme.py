"""The README's Python examples run as written (in one namespace, in order)."""

import re

import pytest

from conftest import REPO

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

README = (REPO / "python" / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_readme_examples_run():
    assert len(BLOCKS) >= 3
    namespace = {}
    for block in BLOCKS:
        exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102
    assert namespace["state"].is_terminal()
