"""tutor_sources.py: what the build hooks read from the browser's Python (site_scripts/tutor/) without
importing it.

What it is: the one place that knows where the figure models and the exercises live and how to read
a module's plain constants (TITLE, HINTS, SOLUTION) with `ast`; a SOLUTION written
`from_engine(<text>)` quotes the engine's sections, through tutor/engine_sections.py itself. A figure is a model in
tutor/figures/ that declares a TITLE, with its view `<name>.mjs` beside it; the list of figures is
those files, so the build, the views' loader and the tests share one source.
What it is not: a way to run that code. The figures' starting states are computed by figures.py in
a child CPython; nothing here executes the modules it reads.
"""
import ast
import importlib.util
from pathlib import Path

TUTOR = Path(__file__).resolve().parents[1] / "tutor"
FIGURE_MODELS = TUTOR / "figures"
EXERCISES = TUTOR / "exercises"


def engine_sections():
    """The module tutor/engine_sections.py (standard library only), loaded from its file."""
    spec = importlib.util.spec_from_file_location("engine_sections", TUTOR / "engine_sections.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def module_constants(path):
    """{name: value} of the module-level `NAME = <literal>` (or `from_engine(<literal>)`) assignments of `path`.
    Raises OSError when the file cannot be read; values that are not plain literals are left out."""
    constants = {}
    for statement in ast.parse(Path(path).read_text(encoding="utf-8")).body:
        if not isinstance(statement, ast.Assign):
            continue
        quoted = statement.value
        is_quote = isinstance(quoted, ast.Call) and getattr(quoted.func, "id", "") == "from_engine" and len(quoted.args) == 1
        try:
            value = ast.literal_eval(quoted.args[0] if is_quote else quoted)
        except ValueError:
            continue
        if is_quote:
            value = engine_sections().from_engine(value)
        constants.update({target.id: value for target in statement.targets if isinstance(target, ast.Name)})
    return constants


def figure_names():
    """The figures, in name order: the models in tutor/figures/ that declare a TITLE."""
    return tuple(sorted(path.stem for path in FIGURE_MODELS.glob("[!_]*.py")
                        if "TITLE" in module_constants(path)))
