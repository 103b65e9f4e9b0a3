"""The lesson's interactive figures: one pure-Python model per figure.

Each model computes plain JSON-able state with the engine (`from tinygrad import ...`);
the JavaScript view of the same name only draws that state. Nothing here touches the
browser: the same code runs under CPython at build time and in the page's Pyodide worker.
"""
