"""predictions.py: what a block computed, for the checked prediction about it (installed as `tutor.predictions`).

What it is: `observed(path, namespace)` reads the name a prediction is about, such as "x.grad", in the
namespace of the page's blocks, by name and attribute lookups only (no code is run), and returns the
number found there, or how many items a list or tuple found there holds, with the label of what it
read: {"value": 10.0, "label": "x.grad"}, {"value": 2, "label": "len(network.layers)"}. The page calls it (through
runtime.call, with the page's namespace: tutor.runtime.page_calls) after the reader's run of the block a prediction is
about, to say whether that run confirms the reader's answer.
What it is not: the check of the reader's answer, which the page does against the answer the build
computed with the engine (site_scripts/hooks/prediction_answers.py), before Python has even started.
"""
import math
import re

PAGE_CALLS = ("observed",)
PATH = re.compile(r"[A-Za-z]\w*(?:\.[A-Za-z]\w*)*")


def observed(path, namespace):
    """{"value", "label"}: the number at `path` ("x.grad") in `namespace`, or the length of the list or tuple
    there, labelled "len(p.edges)"; ValueError in plain words if there is none."""
    if not isinstance(path, str) or not PATH.fullmatch(path):
        raise ValueError(f"{path!r} is not a name such as x.grad")
    first, *attributes = path.split(".")
    if first not in namespace:
        raise ValueError(f"the page's blocks define no {first!r}")
    found = namespace[first]
    for depth, attribute in enumerate(attributes, start=2):
        try:
            found = getattr(found, attribute)
        except AttributeError:
            raise ValueError(f"{'.'.join(path.split('.')[:depth - 1])} has no {attribute!r}") from None
    if isinstance(found, (list, tuple)):
        return {"value": len(found), "label": f"len({path})"}
    if isinstance(found, bool) or not isinstance(found, (int, float)) or not math.isfinite(found):
        raise ValueError(f"{path} is {found!r}, not a number")
    return {"value": found, "label": path}
