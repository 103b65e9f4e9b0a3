"""runnable_fence.py: the MkDocs hook that turns ```runnable fences into static runnable blocks.

What it is: it registers a pymdownx.superfences custom fence named `runnable`. In Markdown:

    ```runnable title="Check the engine"
    print(1 + 1)
    ```

renders as highlighted Python (readable with JavaScript off) inside
`<div class="runnable" data-title="..." data-source="...">`, keeping the exact source for Reset.
A second option, `exercise="<name>"`, makes the block an exercise whose starter code is the fence's
code: the div gets `data-exercise="<name>"` and is followed by a hidden
`<div class="exercise-data">` holding the HINTS (a list) and the SOLUTION (highlighted, and as
plain text in data-solution) of site_scripts/tutor/exercises/<name>.py, read from that file without
importing it, and kept out of the search index (data-search-exclude).
Any other option, or an exercise with no such module, stops the build with a message naming it.
Every block also shows, under its code, what the lesson's code prints: the build runs each page's
blocks in page order in one namespace, as the page does, under CPython with the browser's own
runner (tutor.runtime.runner, through block_outputs.py: one fresh CPython for the whole build, started in
on_env), and puts the output into the block (on_post_page) in a group labelled LESSON_OUTPUT_LABEL with a caption
saying where it comes from. It is there with JavaScript off, in print and while Python starts;
block.mjs hides it once the reader runs or edits the block (a saved edit included). When the page asks
a prediction between the previous block (or heading) and this one, the output would give the answer away: it is
folded into a <details> LESSON_OUTPUT_FOLD (data-predictions: their ids), which predictions.mjs opens
once every one of them is answered or shown.

What it is not: the interactive part. site_scripts/browser/blocks/ (block.mjs) adds the editor, the buttons
and the output in the browser; site_scripts/browser/exercises/exercises.mjs adds an exercise's Check,
hints and solution.
"""
import hashlib
import html
import json
import re
from pathlib import Path

from fresh_python import FreshPythonError, in_fresh_python  # MkDocs puts the hooks' folder on sys.path
from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException
from tutor_sources import EXERCISES, module_constants  # MkDocs puts the hooks' folder on sys.path while it loads a hook

FENCE_NAME = "runnable"
ALLOWED_OPTIONS = {"title", "exercise"}
EXERCISE_NAME = re.compile(r"[a-z_][a-z0-9_]*")
CODE_IN_HINT = re.compile(r"`([^`]+)`")
REPO = Path(__file__).resolve().parents[2]
RUN_INPUTS = [REPO / "engine" / "tinygrad.py", *sorted((REPO / "site_scripts" / "tutor").rglob("*.py"))]
LESSON_OUTPUT_MARK = '<div class="runnable__lesson-output"></div>'   # filled in on_post_page
LESSON_OUTPUT_LABEL = "Output of the lesson's code"
LESSON_OUTPUT_FOLD = "Show the lesson's output"
PREDICTION_OPENING = re.compile(r'<div class="prediction" data-prediction="(?P<id>[^"]*)"')  # predictions.py's
HEADING = re.compile(r"<h[1-6][ >]")
LESSON_OUTPUT_CAPTION = ("Output of the lesson's code, computed when this page was built. "
                         "Run the block to compute it in your browser.")
BLOCK_OPENING = re.compile(r'<div class="runnable"(?: data-title="(?P<title>[^"]*)")?(?: data-exercise="(?P<exercise>[^"]*)")? '
                           r'data-source="(?P<source>[^"]*)">')
SHOWN_STREAMS = ("stdout", "stderr", "note")   # graph pieces are figures, drawn when the reader runs the block

page_blocks = {}     # page src_uri -> [(filename, source), ...] in page order, filled in on_page_content
page_outputs = {}    # page src_uri -> [{"ok", "pieces"}, ...], filled in on_env
output_cache = {}    # (inputs' digest, page's blocks) -> outputs, so `mkdocs serve` reruns only what changed


def validate_runnable(language, inputs, options, attrs, md):
    """Accept `title="..."` and `exercise="<name>"`; fail the build with a clear message for anything else."""
    unknown = sorted(set(inputs) - ALLOWED_OPTIONS)
    if unknown:
        raise SuperFencesException(
            f"```{FENCE_NAME} fence: unknown option(s) {', '.join(unknown)}; the options are "
            f'title="..." and exercise="<name>", e.g. ```{FENCE_NAME} title="Check the engine"')
    if "exercise" in inputs:
        options["exercise"] = exercise_parts(inputs["exercise"])
    title = inputs.get("title", "")
    if title is True or (title and not title.strip()):
        raise SuperFencesException(f'```{FENCE_NAME} fence: title needs text, e.g. title="Check the engine"')
    if title:
        options["title"] = title.strip()
    return True


def format_runnable(source, language, class_name, options, md, **kwargs):
    """Highlighted static Python inside the block's container, with the original source kept."""
    title = options.get("title", "")
    highlighter = md.preprocessors["fenced_code_block"]
    highlight_options = {"title": title} if title else {}
    code_html = highlighter.highlight(src=source, language="python", options=highlight_options, md=md,
                                      classes=[], id_value="", attrs={})
    title_attribute = f' data-title="{html.escape(title)}"' if title else ""
    exercise = options.get("exercise")
    exercise_attribute = f' data-exercise="{exercise["name"]}"' if exercise else ""
    block_html = (f'<div class="{class_name}"{title_attribute}{exercise_attribute} '
                  f'data-source="{html.escape(source)}">{code_html}{LESSON_OUTPUT_MARK}</div>')
    if not exercise:
        return block_html
    solution_html = highlighter.highlight(src=exercise["solution"], language="python", options={}, md=md,
                                          classes=[], id_value="", attrs={})
    hints_html = "".join(f"<li>{hint_html(hint)}</li>" for hint in exercise["hints"])
    return (f'{block_html}<div class="exercise-data" data-exercise="{exercise["name"]}" '
            f'data-solution="{html.escape(exercise["solution"])}" data-search-exclude hidden>'
            f'<ol class="exercise-data__hints">{hints_html}</ol>'
            f'<div class="exercise-data__solution">{solution_html}</div></div>')


def exercise_parts(name):
    """{"name", "hints", "solution"} of site_scripts/tutor/exercises/<name>.py, read without running it."""
    if not isinstance(name, str) or not EXERCISE_NAME.fullmatch(name):
        raise SuperFencesException(f'```{FENCE_NAME} fence: exercise="..." needs the name of a module in '
                                   f'site_scripts/tutor/exercises/, e.g. exercise="relu", not {name!r}')
    module = EXERCISES / f"{name}.py"
    try:
        constants = module_constants(module)
    except OSError:
        raise SuperFencesException(f'```{FENCE_NAME} fence: exercise="{name}" has no module {module}') from None
    try:
        hints, solution = (constants[constant] for constant in ("HINTS", "SOLUTION"))
    except KeyError as problem:
        raise SuperFencesException(f"{module} needs HINTS (a list of texts) and SOLUTION (a text) "
                                   f"written as plain literals ({problem!r})") from None
    if not (hints and all(isinstance(hint, str) for hint in hints) and isinstance(solution, str)):
        raise SuperFencesException(f"{module}: HINTS must be a non-empty list of texts and SOLUTION a text")
    return {"name": name, "hints": hints, "solution": solution}


def hint_html(hint):
    """A hint's text as HTML: escaped, with `code` in backquotes shown as <code>."""
    return CODE_IN_HINT.sub(lambda match: f"<code>{match[1]}</code>", html.escape(hint))


def on_config(config):
    """Add the runnable fence to superfences' custom fences (keeping any configured ones)."""
    if "pymdownx.superfences" not in config["markdown_extensions"]:
        raise ValueError("runnable_fence.py needs `pymdownx.superfences` in mkdocs.yml markdown_extensions")
    superfences = config["mdx_configs"].setdefault("pymdownx.superfences", {})
    fences = [fence for fence in superfences.get("custom_fences", []) if fence.get("name") != FENCE_NAME]
    fences.append({"name": FENCE_NAME, "class": "runnable",
                   "validator": validate_runnable, "format": format_runnable})
    superfences["custom_fences"] = fences
    return config


# ---- The lesson's output of every block, computed at build time -----------------------------

def on_pre_build(config):
    page_blocks.clear()
    page_outputs.clear()


def on_page_content(content, page, config, files):
    """Note the page's blocks, in page order, with the file name the browser gives each one."""
    blocks = [(block_filename(number, html.unescape(opening["title"] or "")), html.unescape(opening["source"]))
              for number, opening in enumerate(BLOCK_OPENING.finditer(content), start=1)]
    if len(blocks) != content.count(LESSON_OUTPUT_MARK):
        raise PluginError(f"runnable_fence.py: {page.file.src_uri}: a runnable block without its output's place")
    if blocks:
        page_blocks[page.file.src_uri] = blocks
    return content


def block_filename(number, title):
    """The name tracebacks give a block: as block.mjs names it, <title> or <block N>."""
    return f"<{title}>" if title else f"<block {number}>"


def on_env(env, config, files):
    """Run every page's blocks under CPython, in one process for the whole build."""
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in RUN_INPUTS)).hexdigest()
    keys = {page: (digest, json.dumps(blocks)) for page, blocks in page_blocks.items()}
    waiting = {page: blocks for page, blocks in page_blocks.items() if keys[page] not in output_cache}
    if waiting:
        try:
            computed = in_fresh_python("block_outputs", "pages_outputs", waiting)
        except FreshPythonError as problem:
            raise PluginError(f"runnable_fence.py: running the lesson's blocks under CPython failed:\n{problem}") from None
        for page, outputs in computed.items():
            output_cache[keys[page]] = outputs
    for page, key in keys.items():
        page_outputs[page] = output_cache[key]
    return env


def on_post_page(output, page, config):
    """Each block's place for its output, in page order, filled with what its code printed."""
    parts = output.split(LESSON_OUTPUT_MARK)
    outputs = page_outputs.get(page.file.src_uri, [])
    if len(parts) - 1 != len(outputs):
        raise PluginError(f"runnable_fence.py: {page.file.src_uri} has {len(parts) - 1} blocks on the page "
                          f"but {len(outputs)} were run")
    # parts[n] runs from block n - 1's output to block n's: block n's predictions are those of it
    # after the last heading (one asked in an earlier section is about something else)
    asked = [PREDICTION_OPENING.findall(HEADING.split(part)[-1]) for part in parts[:-1]]
    return parts[0] + "".join(lesson_output_html(block_output, predictions) + part
                              for block_output, predictions, part in zip(outputs, asked, parts[1:]))


def lesson_output_html(block_output, predictions=()):
    """The lesson's output of one block: a labelled group with its caption and the text, stream by stream,
    folded in a <details> when `predictions` (ids) ask about it."""
    pieces = "".join(f'<span class="runnable__{stream}">{html.escape(text, quote=False)}</span>'
                     for stream, text in block_output["pieces"] if stream in SHOWN_STREAMS)
    text = pieces or '<span class="runnable__note">(The code prints nothing.)</span>'
    shown = (f'<p class="runnable__lesson-caption">{LESSON_OUTPUT_CAPTION}</p>'
             f'<div class="runnable__output">{text}</div>')
    if predictions:
        shown = (f'<details class="runnable__lesson-fold" data-predictions="{html.escape(" ".join(predictions))}">'
                 f'<summary>{LESSON_OUTPUT_FOLD}</summary>{shown}</details>')
    return (f'<div class="runnable__lesson-output" role="group" aria-label="{LESSON_OUTPUT_LABEL}" '
            f'data-search-exclude>{shown}</div>')
