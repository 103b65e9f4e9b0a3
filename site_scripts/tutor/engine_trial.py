"""engine_trial.py: the lesson's own uses of an engine, tried on a reader's candidate before the site switches.

What it is: part of the engine check of "Edit the engine" (tutor.engine_edit.check). `first_failure(
candidate)` makes the candidate module the `tinygrad` every lesson module imports, for the time of
the trial only, and tries what the site will do with it: every figure model's starting state
(initial(), which must also be JSON), the picture show() draws of a small loss, and the import of
every exercise's checks and of what each exercise's solution imports from tinygrad. It answers the
first thing that fails, in words naming the figure, show() or the exercise and Python's last line
(which names what is missing, such as "cannot import name 'Neuron'"), or "" when all of it works.
Then it puts back every module as it was: the engine in use and the lesson modules imported with it
(a figure model the page holds keeps its engine).
What it is not: a test of the candidate's numbers (a wrong derivative is the reader's experiment) nor
the check of the names the blocks use (engine_edit.py does that first).
"""
import ast
import importlib
import importlib.util
import json
import pkgutil
import sys
import traceback

ENGINE_MODULE = "tinygrad"
FIGURES, EXERCISES = "tutor.figures", "tutor.exercises"
# What the picture of show() is tried on: the lesson's first loss, L = (w·x + b − y)².
SHOWN_BLOCK = ("from tinygrad import Value\nw, x, b, y = Value(1), Value(2), Value(0), Value(5)\n"
               "loss = (w * x + b - y) ** 2\nloss.backward()\n")


def first_failure(candidate, uses_engine):
    """What the lesson cannot do with the module `candidate` as its engine, in words ("" if nothing).
    `uses_engine(name)` tells the lesson modules that may hold the engine (engine_edit.holds_engine):
    they are imported afresh for the trial and put back afterwards."""
    kept = {name: module for name, module in sys.modules.items() if name == ENGINE_MODULE or uses_engine(name)}
    for name in kept:
        del sys.modules[name]
    sys.modules[ENGINE_MODULE] = candidate
    try:
        return figures_failure() or show_failure() or exercises_failure(candidate)
    finally:
        for name in [name for name in sys.modules if name == ENGINE_MODULE or uses_engine(name)]:
            del sys.modules[name]
        sys.modules.update(kept)
        for name, module in kept.items():  # a package's attribute for its module, as the import had set it
            parent, _, child = name.rpartition(".")
            if parent in sys.modules:
                setattr(sys.modules[parent], child, module)


def figures_failure():
    for name, title in figure_models():
        try:
            json.dumps(importlib.import_module(f"{FIGURES}.{name}").initial(), allow_nan=False)
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # noqa: B036 - whatever stops the figure stops it for the reader
            return f'the figure "{title}" cannot start with it:\n{last_line(error)}'
    return ""


def show_failure():
    namespace = {"__name__": "__main__"}
    try:
        exec(compile(SHOWN_BLOCK, "<show() tried on your engine>", "exec"), namespace)
        picture = importlib.import_module(f"{FIGURES}.expression_graph").picture(namespace["loss"], namespace)
        json.dumps(picture, allow_nan=False)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: B036
        return ("show() cannot draw the graph of a loss made with it, L = (w * x + b - y) ** 2:\n"
                f"{last_line(error)}")
    return ""


def exercises_failure(candidate):
    package = importlib.import_module(EXERCISES)
    for module in pkgutil.iter_modules(package.__path__):
        try:
            exercise = importlib.import_module(f"{EXERCISES}.{module.name}")
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # noqa: B036
            return f"the checks of the exercise {module.name} cannot start with it:\n{last_line(error)}"
        missing = [name for name in imported_from_engine(getattr(exercise, "SOLUTION", ""))
                   if not hasattr(candidate, name)]
        if missing:
            return (f"the exercise {module.name} imports {', '.join(missing)} from tinygrad, which your engine "
                    "does not define")
    return ""


def figure_models():
    """(name, title) of every figure model: the modules of tutor.figures whose source declares TITLE."""
    package = importlib.import_module(FIGURES)
    found = []
    for module in pkgutil.iter_modules(package.__path__):
        title = declared_title(importlib.util.find_spec(f"{FIGURES}.{module.name}").origin)
        if title is not None:
            found.append((module.name, title))
    return found


def declared_title(path):
    """The TITLE a module's source assigns at its top level (read, not run), or None."""
    with open(path, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and any(getattr(target, "id", None) == "TITLE"
                                                     for target in statement.targets):
            return ast.literal_eval(statement.value)
    return None


def imported_from_engine(code):
    """The names `code` imports from tinygrad (`from tinygrad import A, B`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    return [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == ENGINE_MODULE
            for alias in node.names]


def last_line(error):
    """Python's last line of the error, which names what is missing ("AttributeError: 'MLP' object has ...")."""
    return "".join(traceback.format_exception_only(error)).strip()
