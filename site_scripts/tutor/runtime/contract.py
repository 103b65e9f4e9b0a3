"""contract.py: every message between the page and its Python, declared once.

What it is: the kinds of the requests the page sends to the web worker, of the events that come
back, and of the errors a result or a crash can carry, each with its fields and what it means.
The page and the worker speak only these: the page's adapter (site_scripts/browser/runtime/
runtime.mjs) sends requests and reads events, the worker (worker.mjs) carries them to the one
dispatcher in Python (dispatcher.py) and back, and adds the events only it can see (status, fatal).
A message is a plain object (JSON between Python and the worker) whose "kind" is one of these names.
The JavaScript constants in site_scripts/browser/runtime/contract.mjs are written from this file
(site_scripts/hooks/contract_js.py writes and checks them; the build stops when they differ, and
tests/tutor/runtime/test_contract.py checks both agree), so this file is the one source.
What it is not: the behaviour behind a kind (dispatcher.py and the modules it calls) nor the
worker's own transport messages ("token", "interrupt-buffer"), which never reach Python.
This module imports nothing, so the build can read it without the rest of the package.
"""


class Kind:
    """One kind of message: its name, the fields it may carry besides "kind", and what it means."""

    def __init__(self, name, fields, about, **details):
        self.name, self.fields, self.about = name, tuple(fields), about
        self.__dict__.update(details)

    @property
    def constant(self):
        """The name of its JavaScript constant: "deep-graph" -> DEEP_GRAPH."""
        return self.name.upper().replace("-", "_")


# ---- Requests: page -> worker -> Python ---------------------------------------------------------
# `queued`: answered one at a time, in the order sent; the others are answered at once, even while
# Python waits in the middle of answering a queued one.
REQUESTS = (
    Kind("configure", ("id", "engineSource"), queued=True,
         about="The page's settings for a new interpreter, sent first: it installs the page's guards, and "
               "engineSource (the reader's edited tinygrad.py, or null for the lesson's) as the engine. A live "
               "interpreter never changes engine: the page replaces it instead."),
    Kind("run", ("id", "page", "code", "filename", "fresh", "check"), queued=True,
         about="Run a block's code in the namespace of page (a fresh one if fresh), with tracebacks naming "
               "filename; events begin, output and graph come while it runs, then its result. Whether the "
               "lesson's own machinery still answers is checked after a run that raised, and after any run when "
               "check is true (the page's re-runs): Python runs an empty block in a page of its own, which can "
               "only fail when something a block changed broke the runtime; then the run's error is broken."),
    Kind("call", ("id", "module", "fn", "kwargs", "page"), queued=True,
         about="Call module.fn(**kwargs), a function the module lists in PAGE_CALLS (page_calls.py), with "
               "the namespace of page too when page is not null; its result carries the value."),
    Kind("stop", ("ids",), queued=False,
         about="Stop: if the request Python answers now is one of ids and waits in an await, cancel it (an "
               "idle Python never sees the interrupt flag). No result comes back for a stop."),
)

# ---- Events: Python or the worker -> page -------------------------------------------------------
# `sender`: "python" (the dispatcher) or "worker" (what only JavaScript sees).
EVENTS = (
    Kind("begin", ("id",), sender="python", about="Python started answering request id."),
    Kind("output", ("id", "stream", "text"), sender="python",
         about="Text a run printed: stream is stdout, stderr or note (the page's own remarks)."),
    Kind("graph", ("id", "graph"), sender="python",
         about="A graph show() drew, after the text printed before it: {title, states} (tutor.figures."
               "expression_graph)."),
    Kind("deep-graph", (), sender="python",
         about="A run is building a chain of Values deep enough to crash Python when it is freed."),
    Kind("result", ("id", "ok", "error", "report", "engineChanged", "tasksLeft", "value", "printed",
                     "printedLines", "deepGraph"),
         sender="python",
         about="How request id ended. error: null or an error {kind, message, ...}. A run adds report (what "
               "its output showed of the error, \"\" if nothing), engineChanged (it changed the lesson's "
               "engine or what its figures compute with, such as math.tanh) and tasksLeft (an asyncio task it "
               "started ignored its cancellation and goes on): the page does not replay such a run; a call "
               "adds value, printed (the first lines the function printed, kept from the page's console) and "
               "printedLines (how many lines it printed in all). deepGraph: Python now "
               "holds a chain of Values that may crash it when freed."),
    Kind("status", ("state", "message", "progress", "boot"), sender="worker",
         about="The interpreter's start: state starting (progress 0..1), ready (boot: snapshot or plain) or "
               "error (message says why)."),
    Kind("fatal", ("error",), sender="worker",
         about="Python itself died (error.kind stack-overflow, process-exit or fatal); the page replaces the "
               "worker."),
)

# ---- Errors: the `error` of a result (or of a fatal event) --------------------------------------
# `by`: who finds it: "python" (the dispatcher's answer), "worker" or "page" (the page's runtime,
# for a request Python never answered).
ERRORS = (
    Kind("exception", ("type", "message", "traceback", "hint"), by="python",
         about="The code or the called function raised: type is the exception's class name, traceback the "
               "reader's part of it, hint the kind of plain-words hint added (hints.py) or null."),
    Kind("stopped", ("message",), by="python",
         about="Stop ended it: an interrupt, or the cancelled await of a waiting run (the page also uses it "
               "when Stop had to replace Python)."),
    Kind("exit", ("message", "status"), by="python", about="A block ended with a non-zero exit status."),
    Kind("not-allowed", ("message",), by="python",
         about="A call of a module or function the page may not call (not in the module's PAGE_CALLS)."),
    Kind("bad-request", ("message",), by="python",
         about="A request Python cannot read: not JSON, an unknown kind, a missing or mistyped field."),
    Kind("bad-arguments", ("message",), by="python",
         about="The keyword arguments of a call do not fit the function's parameters."),
    Kind("no-namespace", ("message",), by="python",
         about="A call asked for the namespace of a page none of whose blocks has run."),
    Kind("not-json", ("message",), by="python", about="The called function's value cannot be sent as JSON."),
    Kind("broken", ("message", "type"), by="python",
         about="The lesson's own machinery failed, not the code it ran: even an empty block fails, or the runtime "
               "itself raised (type: the exception's class name), after a block changed something it relies on "
               "(a standard module, say). A fresh Python mends it (the worker also answers it when it cannot "
               "carry a request)."),
    Kind("not-started", ("message",), by="worker", about="Python could not start, so nothing was run."),
    Kind("stack-overflow", ("message",), by="worker",
         about="What killed Python: the browser's stack ran out."),
    Kind("process-exit", ("message", "status"), by="worker",
         about="What killed Python: code ended Python's process (os._exit underneath)."),
    Kind("fatal", ("message",), by="worker", about="What killed Python: any other fatal error."),
    Kind("crashed", ("message", "cause"), by="page",
         about="Python died while the request waited; cause is the fatal event's error kind."),
    Kind("restarted", ("message",), by="page",
         about="Python was replaced while the request waited (Restart Python, another engine)."),
)

REQUEST = {kind.name: kind for kind in REQUESTS}
EVENT = {kind.name: kind for kind in EVENTS}
ERROR = {kind.name: kind for kind in ERRORS}
STREAMS = ("stdout", "stderr", "note")


def error(kind, message, **fields):
    """An error value {"kind", "message", ...} of one of the kinds above, with only its declared fields."""
    declared = ERROR[kind].fields
    unknown = set(fields) - set(declared)
    if unknown:
        raise ValueError(f"contract: an error of kind {kind!r} has no field {sorted(unknown)[0]!r}")
    return {"kind": kind, "message": message, **fields}
