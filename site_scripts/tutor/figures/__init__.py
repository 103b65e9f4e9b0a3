"""The lesson's interactive figures: one pure-Python model per figure.

Each model computes plain JSON-able state with the engine (`from tinygrad import ...`), with
a `description`, the sentence screen readers get for its picture; the JavaScript view of the
same name only draws that state. A model declares TITLE and
PAGE_CALLS, the tuple of the functions the page may call (runtime.call, tutor.runtime.page_calls):
its other names, helpers and imports alike, cannot be called from the page. Nothing here touches the
browser: the same code runs under CPython at build time and in the page's Pyodide worker.
"""
