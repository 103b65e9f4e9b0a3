"""The Python half of the page's runtime: what the web worker calls (`tutor.runtime.dispatcher`).

What it is: the contract between the page and Python (contract.py: every request, event and error
kind), the one dispatcher that answers the requests (dispatcher.py), and the jobs it hands them to:
running a block (runner.py) with its output batched and capped (output.py), hints for errors
(hints.py), show() (show.py), the page's calls of figure models and checks (page_calls.py), Stop
of a run that waits (stopping.py), what keeps a block from breaking Python (guards.py) and the
lesson's own modules (keeper.py), the reader's tracebacks (tracebacks.py) and the warm-up before
the build's memory snapshot (warm_up.py).
No module here imports the engine when it is imported, so a switch of engine (tutor.engine_edit
.install) keeps all of them, and the dispatcher the worker holds stays the one it captured at boot.
What it is not: the figure models (tutor.figures), the exercises' checks (tutor.exercises) or the
engine check (tutor.engine_edit).
"""
