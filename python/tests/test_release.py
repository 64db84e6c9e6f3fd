"""The publishable artefacts, as ``python/test.sh`` makes them: the sdist and
the wheel built from it (``maturin build --release --sdist``), in the folder
``IGROTEKA_DIST`` names; the tests run from that wheel, installed in a fresh
virtualenv with no Rust on ``PATH``.

Skipped when ``IGROTEKA_DIST`` is not set (pytest run by hand in a
development virtualenv); ``python/test.sh`` always sets it.
"""

import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import igroteka
from conftest import REPO

DIST = os.environ.get("IGROTEKA_DIST")
pytestmark = pytest.mark.skipif(not DIST, reason="IGROTEKA_DIST not set (python/test.sh sets it)")

VERSION = "0.2.0"
LICENCES = ("LICENSE-MIT", "LICENSE-APACHE")
X86_64 = platform.machine() in ("x86_64", "AMD64")


def one(pattern):
    found = sorted(Path(DIST).glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


@pytest.fixture(scope="module")
def wheel():
    return one("igroteka-*.whl")


@pytest.fixture(scope="module")
def sdist():
    return one("igroteka-*.tar.gz")


def test_the_wheel_is_one_abi3_wheel_pypi_takes(wheel):
    name, version, python, abi, platforms = wheel.name[: -len(".whl")].split("-")
    assert (name, version, python, abi) == ("igroteka", VERSION, "cp39", "abi3")
    if sys.platform == "linux":
        # PyPI refuses `linux_*`; maturin names the oldest manylinux the
        # module's symbols allow.
        assert all(re.fullmatch(r"manylinux_\d+_\d+_\w+|manylinux\d+_\w+", p) for p in platforms.split(".")), platforms


def test_the_wheel_has_the_licences_stubs_and_py_typed(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        dist_info = f"igroteka-{VERSION}.dist-info"
        for licence in LICENCES:
            assert archive.read(f"{dist_info}/licenses/{licence}") == (REPO / licence).read_bytes()
        metadata = archive.read(f"{dist_info}/METADATA").decode()
    assert "License-Expression: MIT OR Apache-2.0" in metadata.splitlines()
    for licence in LICENCES:
        assert f"License-File: {licence}" in metadata.splitlines()
    assert {"igroteka/_native.pyi", "igroteka/py.typed", "igroteka/__init__.py"} <= names
    assert any(re.fullmatch(r"igroteka/_native\.(abi3\.so|pyd)", n) for n in names), names


def test_the_sdist_has_the_licences_and_the_cpu_flags(sdist):
    with tarfile.open(sdist) as archive:
        members = {m.name.split("/", 1)[1]: m for m in archive.getmembers() if "/" in m.name}
        for licence in LICENCES:
            member = members[licence]
            assert member.isfile(), licence
            assert archive.extractfile(member).read() == (REPO / licence).read_bytes()
        pyproject = archive.extractfile(members["pyproject.toml"]).read().decode()
    assert "target-cpu=x86-64-v2" in pyproject
    assert any(name.endswith("_native.pyi") for name in members)


@pytest.mark.skipif(not X86_64, reason="x86-64 only")
def test_the_wheel_built_from_the_sdist_uses_popcnt(wheel, tmp_path):
    # The wheel comes from the sdist, so this is the sdist's CPU target.
    with zipfile.ZipFile(wheel) as archive:
        module = next(n for n in archive.namelist() if n.startswith("igroteka/_native."))
        path = Path(archive.extract(module, tmp_path))
    disassembly = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", str(path)], check=True, capture_output=True, text=True
    ).stdout
    count = sum(1 for line in disassembly.splitlines() if "\tpopcnt " in line)
    print(f"popcnt instructions in {module}: {count}")
    assert count > 0


def test_the_package_is_the_installed_wheel_without_rust():
    assert shutil.which("cargo") is None and shutil.which("rustc") is None
    site = Path(sysconfig.get_paths()["platlib"]).resolve()
    assert Path(igroteka.__file__).resolve().is_relative_to(site)
    assert Path(igroteka._native.__file__).resolve().parent == site / "igroteka"
    assert (site / "igroteka" / "py.typed").is_file()
