"""The lesson's exercises: one module per exercise, with its hidden checks, hints and solution.

What it is: each module `<name>.py` here (installed in the browser as `tutor.exercises.<name>`)
defines HINTS (short texts, revealed one at a time; `code` in backquotes), SOLUTION (a complete
version of the exercise's block) and `check(namespace)`, which returns one plain result per check:
{"check": what was checked, "passed": bool, "message": what was expected and what was found}.
A check is a function that returns when the reader's code does what it should and raises NotYet
with a message when it does not; run_checks turns both, and any error the reader's code raises
during a check, into results (within `errors_raised()`, which the engine check's trial uses, such an
error is raised instead: tutor.engine_trial). A check marked @needs(other, ...) waits, without a
verdict of its own, until those pass, so that one mistake gets one message and none points elsewhere.
run_again(namespace, x=3.0) runs the exercise's block once more with other numbers, so that a number
typed in instead of computed does not pass. The page's "Check" button runs the exercise's block and
then calls `results(name, namespace, code)` with the page's namespace and the block's code
(runtime.call, through tutor.runtime.page_calls), and renders the list it returns.
The starter code of each exercise is the ```runnable fence with `exercise="<name>"` in docs/.

What it is not: the page's part (site_scripts/browser/exercises/exercises.mjs draws buttons and results)
or the build's (site_scripts/hooks/runnable_fence.py writes hints and solution into the page).
The checks import the engine when they run, never at import time, so a module always checks
against the engine the page's blocks use.
"""
import ast
import contextlib
import contextvars
import importlib
import io

PAGE_CALLS = ("results",)  # what the page may call (tutor.runtime.page_calls)
RAISING = contextvars.ContextVar("RAISING", default=False)  # errors_raised() is in effect
BLOCK_CODE = contextvars.ContextVar("BLOCK_CODE", default="")  # the exercise block's code as it ran
WAITING = "Not checked yet"  # how a check that waits for another one begins its message


class NotYet(Exception):
    """A check that failed; its message tells the reader what was expected and what was found."""


def engine():
    """The engine module the page's blocks import right now."""
    return importlib.import_module("tinygrad")


def defined(namespace, name, kind="a value"):
    """namespace[name], or NotYet saying that the exercise needs that name defined."""
    if name not in namespace:
        raise NotYet(f"Expected {kind} named `{name}`, but your code does not define it.")
    return namespace[name]


def number(namespace, name):
    """namespace[name] as a float, or NotYet when it is missing or not a plain number."""
    found = defined(namespace, name, "a number")
    if isinstance(found, bool) or not isinstance(found, (int, float)):
        raise NotYet(f"`{name}` should be a plain number, but it is {found!r}.")
    return float(found)


def close(found, expected, tolerance=1e-6):
    """True when `found` is a number within `tolerance` of `expected` (relative for large numbers)."""
    try:
        return abs(float(found) - expected) <= tolerance * max(1.0, abs(expected))
    except (TypeError, ValueError, OverflowError):
        return False


def run_checks(namespace, checks, in_turn=False, waits_for=None):
    """Run every check on the reader's namespace; return their results, in order. With `in_turn`, every check
    waits for the first that failed; with `waits_for` (a check's description), every check waits for it.
    What the reader's code prints during a check is dropped, so only the results reach the page."""
    results, failed = [], {}
    for check in checks:
        description = check.__doc__.strip().splitlines()[0]
        waiting = waits_for or next((failed[needed] for needed in getattr(check, "needs", ()) if needed in failed),
                                    None)
        if in_turn and failed and waiting is None:
            waiting = next(iter(failed.values()))
        if waiting is not None:
            failed[check] = waiting
            results.append({"check": description, "passed": False,
                            "message": f"{WAITING}: it waits for “{waiting}” to pass first."})
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                check(namespace)
        except NotYet as problem:
            failed[check] = description
            results.append({"check": description, "passed": False, "message": str(problem)})
        except Exception as error:  # the reader's code failed while being checked
            if RAISING.get():
                raise
            failed[check] = description
            results.append({"check": description, "passed": False,
                            "message": f"Your code raised {type(error).__name__}: {error}"})
        else:
            results.append({"check": description, "passed": True, "message": ""})
    return results


def needs(*checks):
    """Mark a check that only makes sense once `checks` (earlier in the same list) pass."""
    def mark(check):
        check.needs = checks
        return check
    return mark


def checked_again(namespace, name, check_at, source, **numbers):
    """check_at on the reader's block, then on the block run again with `numbers`: a number typed in for `name`
    stays the same there and is named (`source` says what to compute it from)."""
    check_at(namespace)
    again = run_again(namespace, **numbers)
    told = ", ".join(f"{key} = {value!r}" for key, value in numbers.items())
    if number(again, name) == number(namespace, name):
        raise NotYet(f"`{name}` stays {number(namespace, name)!r} when the checks run your block again with "
                     f"{told}: compute it from {source}, not as a number typed in.")
    try:
        check_at(again)
    except NotYet as problem:
        raise NotYet(f"Your block, run again with {told}: {problem}") from None


def run_again(namespace, **numbers):
    """A copy of `namespace` in which the exercise's block ran once more, with each top-level line that sets one of
    `numbers` to a literal (`x = 2.0`, `x, y = 3.0, 10.0`, `points = [(0, 1), ...]`) setting it to the value given."""
    code = BLOCK_CODE.get()
    if not code:
        raise NotYet("The checks need your block's code to run it again with other numbers, but it did not reach "
                     "them: press Check again.")
    try:
        tree = ast.parse(code)
    except SyntaxError as error:
        raise NotYet(f"Your block could not be read again: {error}.") from None
    missing = set(numbers)
    for statement in tree.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, value = statement.targets[0], statement.value
        pairs = [(target, value)]
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            pairs = list(zip(target.elts, value.elts))
        for index, (name, literal) in enumerate(pairs):
            if isinstance(name, ast.Name) and name.id in numbers and is_literal(literal):
                replaced = ast.parse(repr(numbers[name.id]), mode="eval").body
                if len(pairs) == 1:
                    statement.value = replaced
                else:
                    value.elts[index] = replaced
                missing.discard(name.id)
    ast.fix_missing_locations(tree)
    if missing:
        names = " and ".join(f"`{name}`" for name in sorted(missing))
        raise NotYet(f"Keep the line that sets {names} as the exercise's code does: the checks change it to try "
                     "your code with other numbers.")
    again = dict(namespace)
    told = ", ".join(f"{name} = {number!r}" for name, number in numbers.items())
    try:
        exec(compile(tree, "<your block, run again>", "exec"), again)  # noqa: S102 - the check re-runs the reader's own block
    except Exception as error:  # noqa: BLE001 - the reader's code, at other numbers
        raise NotYet(f"Your block, run again with {told}, raised {type(error).__name__}: {error}.") from None
    return again


def is_literal(node):
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return False
    return True


@contextlib.contextmanager
def errors_raised():
    """Within it, run_checks raises an error a check runs into instead of making it a result."""
    token = RAISING.set(True)
    try:
        yield
    finally:
        RAISING.reset(token)


def results(name, namespace, code=""):
    """The results of exercise `name`'s checks on the page's `namespace`, one plain dict per check; `code` is
    the exercise block's code as it ran (run_again runs it once more at other numbers)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"there is no exercise named {name!r}")
    try:
        exercise = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise ValueError(f"there is no exercise named {name!r}") from None
    if not isinstance(code, str):
        raise TypeError("the block's code must be text")
    token = BLOCK_CODE.set(code)
    try:
        return exercise.check(namespace)
    finally:
        BLOCK_CODE.reset(token)
