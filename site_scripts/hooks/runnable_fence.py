"""runnable_fence.py: the MkDocs hook that turns ```runnable fences into static runnable blocks.

What it is: it registers a pymdownx.superfences custom fence named `runnable`. In Markdown:

    ```runnable title="Check the engine"
    print(1 + 1)
    ```

renders as highlighted Python (readable with JavaScript off) inside
`<div class="runnable" data-title="..." data-source="...">`, keeping the exact source for Reset.
The only option is `title`; anything else stops the build with a message naming it.

What it is not: the interactive part. site_scripts/blocks/blocks.mjs adds the editor, the buttons
and the output in the browser.
"""
import html

from pymdownx.superfences import SuperFencesException

FENCE_NAME = "runnable"
ALLOWED_OPTIONS = {"title"}


def validate_runnable(language, inputs, options, attrs, md):
    """Accept `title="..."` only; fail the build with a clear message for anything else."""
    unknown = sorted(set(inputs) - ALLOWED_OPTIONS)
    if unknown:
        raise SuperFencesException(
            f"```{FENCE_NAME} fence: unknown option(s) {', '.join(unknown)}; "
            f'the only option is title="...", e.g. ```{FENCE_NAME} title="Check the engine"')
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
    return (f'<div class="{class_name}"{title_attribute} data-source="{html.escape(source)}">'
            f"{code_html}</div>")


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
