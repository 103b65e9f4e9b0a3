"""dispatcher.py: the one door between the web worker and the lesson's Python.

What it is: `dispatcher(send, wait)` makes, once per interpreter, the function the worker hands every
request to: `await dispatch(request_text)` reads a request of the contract (contract.py: configure,
run, call, stop), answers it and returns its "result" event as JSON text (None for a stop),
while the events that come meanwhile (begin, output, graph, deep-graph) go out through
`send(event_text)`. It never raises: a request it cannot read is answered with a bad-request error,
and every result says whether Python now holds a deep chain of Values (deepGraph), for the message
of a crash that may follow. The handlers, and the json functions it answers with, are looked up
when the dispatcher is made, not at each request, so a block that replaces this module's names
(`import tutor.runtime.dispatcher as d; d.run = None`) cannot break the next request: the worker
holds the function it got at boot. After every request that may have run the reader's code (a run, a
call with a page's namespace, any call while the reader's engine is installed) the keeper (keeper.py)
puts back whatever it changed in the lesson's own modules, and a run says so in its output; after the
other requests the keeper only notes the modules imported meanwhile.
Broken machinery: when the runtime itself raises, or after a run that raised (or any run asked to
`check`, as the page's re-runs are) even an empty block fails (a block changed something the runtime
relies on, such as `ast.parse`), the answer is the error `broken`, so the page can tell the reader
that Python, not their code, needs a restart. This is the one check of the machinery.
A Stop whose interrupt arrives once the reader's code has ended (pressed just then, or twice) never ends
the answer: the dispatcher's own work after the code is done again.
`wait(seconds)` is the worker's blocking wait that time.sleep uses (guards.py).
What it is not: the jobs themselves: running (runner.py), calling (page_calls.py), Stop
(stopping.py), the guards (guards.py), the keeper (keeper.py) and the engine's installation
(tutor.engine_edit).
"""
import json

from . import contract, guards, keeper, output, page_calls, runner, stopping
from .contract import error
from .tracebacks import text_of

PROBE_PAGE, PROBE_FILENAME = "<probe>", "<probe: an empty block>"
BROKEN = ("Python's own code for the page failed ({failure}), not your code: a block changed something the page "
          "relies on. Press Restart Python to get a fresh Python.")
BROKEN_NOTE = ("Even an empty block fails now ({failure}): a block changed something the page's own code "
               "relies on, so every run will fail. Press Restart Python to get a fresh Python.")


def described(failure):
    """An exception in one line: "TypeError: 'NoneType' object is not callable"."""
    message = text_of(failure)
    return f"{type(failure).__name__}: {message}" if message else type(failure).__name__


def dispatcher(send, wait=None):
    """The worker's `dispatch(request_text)`: see the module's docstring."""
    holds_deep_graph = guards.holds_deep_graph
    namespaces = runner.namespaces
    dumps, loads = json.dumps, json.loads
    note_modules, note_new_modules, mend_modules = keeper.keeper()
    note_modules()
    bracketed = output.bracketed
    answering = {"id": None}  # the request being answered, for a stop
    readers_engine = {"installed": False}  # calls run the reader's code too: the reader's edited engine

    def emit(kind, **fields):
        send(dumps({"kind": kind, **fields}, allow_nan=False))

    def broken_error(failure, kind):
        """The error broken: the machinery failed with `failure` (described), of type `kind`."""
        return error("broken", BROKEN.format(failure=failure), type=kind)

    def broken(failure):
        """The error of a machinery that raised `failure` (an exception of the runtime, not of the reader's code)."""
        return broken_error(described(failure), type(failure).__name__)

    def configure(request):
        engine_source = request.get("engineSource")
        if engine_source is not None and not isinstance(engine_source, str):
            return {"ok": False, "error": error("bad-request", "configure: engineSource must be text or null")}
        if engine_source is not None:  # first: the guards then note the engine's file as the page installed it
            from .. import engine_edit  # imported here: it is not needed by an interpreter that runs the lesson's
            readers_engine["installed"] = True
            try:
                engine_edit.install(engine_source)
            except Exception as failure:  # noqa: BLE001 - the page says Python could not start, and why
                return {"ok": False, "error": error("exception", f"your edited engine could not be installed "
                                                    f"({failure})", type=type(failure).__name__, traceback="",
                                                    hint=None)}
        guards.install(wait=wait, on_deep_graph=lambda: emit("deep-graph"), note=output.note, flush=output.flush)
        note_modules()  # before any reader's code: the lesson's modules as the page configured them
        return {"ok": True, "error": None}

    async def run(request):
        page, code = request.get("page"), request.get("code")
        filename, fresh = request.get("filename") or "<python block>", request.get("fresh", False)
        if not (isinstance(page, str) and isinstance(code, str) and isinstance(filename, str)
                and isinstance(fresh, bool) and isinstance(request.get("check", False), bool)):
            return {"ok": False, "error": error("bad-request", "run: needs page and code (text), filename (text), "
                                                              "fresh and check (true or false)")}
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

    async def machinery_failure():
        """None when an empty block in a page of its own runs; else (what failed, in words; its type name)."""
        try:
            answer = await run_block(PROBE_PAGE, "", lambda stream, text: None, filename=PROBE_FILENAME, fresh=True)
        except Exception as raised:  # noqa: BLE001 - the answer to give
            return described(raised), type(raised).__name__
        finally:
            namespaces.pop(PROBE_PAGE, None)
        if answer.get("ok"):
            return None
        failure = answer.get("error") or {}
        kind = failure.get("type") or failure.get("kind") or "Error"
        return f"{kind}: {failure.get('message', '')}", kind

    async def machinery_failed(identifier, answer):
        """After a run that failed with an exception, or one asked to check: if even an empty block fails, the
        run's error is the machinery's (broken), and its output says so."""
        failure = await machinery_failure()
        if failure is None:
            return answer
        emit("output", id=identifier, stream="note", text=bracketed(BROKEN_NOTE.format(failure=failure[0])))
        return {**answer, "ok": False, "error": broken_error(*failure)}

    run_block, call_function, stop_waiting_run = runner.run, page_calls.call, stopping.stop_waiting_run
    handlers = {"configure": configure, "run": run, "call": call}

    async def dispatch(text):
        try:
            request = loads(text)
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
            answer = {"ok": False, "error": broken(unexpected)}
        finally:
            answering["id"] = None
        reader_ran = kind == "run" or (kind == "call" and request.get("page") is not None)
        if reader_ran or (kind == "call" and readers_engine["installed"]):
            mended = despite_a_late_stop(mend_modules, reader_ran=reader_ran)
            if mended and kind == "run":
                emit("output", id=identifier, stream="note", text=bracketed(mended))
        elif kind != "configure":
            despite_a_late_stop(note_new_modules)
        raised = not answer["ok"] and (answer.get("error") or {}).get("kind") == "exception"
        if kind == "run" and (raised or request.get("check") is True):
            answer = await machinery_failed(identifier, answer)
        return despite_a_late_stop(result, identifier, answer)

    def despite_a_late_stop(work, *args, **kwargs):
        """`work(...)` of the dispatcher's own, done again when Stop's interrupt lands in it: pressed as the
        reader's code ended (or twice), it has nothing left to stop, and must not end the answer."""
        try:
            return work(*args, **kwargs)
        except KeyboardInterrupt:
            return work(*args, **kwargs)

    def result(identifier, answer):
        try:
            deep = holds_deep_graph(list(namespaces.values()))
        except Exception:  # noqa: BLE001 - a fact for a later message, never worth failing a request
            deep = False
        event = {"kind": "result", "id": identifier, **answer, "deepGraph": deep}
        try:
            return dumps(event, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as problem:  # page_calls checks its values already
            event.update(ok=False, value=None, error=error("not-json", f"the answer cannot be sent as JSON: {problem}"))
            return dumps(event, allow_nan=False)

    assert set(handlers) | {"stop"} == set(contract.REQUEST)
    return dispatch
