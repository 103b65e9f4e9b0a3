"""Model of the figure "A neuron by hand": one tanh neuron with two inputs, forward and backward by the reader.

What it is: the neuron t = tanh(w₁·x₁ + w₂·x₂ + b) at x₁ = 2, x₂ = 3, w₁ = −1, w₂ = 1 and b = ln 2 − 1,
built by the engine the way its Neuron builds one (the weighted sum started from the bias, then tanh).
The bias is chosen so that the weighted sum is n = ln 2 and the results are readable: t = tanh(ln 2) = 0.6,
tanh's local derivative 1 − t² = 0.64, and the gradients of t with respect to w₁, w₂ and b are 0.64 times
x₁, x₂ and 1. The reader fills six fields in order (n, t, 1 − t², then the three gradients), each checked
when entered. A reader rounds and carries their own numbers on, so an entry is right when it lies within
rounding (ROUNDING, two decimals) of a number the reader may honestly have worked it out from: the exact
value, or what the step gives (FROM: t from n, 1 − t² from t, each gradient from 1 − t²) from a number
they may hold in the field it is computed from, which is what they typed there or the unrounded number
their calculator still holds (the step's result from a number they held before, or the exact value, when
what they typed is that number rounded). Rounding is allowed once, at the entry: n = 0.69 carried on gives
t = 0.598 (so 0.60, 0.598, not 0.59), 1 − t² = 0.6424 and a gradient of w₂ of 1.9273, all right. A wrong
entry is compared with the usual slips (the bias or a product left out, tanh forgotten, t² or 1 − t instead
of 1 − t², the weight instead of the input, the other input, a lost sign, tanh's factor left out), computed
from the exact numbers and from the reader's own (text that is not a number stays in the page: figure.mjs's
numberField). The exact numbers come from the
engine's graph: its data, the local derivative it stored on tanh's edge, and the chain rule over its edges;
once every field is right, the engine's own backward() gives the column shown beside the reader's, and the
last message names each field where the reader's carried rounding left their number more than rounding
away from the engine's. Every state says how many fields are right (`progress`), which the page keeps for the
reader's work file.
What it is not: the view (neuron_by_hand.mjs draws the neuron and the fields).
"""
import math

from tinygrad import Value

from .by_hand import checked_entries, entry, kept, open_row, rows
from .display import exact_text, number_text, state_field
from .graph_trace import chain_rule

TITLE = "A neuron by hand"
PAGE_CALLS = ("initial", "check_entry", "start_again")
SAVES_PROGRESS = True  # its states carry `progress`, the fields right: the work file and the class overview count it
X1, X2, W1, W2 = 2, 3, -1, 1
B = math.log(2) - 1  # makes the weighted sum ln 2, so that t = tanh(ln 2) = 0.6 exactly
ROUNDING = 0.005  # what rounding to two decimals may move a number by
CLOSE = 0.05  # a wrong entry this near a right one is "close"
FIELDS = [  # key, label: in the order the reader fills them
    ("n", "Weighted sum n = w₁x₁ + w₂x₂ + b"),
    ("t", "Output t = tanh(n)"),
    ("local", "Local derivative 1 − t²"),
    ("w1", "Gradient of w₁"),
    ("w2", "Gradient of w₂"),
    ("b", "Gradient of b"),
]
NAMES = {"n": "n", "t": "t", "local": "1 − t²", "w1": "the gradient of w₁", "w2": "the gradient of w₂",
         "b": "the gradient of b"}  # the fields as the sentences name them
FROM = {  # field: (the field it is computed from, the step the reader takes from that number)
    "t": ("n", lambda n: Value(n).tanh().data),
    "local": ("t", lambda t: 1 - t * t),
    "w1": ("local", lambda local: local * X1),
    "w2": ("local", lambda local: local * X2),
    "b": ("local", lambda local: local * 1),
}


def agrees(number, expected):
    """Whether `number` is `expected` to two decimals (a slip's value, the exact value)."""
    return abs(number - expected) <= ROUNDING


def within(number, ranges):
    return any(low <= number <= high for low, high in ranges)


def own_numbers(entries):
    """{field: number} of the reader's entries."""
    return {key: entry["number"] for key, entry in entries.items()}


def sources(key, expected, mine):
    """The numbers the reader may honestly have worked field `key` out from: its exact value, and what the
    step gives from each number they may hold in the field it is computed from (held)."""
    found = [expected[key]]
    if key in FROM and FROM[key][0] in mine:
        source, step = FROM[key]
        found += [step(number) for number in held(source, expected, mine)]
    return found


def held(key, expected, mine):
    """The numbers the reader may hold for field `key`, which they filled in: what they typed, and each number
    they may have worked it out from (sources) that what they typed is a rounding of (their calculator's)."""
    return [mine[key]] + [number for number in sources(key, expected, mine) if agrees(mine[key], number)]


def accepted_ranges(key, expected, mine):
    """[(low, high), ...]: the numbers field `key` takes as right: within ROUNDING of a number the reader may
    have worked it out from (sources). Rounding is allowed once, at this entry: what they typed before
    counts as it is, or as the unrounded number it was rounded from."""
    return [(number - ROUNDING, number + ROUNDING) for number in sources(key, expected, mine)]


def distance(number, ranges):
    return min(max(low - number, number - high, 0.0) for low, high in ranges)


def build():
    """The engine's neuron: {"x1", "x2", "w1", "w2", "b", "n", "t"} as Values (x₁ and x₂ too, as leaves)."""
    values = {name: Value(number) for name, number in (("x1", X1), ("x2", X2), ("w1", W1), ("w2", W2), ("b", B))}
    values["n"] = sum((values[w] * values[x] for w, x in (("w1", "x1"), ("w2", "x2"))), values["b"])
    values["t"] = values["n"].tanh()
    return values


def expected_numbers(values):
    """What each field should hold, from the engine's graph: n and t are its data, 1 − t² is the local
    derivative stored on tanh's edge, and the gradients of t follow from the edges by the chain rule."""
    _, gradients, _ = chain_rule(values["t"])
    [(_, local_derivative)] = values["t"].edges
    return {"n": values["n"].data, "t": values["t"].data, "local": local_derivative,
            "w1": gradients[values["w1"]], "w2": gradients[values["w2"]], "b": gradients[values["b"]]}


def engine_column():
    """The engine's own numbers for the side-by-side column: its forward pass and its backward()."""
    values = build()
    values["t"].backward()
    [(_, local_derivative)] = values["t"].edges
    return {"n": values["n"].data, "t": values["t"].data, "local": local_derivative,
            "w1": values["w1"].grad, "w2": values["w2"].grad, "b": values["b"].grad}


def decimals(number_typed):
    text = number_typed.strip().replace("−", "-")
    return len(text.partition(".")[2]) if "e" not in text.lower() else 0


def closeness(key, text, number, mine):
    """The sentence for an entry near a right one that rounding cannot explain. True for any entry: it only
    says where to work from (the reader's own number before it), and asks for two decimals only of an
    entry that has fewer."""
    typed = number_text(number)
    if key in FROM and FROM[key][0] in mine:
        source = FROM[key][0]
        again = f"Work it out again from your {NAMES[source]} = {number_text(mine[source])}"
    else:
        again = "Work it out again from the inputs: n = w₁·x₁ + w₂·x₂ + b"
    keep = ", and keep at least two decimals" if decimals(text) < 2 else ""
    return f"Close, but {typed} is off by more than rounding explains. {again}{keep}."


def slips(key, n, t, local):
    """[(the number a slip gives in field `key`, its sentence)], from the numbers n, t and 1 − t² (the exact
    ones, or the reader's own)."""
    weighted = {"w1": (W1, X1, "w₁", "x₁"), "w2": (W2, X2, "w₂", "x₂")}
    if key == "n":
        return [(n - B, "That is w₁·x₁ + w₂·x₂ without the bias: add b too."),
                (n - W1 * X1, "One of the two products is missing: n adds w₁·x₁, w₂·x₂ and b."),
                (n - W2 * X2, "One of the two products is missing: n adds w₁·x₁, w₂·x₂ and b.")]
    if key == "t":
        return [(n, f"That is n itself. The neuron passes n through tanh: t = tanh({number_text(n)}).")]
    if key == "local":
        return [(t * t, "That is t². The local derivative of tanh is 1 − t²: subtract it from 1."),
                (1 - t, "Square t first: the local derivative is 1 − t², not 1 − t."),
                (1 - n * n, "Use t, the output of tanh, not n: the local derivative is 1 − t².")]
    if key in weighted:
        weight, x, weight_name, x_name = weighted[key]
        other_x, other_x_name = (X2, "x₂") if key == "w1" else (X1, "x₁")
        return [(local, f"That is how much t moves when n moves. n moves by {x_name} = {x} for each unit of "
                        f"{weight_name}: multiply by {x_name}."),
                (-local * x, f"The sign is lost: 1 − t² = {number_text(local)} times {x_name} = {x} is "
                             f"{number_text(local * x)}."),
                (local * other_x, f"That multiplies by {other_x_name} = {other_x}, the other input. {weight_name} "
                                  f"multiplies {x_name}, so n moves by {x_name} = {x} for each unit of {weight_name}."),
                (local * weight, f"That multiplies by the weight. The local derivative of {weight_name}·{x_name} for "
                                 f"{weight_name} is the other factor, the input {x_name} = {x}."),
                (x, f"That leaves tanh out: t moves by 1 − t² = {number_text(local)} for each unit n moves. "
                    "Multiply by it."),
                (t * x, "That multiplies by t. The local derivative of tanh is 1 − t², not t.")]
    return [(1, f"That leaves tanh out: the sum passes b on with 1, and tanh multiplies it by 1 − t² = "
                f"{number_text(local)}."),
            (-local, f"The sign is lost: 1 − t² = {number_text(local)} times the sum's 1 is {number_text(local)}."),
            (t, "That multiplies by t. The local derivative of tanh is 1 − t², not t.")]


def rule(key, expected, mine):
    """The sentence for a wrong entry that is no known slip: the rule to apply."""
    n, t = mine.get("n", expected["n"]), mine.get("t", expected["t"])
    if key == "n":
        return "Multiply each input by its weight, then add both products and the bias: n = w₁·x₁ + w₂·x₂ + b."
    if key == "t":
        return f"t = tanh(n) = tanh({number_text(n)}): use a calculator's tanh key, or math.tanh({number_text(n)}) in Python."
    if key == "local":
        return f"tanh's local derivative comes from its output: 1 − t², with t = {number_text(t)}."
    if key == "b":
        return "b enters n with local derivative 1; chain it with tanh's, 1 − t²."
    weight_name, x_name = {"w1": ("w₁", "x₁"), "w2": ("w₂", "x₂")}[key]
    return (f"Chain the two local derivatives: tanh's, 1 − t², times that of {weight_name}·{x_name} for {weight_name}, "
            f"the input {x_name}.")


def slip(key, text, number, expected, mine):
    """The sentence for a wrong `number` (typed as `text`) in the field `key`: the likely slip (from the
    reader's own numbers before it, or the exact ones), else close, else the rule to apply."""
    own = {name: mine.get(name, expected[name]) for name in ("n", "t", "local")}
    for numbers in (own, expected):
        for value, sentence in slips(key, numbers["n"], numbers["t"], numbers["local"]):
            if agrees(number, value):
                return sentence
    if distance(number, accepted_ranges(key, expected, mine)) <= CLOSE:
        return closeness(key, text, number, mine)
    return f"Not {exact_text(number)}. {rule(key, expected, mine)}"


def right_sentence(key, expected):
    text = number_text(expected[key])
    return {
        "n": f"Right: n = ({number_text(W1)})·{X1} + {number_text(W2)}·{X2} + ({number_text(B)}) = {text}.",
        "t": f"Right: t = tanh({number_text(expected['n'])}) = {text}.",
        "local": f"Right: 1 − t² = 1 − {number_text(expected['t'])}² = {text}.",
        "w1": f"Right: (1 − t²) · x₁ = {number_text(expected['local'])} · {X1} = {text}.",
        "w2": f"Right: (1 − t²) · x₂ = {number_text(expected['local'])} · {X2} = {text}.",
        "b": f"Right: (1 − t²) · 1 = {text}.",
    }[key]


def right_message(key, number, expected, mine):
    """The sentence for a right entry; one that is right only as carried from the reader's own rounded
    entry before it says so."""
    sentence = right_sentence(key, expected)
    if agrees(number, expected[key]):
        return sentence
    source = FROM[key][0]
    return (f"{sentence} Your {number_text(number)} is what your own {NAMES[source]} = {number_text(mine[source])} "
            "gives: rounding carried on.")


def boxes_of(expected, entries):
    """The form's boxes for by_hand.rows: each with the ranges of numbers it takes as right."""
    mine = own_numbers(entries)
    return [{"key": key, "label": label, "expected": accepted_ranges(key, expected, mine)} for key, label in FIELDS]


def finished_message(numbers, expected, mine):
    """The message once every field is right: the engine's column (`numbers`) beside the reader's entries
    (`mine`), and each field where the reader's number is more than rounding from the engine's."""
    opening = "Every field is right. Beside each one is what the engine computed for the same neuron, forward and with backward(): "
    if not all(math.isclose(numbers[key], expected[key], rel_tol=1e-9, abs_tol=1e-12) for key, _ in FIELDS):
        return opening + "they differ, so the engine in use does not compute this neuron as the lesson's does."
    apart = [key for key, _ in FIELDS if not agrees(mine[key], numbers[key])]
    if not apart:
        return opening + "the same numbers as yours, to two decimals."
    named = [f"{NAMES[key]} (your {number_text(mine[key])}, the engine's {number_text(numbers[key])})" for key in apart]
    return (opening + "the same numbers as yours, to two decimals, except " + (", ".join(named[:-1]) + " and "
            if len(named) > 1 else "") + named[-1] + ": there the rounding you carried on from field to field added up "
            f"to more than {number_text(ROUNDING)}.")


def new_state(entries, messages, warning=False):
    expected = expected_numbers(build())
    form = rows(boxes_of(expected, entries), entries, within)
    current = open_row(form)
    engine = None
    if current is None:
        numbers = engine_column()
        engine = {key: number_text(number) for key, number in numbers.items()}
        if not warning:
            messages = messages + [finished_message(numbers, expected, own_numbers(entries))]
    elif not warning:
        messages = messages + [f"Next: {current['label']}."]
    right = sum(row["right"] for row in form)
    return {
        "inputs": [["x₁", number_text(X1)], ["x₂", number_text(X2)], ["w₁", number_text(W1)], ["w₂", number_text(W2)],
                   ["b", number_text(B)]],
        "entries": kept(form, entries),
        "form": [{key: row[key] for key in ("key", "label", "text", "right", "open", "invalid")} for row in form],
        "shown": {row["key"]: number_text(expected[row["key"]]) if row["right"] else None for row in form},
        "open": None if current is None else current["key"],
        "engine": engine,
        "finished": current is None,
        "right_text": f"{right} of {len(form)}",
        "progress": {"right": right, "total": len(form)},  # saved by the page for "Your work" and the class overview
        "messages": messages,
        "warning": warning,
        "description": (f"A neuron with inputs x₁ = {X1} and x₂ = {X2}, weights w₁ = {number_text(W1)} and "
                        f"w₂ = {number_text(W2)}, bias b = "
                        f"{number_text(B)}; {right} of the {len(form)} numbers filled in"
                        + "".join(f", {row['label']} = {number_text(expected[row['key']])}" for row in form if row["right"]) + "."),
    }


OPENING = "Work the neuron out by hand: first forward (n, then t), then backward, from t to each weight."


def initial():
    return new_state({}, [OPENING])


def unpacked(state):
    return checked_entries(state_field(state, "entries"), [key for key, _ in FIELDS])


def start_again(state):
    unpacked(state)
    return new_state({}, [OPENING])


def check_entry(state, box, text, number):
    """Check `number`, typed as `text` into the field `box` ("n", "t", "local", "w1", "w2" or "b")."""
    entries = unpacked(state)
    expected = expected_numbers(build())
    if not isinstance(box, str):
        raise ValueError(f"box must name a field of this figure, not {box!r}")
    form = rows(boxes_of(expected, entries), entries, within)
    entries[box] = entry(form, box, text, number)
    number = entries[box]["number"]
    mine = own_numbers({key: entries[key] for key, _ in FIELDS[:[key for key, _ in FIELDS].index(box)]})
    if within(number, accepted_ranges(box, expected, mine)):
        return new_state(entries, [right_message(box, number, expected, mine)])
    return new_state(entries, [slip(box, text, number, expected, mine)], warning=True)
