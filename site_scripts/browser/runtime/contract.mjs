// contract.mjs: the kinds of every message between the page and its Python, for JavaScript.
// What it is: constants written from site_scripts/tutor/runtime/contract.py, the one source, by
// `python3 site_scripts/hooks/contract_js.py`; the build stops when this file differs from what that
// writes, so edit contract.py, not this. runtime.mjs (the page's adapter) and worker.mjs (which
// carries the messages) import it.
// What it is not: the meaning of a kind beyond these comments (contract.py says it in full).

/** The requests the page sends (fields besides kind). */
export const REQUEST = Object.freeze({
  CONFIGURE: "configure", // id, engineSource
  RUN: "run", // id, page, code, filename, fresh, check
  CALL: "call", // id, module, fn, kwargs, page
  STOP: "stop", // ids
});

/** The events that come back. */
export const EVENT = Object.freeze({
  BEGIN: "begin", // id
  OUTPUT: "output", // id, stream, text
  GRAPH: "graph", // id, graph
  DEEP_GRAPH: "deep-graph", // no fields
  RESULT: "result", // id, ok, error, report, engineChanged, tasksLeft, value, printed, printedLines, deepGraph
  STATUS: "status", // state, message, progress, boot
  FATAL: "fatal", // error
});

/** The kinds of an error value, { kind, message, ... }. */
export const ERROR = Object.freeze({
  EXCEPTION: "exception", // type, message, traceback, hint
  STOPPED: "stopped", // message
  EXIT: "exit", // message, status
  NOT_ALLOWED: "not-allowed", // message
  BAD_REQUEST: "bad-request", // message
  BAD_ARGUMENTS: "bad-arguments", // message
  NO_NAMESPACE: "no-namespace", // message
  NOT_JSON: "not-json", // message
  BROKEN: "broken", // message, type
  NOT_STARTED: "not-started", // message
  STACK_OVERFLOW: "stack-overflow", // message
  PROCESS_EXIT: "process-exit", // message, status
  FATAL: "fatal", // message
  CRASHED: "crashed", // message, cause
  RESTARTED: "restarted", // message
});

/** The requests the worker hands to Python at once, even while Python answers another one. */
export const AT_ONCE = Object.freeze(["stop"]);
export const STREAMS = Object.freeze(["stdout", "stderr", "note"]);
