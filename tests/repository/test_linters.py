"""test_linters.py: ruff (Python) and ESLint (JavaScript) find nothing in the repository.

What it is: each linter run as a maintainer would, from the repository root, with the settings the
repository holds (pyproject.toml's [tool.ruff], eslint.config.mjs) and the versions it pins
(requirements-dev.txt, package.json); a finding fails the test, listed in the linter's own words.
What it is not: a formatter's check, nor a place for exceptions: a finding is fixed in the code, or
silenced on its line with a `# noqa` that names the rule and says why.
"""
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINTERS = {"ruff": [".venv/bin/ruff", "check", "--no-cache", "."], "eslint": ["node_modules/.bin/eslint", "."]}


@pytest.mark.parametrize("linter", LINTERS)
def test_the_linter_finds_nothing(linter):
    command = LINTERS[linter]
    assert (REPO / command[0]).exists(), f"{command[0]} is missing: ./dev.sh test installs it"
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(command)} found:\n{result.stdout}{result.stderr}"


def test_ruff_reads_every_python_file_of_the_repository_and_none_of_a_build():
    """An exclusion that matches more than meant ("site" once matched tests/site/ too) hides whole folders."""
    listed = subprocess.run(LINTERS["ruff"][:2] + ["--show-files", "--no-cache", "."], cwd=REPO, capture_output=True,
                            text=True, timeout=300).stdout
    checked = {Path(line).resolve().relative_to(REPO).as_posix() for line in listed.splitlines() if line.endswith(".py")}
    tracked = subprocess.run(["git", "ls-files", "*.py"], cwd=REPO, capture_output=True, text=True).stdout.split()
    assert sorted(set(tracked) - checked) == []
    assert [path for path in checked if path.startswith(("site/", "build/"))] == []
