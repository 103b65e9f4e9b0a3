"""block_runs.py: runs a code block under CPython exactly as a page does, for the tests of the runtime.

What it is: `cpython_run(code, page, fresh)` runs `code` through tutor.runtime.runner (the module the
browser's dispatcher runs blocks with), in a thread of its own (own_thread.py), and answers a `Ran`:
the run's result ({"ok", "report", "error", "engineChanged"}), its report, the text it printed
(stdout, stderr and notes), the graphs show() drew and every output item in order.
What it is not: the dispatcher (tests/tutor/runtime/test_contract.py drives that) or the browser.
"""
import asyncio
from dataclasses import dataclass

from own_thread import in_own_thread
from tutor.runtime import runner


@dataclass
class Ran:
    result: dict
    text: str
    graphs: list
    items: list  # (stream, text) and ("graph", graph), in the order they came

    @property
    def report(self):
        return self.result["report"]


def cpython_run(code, page="test-page", fresh=True, filename="<block 1>"):
    """Run `code` as a block of page `page` (a fresh namespace if `fresh`); what came of it."""
    items = []
    result = in_own_thread(asyncio.run, runner.run(page, code, lambda stream, text: items.append((stream, text)),
                                                   lambda graph: items.append(("graph", graph)),
                                                   filename=filename, fresh=fresh))
    text = "".join(text for stream, text in items if stream != "graph")
    return Ran(result, text, [graph for stream, graph in items if stream == "graph"], items)
