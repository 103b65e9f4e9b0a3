"""test_contract_in_browser.py: the contract between the page and Python once through the real worker, in Chromium.

What it is: the page's adapter (runtime.mjs), the worker that carries the messages and the Python
dispatcher, driven through the page's own `runtime` object on a lesson page: a run's result value
(ok, report, error, engineChanged) and its graph event as an object; every way a call can fail as a
PythonCallError with an error kind (not-allowed, bad-arguments, exception with Python's type, the
function's prints returned rather than logged); the kinds only JavaScript can give: stopped and
restarted (a restart ended the request), crashed with the worker's kind of what killed Python
(process-exit, stack-overflow); and a block that replaces the runtime's Python names cannot break
the next request, since the worker holds the dispatcher it took at boot.
What it is not: the Python side kind by kind (tests/tutor/runtime/test_contract.py) or the reader's
view of these (test_blocks.py, test_robustness.py, test_figures.py).
"""
import pytest

from helpers import PYTHON_TIMEOUT_MS, open_lesson, pages_with_blocks, wait_python_ready

# Put on the page, once: `run(code, onStart)` resolves to runtime.run's result plus the graphs it drew, and
# `call(...)` to {value} or {error: {...}}; `runtime` is the page's own (the same module URL).
HARNESS = """async (runtimeUrl) => {
  const { runtime } = await import(runtimeUrl);
  const run = async (code, onStart = () => {}) => {
    const graphs = [];
    const result = await runtime.run({ page: "contract-test", code, onStart, onGraph: (graph) => graphs.push(graph) });
    return { ...result, graphs };
  };
  const call = async (module, fn, kwargs, options = {}) => {
    try {
      return { value: await runtime.call(module, fn, kwargs, options) };
    } catch (error) {
      return { error: { name: error.name, kind: error.kind, type: error.type, message: error.message,
                        printed: error.printed, stopped: error.stopped } };
    }
  };
  globalThis.contractTest = { runtime, run, call };
}"""
STEP = "async () => {{ const {{ runtime, run, call }} = globalThis.contractTest; {body} }}"


@pytest.fixture
def lesson(page, site_url, built_site):
    open_lesson(page, site_url, pages_with_blocks(built_site)[0])
    page.evaluate("() => document.querySelector('div.runnable').dispatchEvent(new Event('pointerenter'))")
    wait_python_ready(page)
    page.set_default_timeout(PYTHON_TIMEOUT_MS)
    return page


def in_page(page, site_url, **steps):
    """Run each step (the body of an async function of run, call and runtime) in order; what each returned."""
    page.evaluate(HARNESS, f"{site_url}assets/lesson/browser/runtime/runtime.mjs")
    return {name: page.evaluate(STEP.format(body=body)) for name, body in steps.items()}


def test_results_and_errors_come_back_as_values_with_a_kind(lesson, site_url, page_errors):
    console = []
    lesson.on("console", lambda message: console.append(message.text))
    seen = in_page(
        lesson, site_url,
        shown="return run('from tinygrad import Value\\nx = Value(3)\\nshow(x * x)')",
        raised="return run('1 / 0')",
        figure="return call('tutor.figures.x_times_x', 'initial', {})",
        imported="return call('tutor.figures.line_fit', 'Value', {})",
        arguments="return call('tutor.figures.line_fit', 'initial', { unexpected: 1 })",
        # a called function that prints and raises: a prediction's check reads a property of the reader's
        # (a lesson module a block changed would be put back before the call: tutor/runtime/keeper.py)
        talkative="await run('class Noisy:\\n    @property\\n    def grad(self):\\n'"
                  " + '        print(\"a model speaks\")\\n        raise ValueError(\"no\")\\nx = Noisy()');"
                  " return call('tutor.predictions', 'observed', { path: 'x.grad' }, { page: 'contract-test' })",
    )
    assert seen["shown"]["ok"] is True and seen["shown"]["error"] is None and seen["shown"]["report"] == ""
    assert seen["shown"]["engineChanged"] is False
    [graph] = seen["shown"]["graphs"]
    assert graph["title"] == "Graph of the expression" and len(graph["states"]) > 2  # an object, not JSON text
    raised = seen["raised"]
    assert raised["ok"] is False and raised["error"]["kind"] == "exception"
    assert raised["error"]["type"] == "ZeroDivisionError" and raised["report"].endswith("ZeroDivisionError: division by zero\n")
    assert seen["figure"]["value"]["graph"]["nodes"][0]["data_text"] == "5"
    assert seen["imported"]["error"]["name"] == "PythonCallError" and seen["imported"]["error"]["kind"] == "not-allowed"
    assert seen["arguments"]["error"]["kind"] == "bad-arguments"
    talkative = seen["talkative"]["error"]
    assert (talkative["kind"], talkative["type"], talkative["message"]) == ("exception", "ValueError", "no")
    assert talkative["printed"] == "a model speaks\n"
    assert not any("a model speaks" in text for text in console), "a model's print reached the console"
    assert page_errors == []


def test_a_block_that_replaces_the_runtime_s_names_cannot_break_the_next_request(lesson, site_url, page_errors):
    seen = in_page(
        lesson, site_url,
        clobbered="return run('import tutor.runtime.dispatcher as d, tutor.runtime.runner as r, sys\\n'"
                  " + 'd.dispatcher = r.run = None\\nsys.modules[\"tutor.runtime.page_calls\"] = None')",
        after="return run('print(6 * 7)')",
        figure="return call('tutor.figures.x_times_x', 'initial', {})",
    )
    assert seen["clobbered"]["ok"] is True and seen["after"]["ok"] is True
    assert "value" in seen["figure"], seen["figure"]
    assert page_errors == []


def test_the_kinds_only_javascript_gives_stop_restart_and_what_killed_python(lesson, site_url, page_errors):
    assert not lesson.evaluate("() => crossOriginIsolated")  # Stop replaces Python here
    seen = in_page(
        lesson, site_url,
        stopped="return run('import asyncio\\nawait asyncio.sleep(600)', () => runtime.stop())",  # once it runs
        restarted="return run('import asyncio\\nawait asyncio.sleep(600)', () => runtime.restart())",
        exited="return run('import posix\\nposix._exit(3)')",
        overflowed="return run('x = []\\nfor _ in range(10**5):\\n    x = [x]\\nrepr(x)')",
        after="return run('print(6 * 7)')",
    )
    assert seen["stopped"]["error"]["kind"] == "stopped" and "restarted to stop" in seen["stopped"]["error"]["message"]
    assert seen["restarted"]["error"] == {"kind": "restarted", "message": "Python was restarted."}
    exited = seen["exited"]["error"]
    assert (exited["kind"], exited["cause"]) == ("crashed", "process-exit") and "exit status 3" in exited["message"]
    overflowed = seen["overflowed"]["error"]
    assert (overflowed["kind"], overflowed["cause"]) == ("crashed", "stack-overflow")
    assert "stack ran out" in overflowed["message"]
    assert seen["after"]["ok"] is True
    assert page_errors == []
