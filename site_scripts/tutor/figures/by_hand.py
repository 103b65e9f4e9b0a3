"""Shared by the figures in which the reader works numbers out by hand (backprop_by_hand, neuron_by_hand).

What it is: the bookkeeping of a form checked field by field in a fixed order. A state holds only the
texts the reader typed, {field key: text}; every call reads them again: the fields that are right, in
order, then the one open field, then the locked ones (a text in a locked field is dropped). `entry()`
reads the text of the open field with display.typed_number, so bad input gets a sentence and never an
exception, and says whether the number is right; the figure names the slip of a wrong one itself.
What it is not: the figures' arithmetic (their models compute the expected numbers with the engine) or
their sentences.
"""
from .display import typed_number


def checked_texts(texts, keys):
    """A copy of `texts` ({key: text}) after checking it only names fields among `keys`."""
    if not isinstance(texts, dict) or not all(isinstance(key, str) and isinstance(text, str) for key, text in texts.items()):
        raise ValueError("state['texts'] must map each field to the text typed into it")
    unknown = sorted(set(texts) - set(keys))
    if unknown:
        raise ValueError(f"state['texts'] names fields this figure does not have: {', '.join(unknown)}")
    return dict(texts)


def rows(boxes, texts, agrees):
    """The form: one row per box ({"key", "label", "expected"}, in the order they are filled) with the
    text to show, whether it is right, whether it is the open field, and whether its text was checked
    and found wrong. `agrees(number, expected)` says when a typed number counts as right."""
    form, before_open = [], True
    for box in boxes:
        text = texts.get(box["key"], "")
        number, problem = typed_number(text, box["label"])
        right = before_open and problem is None and agrees(number, box["expected"])
        is_open = before_open and not right
        form.append({"key": box["key"], "label": box["label"], "text": text if before_open else "",
                     "right": right, "open": is_open, "invalid": is_open and bool(text.strip())})
        before_open = before_open and right
    return form


def open_row(form):
    """The open row of `form`, or None once every row is right."""
    return next((row for row in form if row["open"]), None)


def entry(form, key, text, what):
    """(number, problem) for `text` typed into the field `key`, which must be the open one; `what` names
    the field in the sentence about an empty field ("the gradient of e")."""
    current = open_row(form)
    if current is None or current["key"] != key:
        keys = [row["key"] for row in form]
        if key not in keys:
            raise ValueError(f"there is no field {key!r} in this figure")
        raise ValueError(f"the field {key!r} is not the open one" + (f": fill in {current['label']} first" if current else ""))
    return typed_number(text, what)
