"""predictions.py: the MkDocs hook that turns each prediction placeholder into a checked question.

What it is: a chapter holds `<div data-prediction="ID"></div>` where it asks the reader to predict
something; docs/predictions.yml defines ID (its question, and the engine code of its answer and of
the likely slips). At build time this hook has every answer computed by a fresh CPython with the
repository's engine (prediction_answers.py) and writes, in place of the placeholder, a group named
"Prediction: <question>" holding the question, the choices if it has any, the answer with its
reason in a <details> (readable with JavaScript off and in print), and, hidden, what the page's
script needs to check an answer: the expected value and tolerance (data-check) and the feedback for
each slip. The answer, the reason and the feedback are kept out of the search index
(data-search-exclude). A placeholder with an unknown id, an id used twice, or a prediction no page
uses stops the build; predictions.yml itself is kept out of the built site.
What it is not: the interactive part (site_scripts/browser/predictions/predictions.mjs) or the
computation (prediction_answers.py, which tests/article/test_predictions.py checks against the
engine and the page's own blocks).
"""
import html
import json
import re
from pathlib import Path

import markdown
from mkdocs.exceptions import PluginError
from docs_data import kept_out
from prediction_answers import (PLACEHOLDER, PREDICTIONS_FILE, PredictionError,  # MkDocs puts the hooks' folder on sys.path while it loads a hook
                                answered_in_child, this_build as predictions)

ANSWER_SUMMARY = "Answer"
# Inside a "Go deeper" box Markdown wraps the placeholder in a paragraph, which may not hold a <div>.
IN_PARAGRAPH = re.compile(r"<p>\s*(" + PLACEHOLDER.pattern + r")\s*</p>")

used_on = {}       # id -> the page that holds it


def on_config(config):
    predictions.clear()
    try:
        predictions.update(answered_in_child(Path(config["docs_dir"])))
    except PredictionError as problem:
        raise PluginError(f"predictions.py: {problem}") from None


def on_files(files, config):
    return kept_out(files, PREDICTIONS_FILE)


def on_pre_build(config):
    used_on.clear()


def on_page_content(content, page, config, files):
    def question(match):
        identifier = match["id"]
        if identifier not in predictions:
            raise PluginError(f"predictions.py: {page.file.src_uri} asks for a prediction {identifier!r}, "
                              f"which docs/{PREDICTIONS_FILE} does not define")
        if identifier in used_on:
            raise PluginError(f"predictions.py: the prediction {identifier!r} is on {used_on[identifier]} and "
                              f"{page.file.src_uri}; each id is used once (the reader's answer is saved under it)")
        used_on[identifier] = page.file.src_uri
        return prediction_html(predictions[identifier])

    return PLACEHOLDER.sub(question, IN_PARAGRAPH.sub(r"\1", content))


def on_post_build(config, **kwargs):
    unused = sorted(set(predictions) - set(used_on))
    if unused:
        raise PluginError(f"predictions.py: docs/{PREDICTIONS_FILE} defines {', '.join(unused)}, which no page uses")


def inline(text):
    """A text of predictions.yml (Markdown: `code`, *emphasis*) as inline HTML."""
    rendered = markdown.markdown(text)
    return rendered[3:-4] if rendered.startswith("<p>") and rendered.endswith("</p>") else rendered


def prediction_html(prediction):
    """The question, its choices, the answer in a <details>, and the hidden data of the check."""
    identifier = prediction["id"]
    question_id = f"prediction-{identifier}"
    check = {"kind": prediction["kind"], "answer": prediction["answer"], "tolerance": prediction["tolerance"],
             "observe": prediction["observe"]}
    choices = "".join(f'<li data-choice="{html.escape(choice["key"])}">{inline(choice["label"])}</li>'
                      for choice in prediction["choices"])
    feedback = "".join(f'<li data-values="{html.escape(json.dumps(slip["values"]))}">{inline(slip["says"])}</li>'
                       for slip in prediction["slips"])
    feedback += "".join(f'<li data-choice="{html.escape(choice["key"])}">{inline(choice["says"])}</li>'
                        for choice in prediction["choices"] if choice["says"])
    otherwise = f'<p class="prediction__otherwise">{inline(prediction["otherwise"])}</p>' if prediction["otherwise"] else ""
    return (f'<div class="prediction" data-prediction="{identifier}" role="group" aria-labelledby="{question_id}">'
            f'<p class="prediction__question" id="{question_id}"><strong>Prediction:</strong> '
            f'{inline(prediction["question"])}</p>'
            + (f'<ul class="prediction__choices">{choices}</ul>' if choices else "")
            + f'<details class="prediction__answer" data-search-exclude><summary>{ANSWER_SUMMARY}</summary>'
            f'<p><strong>{inline(prediction["shown"])}.</strong> {inline(prediction["reason"])}</p></details>'
            f'<div class="prediction__data" data-check="{html.escape(json.dumps(check, allow_nan=False))}" '
            f'data-search-exclude hidden><ul class="prediction__feedback-texts">{feedback}</ul>{otherwise}</div></div>')
