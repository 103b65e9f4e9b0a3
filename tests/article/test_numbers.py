"""The lesson's numbers and derivative formulas, recomputed with the engine.

What it is: every entry of docs/numbers.yml (the one place the pages take their numbers and formulas
from, through site_scripts/hooks/lesson_numbers.py) checked against engine/tinygrad.py: numbers by
value, formulas by reading their LaTeX with SymPy and comparing with the engine at sample points.
Also: every entry is used by some page, so no stale number lingers.
What it is not: a test of the build (test_build.py) or of the pages in a browser (tests/site).
"""
import ast
import math
from pathlib import Path

import pytest
from sympy import lambdify
from sympy.parsing.sympy_parser import (convert_xor, function_exponentiation, implicit_multiplication,
                                        parse_expr, standard_transformations)

from site_scripts.hooks import lesson_numbers as hook

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


DOCUMENT = hook.read_numbers_file(DOCS)
NUMBERS = DOCUMENT["numbers"]
FORMULAS = DOCUMENT["formulas"]


@pytest.fixture(scope="module")
def engine_namespace():
    """The names the expressions may use: whatever the `setup` code of numbers.yml defines."""
    namespace = {}
    exec(DOCUMENT["setup"], namespace)
    return namespace


def decimals(text):
    """How many digits `text` shows after the decimal point."""
    return len(text.partition(".")[2])


@pytest.mark.parametrize("name", sorted(NUMBERS))
def test_number_matches_engine(name, engine_namespace):
    entry = NUMBERS[name]
    shown = ast.literal_eval(entry["text"])
    assert ("engine" in entry) != ("check" in entry), f"{name}: give exactly one of `engine` and `check`"
    if "engine" in entry:
        value = eval(entry["engine"], dict(engine_namespace))
        assert round(value, decimals(entry["text"])) == shown, f"{name}: engine gives {value!r}"
    else:
        assert eval(entry["check"], dict(engine_namespace, shown=shown)), f"{name}: {entry['check']}"


# The LaTeX the formulas use, spelled the way SymPy's parser reads it.
LATEX_TO_SYMPY = [
    (r"\operatorname{sign}", "sign"), (r"\tanh", "tanh"), (r"\left", ""), (r"\right", ""),
    (r"\hat y", "yhat"), (r"\Delta x", "Dx"), (r"\cdot", "*"),
    (r"\,", " "), (r"\quad", " "), ("\\\\", " "), ("&", " "),  # spacing, line breaks, alignment
    ("{", "("), ("}", ")"),
]
TRANSFORMATIONS = standard_transformations + (implicit_multiplication, convert_xor, function_exponentiation)


def formula_from_latex(latex):
    for pattern, replacement in LATEX_TO_SYMPY:
        latex = latex.replace(pattern, replacement)
    assert "\\" not in latex, f"teach LATEX_TO_SYMPY this command: {latex}"
    return parse_expr(latex, transformations=TRANSFORMATIONS)


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_formula_matches_engine(name, engine_namespace):
    entry = FORMULAS[name]
    formula = formula_from_latex(entry["text"])
    for point in entry["at"]:
        variables = sorted(point)
        assert {str(s) for s in formula.free_symbols} <= set(variables), f"{name}: a variable has no value"
        by_formula = float(lambdify(variables, formula)(*(point[v] for v in variables)))
        by_engine = eval(entry["engine"], dict(engine_namespace, **point))
        assert math.isclose(by_formula, by_engine, rel_tol=1e-9, abs_tol=1e-9), f"{name} at {point}"


def test_every_entry_appears_on_a_page():
    defined = set(hook.texts_of(DOCUMENT))
    used = {match.group(1) for page in DOCS.rglob("*.md")
            for match in hook.PLACEHOLDER.finditer(page.read_text(encoding="utf-8"))}
    assert defined - used == set(), "numbers.yml entries no page uses"
    assert used - defined == set(), "placeholders numbers.yml does not define"
