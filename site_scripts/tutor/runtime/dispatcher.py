"""dispatcher.py: the one door between the web worker and the lesson's Python.

What it is: `dispatcher(send, wait)` makes, once per interpreter, the function the worker hands every
request to: `await dispatch(request_text)` reads a request of the contract (contract.py: configure,
run, call, stop), answers it and returns its "result" event as JSON text (None for a stop), while
the events that come meanwhile (begin, output, graph, deep-graph) go out through `send(event_text)`.
It never raises: a request it cannot read is answered with a bad-request error, and every result
says whether Python now holds a deep chain of Values (deepGraph), for the message of a crash that
may follow. The handlers are looked up when the dispatcher is made, not at each request, so a block
that replaces this module's names (`import tutor.runtime.dispatcher as d; d.run = None`) cannot
break the next request: the worker holds the function it got at boot.
`wait(seconds)` is the worker's blocking wait that time.sleep uses (guards.py).
What it is not: the jobs themselves: running (runner.py), calling (page_calls.py), Stop
(stopping.py), the guards (guards.py) and the engine's installation (tutor.engine_edit).
"""
import json

from . import contract, guards, output, page_calls, runner, stopping
from .contract import error
from .tracebacks import traceback_of


def dispatcher(send, wait=None):
    """The worker's `dispatch(request_text)`: see the module's docstring."""
    holds_deep_graph = guards.holds_deep_graph
    namespaces = runner.namespaces
    answering = {"id": None}  # the request being answered, for a stop

    def emit(kind, **fields):
        send(json.dumps({"kind": kind, **fields}, allow_nan=False))

    def configure(request):
        engine_source = request.get("engineSource")
        if engine_source is not None and not isinstance(engine_source, str):
            return {"ok": False, "error": error("bad-request", "configure: engineSource must be text or null")}
        if engine_source is not None:  # first: the guards then note the engine's file as the page installed it
            from .. import engine_edit  # imported here: it is not needed by an interpreter that runs the lesson's
            try:
                engine_edit.install(engine_source)
            except Exception as failure:  # noqa: BLE001 - the page says Python could not start, and why
                return {"ok": False, "error": error("exception", f"your edited engine could not be installed "
                                                    f"({failure})", type=type(failure).__name__, traceback="",
                                                    hint=None)}
        guards.install(wait=wait, on_deep_graph=lambda: emit("deep-graph"), note=output.note, flush=output.flush)
        return {"ok": True, "error": None}

    async def run(request):
        page, code = request.get("page"), request.get("code")
        filename, fresh = request.get("filename") or "<python block>", request.get("fresh", False)
        if not (isinstance(page, str) and isinstance(code, str) and isinstance(filename, str)
                and isinstance(fresh, bool)):
            return {"ok": False, "error": error("bad-request", "run: needs page and code (text), filename (text) "
                                                              "and fresh (true or false)")}
        identifier = request["id"]
        return await run_block(page, code, lambda stream, text: emit("output", id=identifier, stream=stream, text=text),
                               lambda graph: emit("graph", id=identifier, graph=graph), filename=filename, fresh=fresh)

    def call(request):
        module, fn, kwargs, page = request.get("module"), request.get("fn"), request.get("kwargs"), request.get("page")
        if kwargs is None:
            kwargs = {}
        if not isinstance(kwargs, dict) or not (page is None or isinstance(page, str)):
            return {"ok": False, "error": error("bad-request", "call: kwargs must be an object of keyword arguments "
                                                              "and page text or null")}
        if page is not None and page not in namespaces:
            return {"ok": False, "error": error("no-namespace", "call: no code block of this page has run yet, "
                                                                "so it has no namespace")}
        return call_function(module, fn, kwargs, namespaces[page] if page is not None else None)

    run_block, call_function, stop_waiting_run = runner.run, page_calls.call, stopping.stop_waiting_run
    handlers = {"configure": configure, "run": run, "call": call}

    async def dispatch(text):
        try:
            request = json.loads(text)
        except (TypeError, ValueError):
            request = None
        if not isinstance(request, dict):
            return result(None, {"ok": False, "error": error("bad-request", "a request must be a JSON object")})
        kind, identifier = request.get("kind"), request.get("id")
        if kind == "stop":
            ids = request.get("ids")
            if isinstance(ids, list) and answering["id"] in ids:
                stop_waiting_run()
            return None
        handler = handlers.get(kind)
        if handler is None or not isinstance(identifier, int):
            return result(identifier, {"ok": False, "error": error("bad-request", f"{kind!r} is not a request "
                                                                                   "of the contract with an id")})
        emit("begin", id=identifier)
        answering["id"] = identifier
        try:
            answer = handler(request)
            if hasattr(answer, "__await__"):
                answer = await answer
        except KeyboardInterrupt:  # Stop, in the moment between the reader's code and the answer
            answer = {"ok": False, "error": error("stopped", "Stopped by the Stop button.")}
        except Exception as unexpected:  # noqa: BLE001 - the page gets it as a value, never as a lost reply
            answer = {"ok": False, "error": error("exception", str(unexpected), type=type(unexpected).__name__,
                                                  traceback=traceback_of(unexpected, lambda frame: True),
                                                  hint=None)}
        finally:
            answering["id"] = None
        return result(identifier, answer)

    def result(identifier, answer):
        try:
            deep = holds_deep_graph(list(namespaces.values()))
        except Exception:  # noqa: BLE001 - a fact for a later message, never worth failing a request
            deep = False
        event = {"kind": "result", "id": identifier, **answer, "deepGraph": deep}
        try:
            return json.dumps(event, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as problem:  # page_calls checks its values already
            event.update(ok=False, value=None, error=error("not-json", f"the answer cannot be sent as JSON: {problem}"))
            return json.dumps(event, allow_nan=False)

    assert set(handlers) | {"stop"} == set(contract.REQUEST)
    return dispatch
