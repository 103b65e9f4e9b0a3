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

What it is not: the interactive part. site_scripts/browser/blocks/ (block.mjs) adds the editor, the buttons
and the output in the browser; site_scripts/browser/exercises/exercises.mjs adds an exercise's Check,
hints and solution.
"""
import html
import re

from pymdownx.superfences import SuperFencesException
from tutor_sources import EXERCISES, module_constants  # MkDocs puts the hooks' folder on sys.path while it loads a hook

FENCE_NAME = "runnable"
ALLOWED_OPTIONS = {"title", "exercise"}
EXERCISE_NAME = re.compile(r"[a-z_][a-z0-9_]*")
CODE_IN_HINT = re.compile(r"`([^`]+)`")


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
                  f'data-source="{html.escape(source)}">{code_html}</div>')
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
