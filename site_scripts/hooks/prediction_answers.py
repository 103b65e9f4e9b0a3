"""prediction_answers.py: the lesson's checked predictions (docs/predictions.yml), answered by the engine.

What it is: `answered(docs_dir)` reads docs/predictions.yml, runs the `setup` of docs/numbers.yml and
then its own `setup` in one namespace, and evaluates every prediction's `answer`, `values` and slips
with engine/tinygrad.py. It returns {id: prediction} (see `computed`), every text with its {name}
filled in from what was computed, and fails with PredictionError, naming the prediction, when an
entry is malformed, a slip cannot be told from the answer, or a wrong choice has no feedback.
`answered_in_child(docs_dir)` does the same in a fresh CPython (fresh_python.py: every build sees the
current engine), and `this_build` keeps its result for every hook of the build. `notebook_text` is how
a prediction reads in a chapter's notebook (the question, the answer in a collapsed note).
What it is not: the page's HTML (predictions.py, the hook) or the check of a reader's answer
(site_scripts/browser/predictions/judge.mjs): only the data both use.
"""
import math
import re
from pathlib import Path

from docs_data import read_yaml  # the hooks' folder is on sys.path (MkDocs, the tests, fresh_python.py)
from fresh_python import FreshPythonError, in_fresh_python
from lesson_numbers import read_numbers_file

PREDICTIONS_FILE = "predictions.yml"   # inside docs_dir, beside numbers.yml
ID = re.compile(r"[a-z][a-z0-9-]*")
NAME_IN_TEXT = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
TEXT_FIELDS = ("question", "reason", "otherwise")
MINUS = "\u2212"
PLACEHOLDER = re.compile(r'<div data-prediction="(?P<id>[^"]*)">\s*</div>')  # what a page writes

this_build = {}  # id -> prediction: filled by the hook predictions.py when a build starts, read by notebooks.py


class PredictionError(ValueError):
    """A prediction of docs/predictions.yml that cannot be built, said in the maintainer's terms."""


def read(docs_dir):
    """predictions.yml as parsed YAML ({"setup", "predictions"}), with each entry's shape checked."""
    source = Path(docs_dir) / PREDICTIONS_FILE
    document = read_yaml(source, PredictionError)
    if not isinstance(document, dict) or not isinstance(document.get("predictions"), dict):
        raise PredictionError(f"{source} must be a mapping with `setup` and `predictions`")
    for identifier, entry in document["predictions"].items():
        where = f"prediction {identifier!r} in {source}"
        if not isinstance(identifier, str) or not ID.fullmatch(identifier):
            raise PredictionError(f"{where}: an id is lowercase letters, digits and -, such as paths-total")
        if not isinstance(entry, dict) or not all(isinstance(entry.get(field), str) for field in ("question", "answer", "reason")):
            raise PredictionError(f"{where} needs a `question`, an `answer` (engine code) and a `reason`")
        unknown = set(entry) - {"question", "answer", "reason", "otherwise", "values", "slips", "choices", "says",
                                "tolerance", "decimals", "observe"}
        if unknown:
            raise PredictionError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        if "choices" in entry and ("slips" in entry or "observe" in entry):
            raise PredictionError(f"{where}: a question with `choices` has `says` per choice, not `slips` or `observe`")
    return document


def namespace_of(docs_dir, document):
    """The names the expressions may use: numbers.yml's setup, then predictions.yml's."""
    namespace = {}
    exec(read_numbers_file(docs_dir).get("setup") or "", namespace)  # noqa: S102  trusted code from this repository
    exec(document.get("setup") or "", namespace)  # noqa: S102
    return namespace


def answered(docs_dir):
    """{id: computed prediction} for every entry of predictions.yml, in file order."""
    document = read(docs_dir)
    namespace = namespace_of(docs_dir, document)
    return {identifier: computed(identifier, entry, namespace)
            for identifier, entry in document["predictions"].items()}


def computed(identifier, entry, namespace):
    """One prediction, evaluated:
    {"id", "kind": "number" or "choice", "question", "reason", "answer" (a number, or a choice's key),
     "shown" (the answer as the page writes it), "tolerance", "slips": [{"values": [numbers], "says"}],
     "otherwise" (feedback for any other wrong number, or ""), "choices": [{"key", "label", "says"}],
     "observe" (the dotted name a block's run is read at, or "")}."""
    values = {}

    def evaluate(expression, what):
        try:
            return eval(expression, dict(namespace, **values))  # noqa: S307  trusted code from this repository
        except Exception as problem:  # noqa: BLE001 - any failure is the prediction's, named in the build's error
            raise PredictionError(f"prediction {identifier!r}: {what} `{expression}` failed: "
                                  f"{type(problem).__name__}: {problem}") from None

    for name, expression in (entry.get("values") or {}).items():  # in order: a value may use the ones before it
        values[name] = evaluate(expression, f"the value {name}")
    answer = evaluate(entry["answer"], "the answer")
    result = {"id": identifier, "observe": entry.get("observe", ""), "slips": [], "choices": []}
    if "choices" in entry:
        choices = entry["choices"]
        if not isinstance(choices, dict) or answer not in choices:
            raise PredictionError(f"prediction {identifier!r}: the answer {answer!r} is not one of its choices")
        says = entry.get("says") or {}
        missing = [key for key in choices if key != answer and key not in says]
        if missing:
            raise PredictionError(f"prediction {identifier!r}: the wrong choice(s) {', '.join(missing)} need "
                                  f"feedback in `says` (the engine's answer is {answer!r})")
        texts = {**values, "answer": choices[answer]}
        result.update(kind="choice", answer=answer, shown=filled(choices[answer], texts, identifier), tolerance=0,
                      choices=[{"key": key, "label": filled(label, texts, identifier),
                                "says": filled(says.get(key, ""), texts, identifier)} for key, label in choices.items()])
    else:
        answer = finite_number(answer, identifier, "the answer")
        decimals = entry.get("decimals")
        tolerance = entry.get("tolerance", 0.5 * 10 ** -decimals if decimals is not None else 1e-9 * max(1, abs(answer)))
        shown = number_text(answer, decimals)
        texts = {**values, "answer": shown}
        slips = []
        for slip in entry.get("slips") or []:
            found = evaluate(slip["value"], "a slip")
            numbers = [finite_number(value, identifier, "a slip") for value in (found if isinstance(found, (list, tuple)) else [found])]
            for number in numbers:
                if abs(number - answer) <= 2 * tolerance:
                    raise PredictionError(f"prediction {identifier!r}: the slip {number} cannot be told from the answer {answer}")
                if any(abs(number - other) <= 2 * tolerance for earlier in slips for other in earlier["values"]):
                    raise PredictionError(f"prediction {identifier!r}: the slip {number} is listed twice")
            slips.append({"values": numbers, "says": filled(slip["says"], texts, identifier)})
        result.update(kind="number", answer=answer, shown=shown, tolerance=tolerance, slips=slips)
    result.update({field: filled(entry.get(field, ""), texts, identifier) for field in TEXT_FIELDS})
    return result


def finite_number(value, identifier, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise PredictionError(f"prediction {identifier!r}: {what} must be a finite number, not {value!r}")
    return float(value)


def number_text(value, decimals=None):
    """A number as the page writes it: 25, 0.75, −12 (a true minus sign), or with `decimals` decimals."""
    if decimals is not None:
        text = f"{value:.{decimals}f}"
    elif float(value).is_integer() and abs(value) < 1e15:
        text = str(int(value))
    else:
        text = repr(round(value, 10))
    return text.replace("-", MINUS)


def filled(text, values, identifier):
    """`text` with each {name} replaced by that computed value (numbers as number_text writes them)."""
    def value_of(match):
        if match[1] not in values:
            raise PredictionError(f"prediction {identifier!r}: the text uses {{{match[1]}}}, which it does not compute")
        value = values[match[1]]
        return value if isinstance(value, str) else number_text(value) if isinstance(value, (int, float)) else str(value)
    return NAME_IN_TEXT.sub(value_of, text)


def answered_in_child(docs_dir):
    """answered(docs_dir), computed by a fresh CPython with the repository's engine and tutor package."""
    try:
        return in_fresh_python("prediction_answers", "answered", str(docs_dir))
    except FreshPythonError as problem:
        raise PredictionError(str(problem).splitlines()[-1]) from None


def notebook_text(prediction):
    """A prediction in a notebook's Markdown: the question (and its choices), the answer in a collapsed note."""
    lines = [f"**Prediction:** {prediction['question']}"]
    lines += [""] + [f"- {choice['label']}" for choice in prediction["choices"]] if prediction["choices"] else []
    lines += ["", "<details><summary>Answer</summary>", "", f"**{prediction['shown']}.** {prediction['reason']}",
              "", "</details>"]
    return "\n".join(lines)
