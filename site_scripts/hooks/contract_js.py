"""contract_js.py: writes and checks the JavaScript copy of the page–Python contract.

What it is: the contract's kinds (requests, events, errors) are declared once, in Python
(site_scripts/tutor/runtime/contract.py). `javascript()` is the text of
site_scripts/browser/runtime/contract.mjs made from it: one frozen object of constants per list,
with each kind's fields and meaning as a comment. vendor.py calls `check()` on every build, which
stops the build when the file in the repository is not that text; `python3 site_scripts/hooks/
contract_js.py` writes it. tests/tutor/runtime/test_contract.py checks the same.
What it is not: the contract (contract.py) nor a hook of its own.
"""
import json
import runpy
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1]
CONTRACT = SCRIPTS / "tutor" / "runtime" / "contract.py"
JAVASCRIPT = SCRIPTS / "browser" / "runtime" / "contract.mjs"
COMMAND = "python3 site_scripts/hooks/contract_js.py"


def javascript():
    """The text contract.mjs must hold, from contract.py as it is now (read afresh on every call)."""
    contract = runpy.run_path(str(CONTRACT))
    lines = [
        "// contract.mjs: the kinds of every message between the page and its Python, for JavaScript.",
        "// What it is: constants written from site_scripts/tutor/runtime/contract.py, the one source, by",
        f"// `{COMMAND}`; the build stops when this file differs from what that",
        "// writes, so edit contract.py, not this. runtime.mjs (the page's adapter) and worker.mjs (which",
        "// carries the messages) import it.",
        "// What it is not: the meaning of a kind beyond these comments (contract.py says it in full).",
        "",
    ]
    lists = (("REQUEST", "The requests the page sends (fields besides kind).", contract["REQUESTS"]),
             ("EVENT", "The events that come back.", contract["EVENTS"]),
             ("ERROR", "The kinds of an error value, { kind, message, ... }.", contract["ERRORS"]))
    for name, about, kinds in lists:
        lines.append(f"/** {about} */")
        lines.append(f"export const {name} = Object.freeze({{")
        for kind in kinds:
            lines.append(f"  {kind.constant}: {json.dumps(kind.name)}, // {', '.join(kind.fields) or 'no fields'}")
        lines += ["});", ""]
    at_once = [kind.name for kind in contract["REQUESTS"] if not kind.queued]
    lines.append("/** The requests the worker hands to Python at once, even while Python answers another one. */")
    lines.append(f"export const AT_ONCE = Object.freeze({json.dumps(at_once)});")
    lines.append(f"export const STREAMS = Object.freeze({json.dumps(list(contract['STREAMS']))});")
    return "\n".join(lines) + "\n"


def check():
    """"" when contract.mjs holds what contract.py says, else a sentence saying what to run."""
    try:
        current = JAVASCRIPT.read_text(encoding="utf-8")
    except OSError:
        current = None
    if current == javascript():
        return ""
    return f"{JAVASCRIPT.name} does not match the contract it is written from, {CONTRACT.name}: run {COMMAND}"


if __name__ == "__main__":
    JAVASCRIPT.write_text(javascript(), encoding="utf-8")
    print(f"wrote {JAVASCRIPT}", file=sys.stderr)
