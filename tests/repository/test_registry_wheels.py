"""test_registry_wheels.py: the wheels the site serves from PyPI are the pinned ones, with a simple index (#35).

What it is: CPython tests of site_scripts/hooks/registry_wheels.py: write_index puts each pinned wheel (its
sha256 the pinned one), a PEP 503 page linking it with that hash, and packages.json into a folder; a local copy
whose bytes differ from the pin is refused; and the runtime loads micropip only for a block that imports it.
What it is not: the browser's install (tests/site/test_micrograd.py).
"""
import ast
import hashlib
import json
import re
import subprocess
import threading
from pathlib import Path

import pytest

import registry_wheels
from tutor.runtime.packages import imports_micropip

LINK = re.compile(r'<a href="\.\./\.\./(?P<file>[^"#]+)#sha256=(?P<digest>[0-9a-f]{64})">(?P=file)</a>')


def test_the_index_serves_the_pinned_wheels(tmp_path):
    registry_wheels.write_index(tmp_path)
    for name, (version, digest) in registry_wheels.PINS.items():
        link = LINK.search((tmp_path / "simple" / name / "index.html").read_text())
        assert link["file"] == f"{name}-{version}-py3-none-any.whl" and link["digest"] == digest
        assert hashlib.sha256((tmp_path / link["file"]).read_bytes()).hexdigest() == digest
    assert json.loads((tmp_path / "packages.json").read_text()) == {"micropip": registry_wheels.wheel_name("micropip")}


def test_a_local_copy_that_is_not_the_pinned_wheel_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(registry_wheels, "CACHE", tmp_path)
    (tmp_path / registry_wheels.wheel_name("micrograd")).write_bytes(b"not the wheel")
    monkeypatch.setattr(registry_wheels, "REPO", tmp_path.parent)
    with pytest.raises(registry_wheels.WheelError, match="sha256 differs"):
        registry_wheels.wheel_path("micrograd")


@pytest.mark.parametrize("code, needs", [
    ('import micropip\nawait micropip.install("micrograd")', True),
    ("from micropip import install", True),
    ("import tinygrad\nprint('micropip')", False),
    ("from .micropip import x", False),
])
def test_micropip_is_loaded_only_for_a_block_that_imports_it(code, needs):
    assert imports_micropip(ast.parse(code)) is needs


def test_builds_downloading_one_wheel_at_once_each_put_a_whole_one_in_place(tmp_path, monkeypatch):
    """The tests build two sites side by side from a clean clone: both download the same wheel into the same cache
    (pip stood in for by a copy of the pinned bytes); neither may fail for the other's partial copy."""
    wheel = b"PK" + b"wheel bytes " * 50_000

    def pip(command, **_):
        folder = Path(command[command.index("-d") + 1])
        (folder / registry_wheels.wheel_name("micrograd")).write_bytes(wheel)
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(registry_wheels.subprocess, "run", pip)
    errors = []

    def build(path):
        try:
            registry_wheels.download("micrograd", path)
        except Exception as error:  # reported below
            errors.append(error)

    for attempt in range(5):
        path = tmp_path / str(attempt) / registry_wheels.wheel_name("micrograd")
        builds = [threading.Thread(target=build, args=(path,)) for _ in range(8)]
        for thread in builds:
            thread.start()
        for thread in builds:
            thread.join()
        assert errors == [] and path.read_bytes() == wheel
        assert sorted(file.name for file in path.parent.iterdir()) == [path.name]  # no partial copy left
