"""The lesson's exercises: one module per exercise, with its hidden checks, hints and solution.

What it is: each module `<name>.py` here (installed in the browser as `tutor.exercises.<name>`)
defines HINTS (short texts, revealed one at a time; `code` in backquotes), SOLUTION (a complete
version of the exercise's block) and `check(namespace)`, which returns one plain result per check:
{"check": what was checked, "passed": bool, "message": what was expected and what was found}.
A check is a function that returns when the reader's code does what it should and raises NotYet
with a message when it does not; run_checks turns both, and any error the reader's code raises
during a check, into results (within `errors_raised()`, which the engine check's trial uses, such an
error is raised instead: tutor.engine_trial). The page's "Check" button runs the exercise's block and then calls
`results(name, namespace)` with the page's namespace (runtime.call, through tutor.runtime.page_calls),
and renders the list it returns.
The starter code of each exercise is the ```runnable fence with `exercise="<name>"` in docs/.

What it is not: the page's part (site_scripts/browser/exercises/exercises.mjs draws buttons and results)
or the build's (site_scripts/hooks/runnable_fence.py writes hints and solution into the page).
The checks import the engine when they run, never at import time, so a module always checks
against the engine the page's blocks use.
"""
import contextlib
import contextvars
import importlib
import io

PAGE_CALLS = ("results",)  # what the page may call (tutor.runtime.page_calls)
RAISING = contextvars.ContextVar("RAISING", default=False)  # errors_raised() is in effect


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


def run_checks(namespace, checks):
    """Run every check on the reader's namespace; return their results, in order.
    What the reader's code prints during a check is dropped, so only the results reach the page."""
    results = []
    for check in checks:
        description = check.__doc__.strip().splitlines()[0]
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                check(namespace)
        except NotYet as problem:
            results.append({"check": description, "passed": False, "message": str(problem)})
        except Exception as error:  # the reader's code failed while being checked
            if RAISING.get():
                raise
            results.append({"check": description, "passed": False,
                            "message": f"Your code raised {type(error).__name__}: {error}"})
        else:
            results.append({"check": description, "passed": True, "message": ""})
    return results


@contextlib.contextmanager
def errors_raised():
    """Within it, run_checks raises an error a check runs into instead of making it a result."""
    token = RAISING.set(True)
    try:
        yield
    finally:
        RAISING.reset(token)


def results(name, namespace):
    """The results of exercise `name`'s checks on the page's `namespace`, one plain dict per check."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"there is no exercise named {name!r}")
    try:
        exercise = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise ValueError(f"there is no exercise named {name!r}") from None
    return exercise.check(namespace)
