"""Shared by the figures in which the reader works numbers out by hand (backprop_by_hand, neuron_by_hand).

What it is: the bookkeeping of a form checked field by field in a fixed order. A state holds only the
reader's entries, {field key: {"text": as typed, "number": its number}}; every call checks them again: the
fields that are right, in order, then the one open field, then the locked ones (whose entries are dropped).
The page reads the text (figure.mjs's numberField, numbers.mjs's readNumber) and sends only numbers.
What it is not: the reading of text, the figures' arithmetic (their models compute the expected numbers with
the engine) or their sentences.
"""
from .display import checked_number


def checked_entry(text, number):
    """{"text", "number"}: an entry as the page sends it, or a ValueError (the page sends only numbers)."""
    if not isinstance(text, str):
        raise ValueError(f"the entry's text must be the text of the field, not {text!r}")
    return {"text": text, "number": checked_number("the entry's number", number)}


def checked_entries(entries, keys):
    """A copy of `entries` ({key: {"text", "number"}}) after checking it only names fields among `keys`."""
    if not isinstance(entries, dict) or not all(isinstance(key, str) and isinstance(entry, dict) and set(entry) == {"text", "number"}
                                                for key, entry in entries.items()):
        raise ValueError("state['entries'] must map each field to the text typed into it and its number")
    unknown = sorted(set(entries) - set(keys))
    if unknown:
        raise ValueError(f"state['entries'] names fields this figure does not have: {', '.join(unknown)}")
    return {key: checked_entry(entry["text"], entry["number"]) for key, entry in entries.items()}


def rows(boxes, entries, agrees):
    """The form: one row per box ({"key", "label", "expected"}, in the order they are filled) with the
    text to show, whether it is right, whether it is the open field, and whether its entry was checked
    and found wrong. `agrees(number, expected)` says when an entry's number counts as right."""
    form, before_open = [], True
    for box in boxes:
        entry = entries.get(box["key"]) if before_open else None
        right = before_open and entry is not None and agrees(entry["number"], box["expected"])
        is_open = before_open and not right
        form.append({"key": box["key"], "label": box["label"], "text": entry["text"] if entry else "",
                     "right": right, "open": is_open, "invalid": is_open and entry is not None})
        before_open = before_open and right
    return form


def kept(form, entries):
    """The entries of `form`'s right fields and its open one: what the next state holds."""
    return {row["key"]: entries[row["key"]] for row in form if row["key"] in entries and (row["right"] or row["open"])}


def open_row(form):
    """The open row of `form`, or None once every row is right."""
    return next((row for row in form if row["open"]), None)


def entry(form, key, text, number):
    """The entry {"text", "number"} typed into the field `key`, which must be the open one."""
    current = open_row(form)
    if current is None or current["key"] != key:
        keys = [row["key"] for row in form]
        if key not in keys:
            raise ValueError(f"there is no field {key!r} in this figure")
        raise ValueError(f"the field {key!r} is not the open one" + (f": fill in {current['label']} first" if current else ""))
    return checked_entry(text, number)
