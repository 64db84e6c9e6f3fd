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


def expected_outputs(block):
    """Each ``print(...)`` line of a block and the output its ``# -> ``
    comment gives (on the line or the next), if any."""
    lines = block.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("print("):
            continue
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if "# -> " in line:
            yield line, line.split("# -> ", 1)[1]
        elif following.startswith("# -> "):
            yield line, following[len("# -> "):]
        else:
            yield line, None


def test_the_quick_start_prints_what_it_says():
    printed = []
    namespace = {"print": lambda *args: printed.append(" ".join(str(a) for a in args))}
    exec(compile(BLOCKS[0], "README.md", "exec"), namespace)  # noqa: S102
    expected = list(expected_outputs(BLOCKS[0]))
    assert len(printed) == len(expected)
    assert sum(output is not None for _, output in expected) >= 5
    for (line, output), got in zip(expected, printed):
        if output is not None:
            assert got == output, line


def test_the_shape_table_is_the_specs():
    table = README.split("| game | shape |", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| ([\w, ]+) \| `(\([\d, ]+\))` \|$", table, flags=re.M)
    import igroteka

    assert {game for names, _ in rows for game in names.split(", ")} == {g.name for g in igroteka.games()}
    for names, shape in rows:
        for game in names.split(", "):
            assert str(igroteka.spec(game).observation_shape) == shape, game
