"""docs_data.py: the YAML data files in docs/ that the hooks read, and keeping them out of the built site.

What it is: `read_yaml(source, failure)` parses one such file (docs/numbers.yml for lesson_numbers.py,
docs/predictions.yml for prediction_answers.py, docs/teachers-questions.yml for teachers_page.py) and
raises failure("cannot read <file>: <why>") when it cannot be read or is not YAML; `kept_out(files,
name)` removes the file `name` from MkDocs' files, so it is read by the hooks but never copied into
the site. Each hook checks the shape of its own file.
What it is not: a hook (MkDocs loads only the hooks mkdocs.yml lists; they import this module from
the hooks' folder, which is on sys.path while MkDocs loads a hook, in the tests and as a script).
"""
from pathlib import Path

import yaml


def read_yaml(source, failure):
    """The parsed YAML of the file `source`; `failure(message)`, an exception, is raised if it cannot be read."""
    try:
        return yaml.safe_load(Path(source).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as problem:
        raise failure(f"cannot read {source}: {problem}") from None


def kept_out(files, name):
    """MkDocs' `files` without the docs_dir file `name` (a data file, not a page or an asset)."""
    found = files.get_file_from_path(name)
    if found is not None:
        files.remove(found)
    return files
