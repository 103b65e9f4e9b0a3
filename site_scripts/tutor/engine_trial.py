"""engine_trial.py: the lesson's own uses of an engine, tried on a reader's candidate before the site switches.

What it is: part of the engine check of "Edit the engine" (tutor.engine_edit.check). `first_failure(
candidate, uses_engine)` makes the candidate module the `tinygrad` every lesson module imports, for the time of
the trial only, and tries on it, once each, what the site will do with it:
- every figure model: its starting state (initial()) and then each of its controls (the other
  functions of its PAGE_CALLS) once, in PAGE_CALLS order, each with the state the one before
  returned and the arguments of CONTROL_ARGUMENTS (one training step, not a hundred); every state
  must also be JSON;
- the picture show() draws of a small loss;
- every exercise's checks: imported, and the names its solution imports from tinygrad looked for;
  then each exercise whose solution imports from tinygrad runs that solution, with every loop
  `for ... in range(N)` cut to LOOP_PASSES passes, and its checks on what the solution left: neither
  may raise (a check that answers "not yet" is fine: its numbers need the full loop, and a wrong
  derivative is the reader's experiment).
`figure_gradient_difference(name)`, for an engine already in use, compares the gradients of a figure's start with
central differences (engine_edit.figure_note says it on the figure).
It answers the first thing that fails, in words naming the figure and its control, show() or the
exercise, and Python's last line (which names what is missing, such as "cannot import name
'Neuron'"); when the engine's own code ran into Python's recursion limit, it names the engine's
function that calls itself and says to walk the graph with a list as a stack. "" when all of it
works. Then it puts back every module as it was: the engine in use and the lesson modules imported
with it (a figure model the page holds keeps its engine). While it runs, `trying` says what it tries
now, for the message of a check that was stopped (Stop the check, or its time limit).
What it is not: a test of the candidate's numbers (a wrong derivative is the reader's experiment), the
check of the names the blocks use (engine_edit.py does that first), nor a tour of everything: a
control is tried once with one argument (a field of a by-hand figure gets one entry, which is not the
right one, so the comparison with backward() after the last box is not reached), and the exercises
whose solutions never import tinygrad (the steps of "Build your own engine", which check the
reader's own Value; the by-hand ones) are only imported, since they do not use the engine.
"""
import ast
import collections
import contextlib
import importlib
import importlib.util
import inspect
import io
import json
import math
import pkgutil
import sys
import time
import traceback

ENGINE_MODULE = "tinygrad"
# What the trial is trying now, in words ("the figure "Fitting a line", its control step()"): what a
# check stopped in the middle (Stop the check, or its time limit) says it was doing.
trying = "nothing yet"
# When the trial's time is up, in Python's own work (time.process_time(), which a busy computer does not
# inflate as it does the time on the clock): checked between the things it tries. None: no limit.
deadline = None
CHANGING = ("trying", "deadline")  # this module's own state: the keeper (tutor.runtime.keeper) leaves it alone


class OutOfTime(Exception):
    """The trial used up its time (`deadline`) before it tried everything."""


def check_time():
    if deadline is not None and time.process_time() > deadline:
        raise OutOfTime(trying)
FIGURES, EXERCISES = "tutor.figures", "tutor.exercises"
# What the picture of show() is tried on: the lesson's first loss, L = (w·x + b − y)².
SHOWN_BLOCK = ("from tinygrad import Value\nw, x, b, y = Value(1), Value(2), Value(0), Value(5)\n"
               "loss = (w * x + b - y) ** 2\nloss.backward()\n")
# Passes of each loop `for ... in range(N)` in an exercise's solution during the trial.
LOOP_PASSES = 3


def open_box(state):
    """The key of the field a by-hand figure has open (backprop_by_hand: per graph; neuron_by_hand: one form)."""
    form = state["forms"][state["choice"]] if "forms" in state else state["form"]
    return next(row["key"] for row in form if row["open"])


# A value for each parameter without a default of a figure's controls, by name, as the page may send
# it; a function is given the figure's current state. Small on purpose: one step tries what a hundred would.
CONTROL_ARGUMENTS = {"parameters": 40, "learning_rate": 0.1, "count": 1, "loss_kind": "absolute", "w": 0.5,
                     "b": 0.5, "x": 1.5, "h_index": 1, "seed": 3, "hidden": 3, "choice": "paths", "text": "1", "number": 1,
                     "box": open_box}


def first_failure(candidate, uses_engine, until=None):
    """What the lesson cannot do with the module `candidate` as its engine, in words ("" if nothing).
    `uses_engine(name)` tells the lesson modules that may hold the engine (engine_edit.holds_engine):
    they are imported afresh for the trial and put back afterwards. OutOfTime when Python's own work
    (time.process_time()) passes `until` before the trial is done."""
    kept = {name: module for name, module in sys.modules.items() if name == ENGINE_MODULE or uses_engine(name)}
    for name in kept:
        del sys.modules[name]
    sys.modules[ENGINE_MODULE] = candidate
    global trying, deadline
    trying, deadline = "nothing yet", until
    try:
        return figures_failure(candidate) or show_failure(candidate) or exercises_failure(candidate)
    finally:
        deadline = None
        for name in [name for name in sys.modules if name == ENGINE_MODULE or uses_engine(name)]:
            del sys.modules[name]
        sys.modules.update(kept)
        for name, module in kept.items():  # a package's attribute for its module, as the import had set it
            parent, _, child = name.rpartition(".")
            if parent in sys.modules:
                setattr(sys.modules[parent], child, module)


def figures_failure(candidate=None):
    global trying
    for name, title in figure_models():
        function = "initial"
        try:
            trying = f'the figure "{title}" (its start)'
            model = importlib.import_module(f"{FIGURES}.{name}")
            state = None
            for function in calls(model):
                if function != "initial":
                    trying = f'the figure "{title}", its control {function}()'
                check_time()
                state = called(model, function, state)
                json.dumps(state, allow_nan=False)
        except (KeyboardInterrupt, OutOfTime):
            raise
        except BaseException as error:  # noqa: BLE001 - whatever stops the figure stops it for the reader
            if function == "initial":
                return f'the figure "{title}" cannot start with it:\n{described(error, candidate)}'
            return (f'the figure "{title}" starts with it, but its control {function}() fails:\n'
                    f"{described(error, candidate)}")
    return ""


def calls(model, rounds=1):
    """The functions of figure `model` a tour calls, in order: initial(), then each control once per round."""
    return ["initial", *model.PAGE_CALLS[1:] * rounds]


def called(model, function, state):
    """What figure `model`'s `function` returns for `state` (None for initial), the page's way: with the
    state and CONTROL_ARGUMENTS for every other parameter without a default."""
    target = getattr(model, function)
    arguments = {}
    for parameter in inspect.signature(target).parameters.values():
        if parameter.name == "state":
            arguments["state"] = state
        elif parameter.default is inspect.Parameter.empty:
            value = CONTROL_ARGUMENTS[parameter.name]
            arguments[parameter.name] = value(state) if callable(value) else value
    return target(**arguments)


# ---- A figure's own gradients against central differences ---------------------------------------------
# A figure's starting state is computed again with one leaf value (a Value made without edges, counted in
# the order the figure makes them) moved by ±H, and the output of each backward() it called is compared, as
# (f(leaf + H) − f(leaf − H)) / 2H, with the grad backward() left on that leaf. Up to GRADIENT_LEAVES leaves
# of each figure are tried, spread over the ones its backward() calls reach.
H = 1e-6
TOLERANCE = 1e-4
GRADIENT_LEAVES = 4
GRAPH_LIMIT = 50_000  # values walked from one output to find its leaves


def figure_gradient_difference(name):
    """Where the gradients figure `name` starts with (with the engine in use) differ from central differences,
    in words, or "" (also when the figure calls no backward(), or when moving a leaf changes what it computes)."""
    first = traced_start(name)
    leaves = sorted({leaf for _, grads in first for leaf in grads})
    step = max(1, len(leaves) // GRADIENT_LEAVES)
    for leaf in leaves[::step][:GRADIENT_LEAVES]:
        try:
            up, down = traced_start(name, (leaf, H)), traced_start(name, (leaf, -H))
        except Exception:  # noqa: BLE001 - a start that a moved number breaks says nothing about gradients
            continue
        if not len(up) == len(down) == len(first):
            continue
        for (_, grads), (above, _), (below, _) in zip(first, up, down):
            if leaf in grads:
                estimate = (above - below) / (2 * H)
                if not math.isclose(grads[leaf], estimate, rel_tol=TOLERANCE, abs_tol=TOLERANCE):
                    return (f"backward() gives a gradient of {grads[leaf]:.6g} for a value of this figure, and the "
                            f"central difference (f(x + h) − f(x − h)) / 2h with h = {H:g} gives {estimate:.6g}")
    return ""


def traced_start(name, shifted=None):
    """[(output, {leaf: its grad})] for each backward() the figure `name`'s initial() calls, its model imported
    afresh (the page's stays); `shifted` = (leaf, amount) moves that leaf's number when it is made."""
    value_class = importlib.import_module(ENGINE_MODULE).Value
    made, calls = {}, []
    original_init, original_backward = value_class.__init__, value_class.backward

    def init(self, *arguments, **keywords):
        original_init(self, *arguments, **keywords)
        if not tuple(self.edges):
            made[id(self)] = (len(made), self)  # the value is kept, so its id is not reused
            if shifted is not None and made[id(self)][0] == shifted[0]:
                self.data = self.data + shifted[1]

    def backward(self, *arguments, **keywords):
        original_backward(self, *arguments, **keywords)
        grads, stack, seen = {}, [self], set()
        while stack and len(seen) < GRAPH_LIMIT:
            node = stack.pop()
            if id(node) not in seen:
                seen.add(id(node))
                stack.extend(parent for parent, _ in node.edges)
                if id(node) in made:
                    grads[made[id(node)][0]] = float(node.grad)
        calls.append((float(self.data), grads))

    module_name = f"{FIGURES}.{name}"
    kept = sys.modules.pop(module_name, None)
    value_class.__init__, value_class.backward = init, backward
    try:
        importlib.import_module(module_name).initial()
    finally:
        value_class.__init__, value_class.backward = original_init, original_backward
        sys.modules.pop(module_name, None)
        if kept is not None:
            sys.modules[module_name] = kept
            setattr(sys.modules[FIGURES], name, kept)
    return calls


def show_failure(candidate=None):
    global trying
    trying = "show() on a small loss"
    namespace = {"__name__": "__main__"}
    try:
        exec(compile(SHOWN_BLOCK, "<show() tried on your engine>", "exec"), namespace)  # noqa: S102 - the lesson's own block
        picture = importlib.import_module(f"{FIGURES}.expression_graph").picture(namespace["loss"], namespace)
        json.dumps(picture, allow_nan=False)
    except (KeyboardInterrupt, OutOfTime):
        raise
    except BaseException as error:  # noqa: BLE001
        return ("show() cannot draw the graph of a loss made with it, L = (w * x + b - y) ** 2:\n"
                f"{described(error, candidate)}")
    return ""


def exercises_failure(candidate):
    global trying
    package = importlib.import_module(EXERCISES)
    for module in pkgutil.iter_modules(package.__path__):
        trying = f"the checks of the exercise {module.name}"
        check_time()
        try:
            exercise = importlib.import_module(f"{EXERCISES}.{module.name}")
        except (KeyboardInterrupt, OutOfTime):
            raise
        except BaseException as error:  # noqa: BLE001
            return (f"the checks of the exercise {module.name} cannot start with it:\n"
                    f"{described(error, candidate)}")
        solution = getattr(exercise, "SOLUTION", "")
        imported = imported_from_engine(solution)
        missing = [name for name in imported if not hasattr(candidate, name)]
        if missing:
            return (f"the exercise {module.name} imports {', '.join(missing)} from tinygrad, which your engine "
                    "does not define")
        if imported:
            failure = solution_failure(module.name, exercise, solution, candidate)
            if failure:
                return failure
    return ""


def solution_failure(name, exercise, solution, candidate):
    """What stops the exercise `name`'s solution, or its checks on what the solution left, with the
    candidate, in words ("" if nothing): the solution runs with its loops cut to LOOP_PASSES passes,
    and a check may answer "not yet" but not raise."""
    global trying
    trying = f"the solution of the exercise {name}"
    namespace = {"__name__": "__main__"}
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            exec(compile(shortened(solution), f"<the solution of {name}>", "exec"), namespace)  # noqa: S102 - the lesson's own solution
    except (KeyboardInterrupt, OutOfTime):
        raise
    except BaseException as error:  # noqa: BLE001
        return f"the solution of the exercise {name} fails with it:\n{described(error, candidate)}"
    trying = f"the checks of the exercise {name}"
    try:
        with exercise_errors_raised():
            exercise.check(namespace)
    except (KeyboardInterrupt, OutOfTime):
        raise
    except BaseException as error:  # noqa: BLE001
        return f"the checks of the exercise {name} cannot judge its solution with it:\n{described(error, candidate)}"
    return ""


def exercise_errors_raised():
    """The exercises' own switch (tutor.exercises.errors_raised): within it a check's error is raised,
    not turned into a result."""
    return importlib.import_module(EXERCISES).errors_raised()


def shortened(code):
    """`code` with every loop `for ... in range(N)`, N a number above LOOP_PASSES, cut to LOOP_PASSES passes."""
    tree = ast.parse(code)
    for node in ast.walk(tree):
        if (isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and getattr(node.iter.func, "id", None) == "range"
                and len(node.iter.args) == 1 and isinstance(node.iter.args[0], ast.Constant)
                and type(node.iter.args[0].value) is int and node.iter.args[0].value > LOOP_PASSES):
            node.iter.args[0].value = LOOP_PASSES
    return tree


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


def described(error, candidate=None):
    """Python's last line of the error ("AttributeError: 'MLP' object has ..."), or, for a recursion in
    the candidate's own code, which of its functions calls itself and what to do instead."""
    recursive = recursive_function(error, getattr(candidate, "__file__", None))
    if recursive is None:
        return last_line(error)
    outer, _, inner = recursive.partition(".<locals>.")
    who = f"`{outer}` in your engine" + (f" (its inner function `{inner.split('.<locals>.')[-1]}`)" if inner else "")
    return (f"RecursionError: {who} calls itself once per level of the graph, and this graph has more levels "
            "than Python allows nested calls. Walk the graph with an explicit stack instead, a list you append the "
            "values still to visit to and pop the next one from, as the lesson's topological_order does.")


def recursive_function(error, filename):
    """The qualified name of the function of file `filename` that called itself until `error`, a
    RecursionError, stopped it ("Value.topological_order.<locals>.visit"), or None."""
    if not isinstance(error, RecursionError) or filename is None:
        return None
    names = collections.Counter(frame.f_code.co_qualname for frame, _ in traceback.walk_tb(error.__traceback__)
                                if frame.f_code.co_filename == filename)
    repeated = [name for name, count in names.most_common(1) if count > 1]
    return repeated[0] if repeated else None


def last_line(error):
    """Python's last line of the error, which names what is missing ("AttributeError: 'MLP' object has ...")."""
    return "".join(traceback.format_exception_only(error)).strip()
