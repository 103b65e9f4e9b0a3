"""Model of the figure "A neuron by hand": one tanh neuron with two inputs, forward and backward by the reader.

What it is: the neuron t = tanh(w₁·x₁ + w₂·x₂ + b) at x₁ = 2, x₂ = 3, w₁ = −1, w₂ = 1 and b = ln 2 − 1,
built by the engine the way its Neuron builds one (the weighted sum started from the bias, then tanh).
The bias is chosen so that the activation is n = ln 2 and the results are readable: t = tanh(ln 2) = 0.6,
tanh's local derivative 1 − t² = 0.64, and the gradients of t with respect to w₁, w₂ and b are 0.64 times
x₁, x₂ and 1. The reader fills six fields in order (n, t, 1 − t², then the three gradients), each checked
when entered, to two decimals; a wrong entry is compared with the usual slips (the bias or a product left
out, tanh forgotten, t² or 1 − t instead of 1 − t², the weight instead of the input, tanh's factor left
out) and bad input gets a sentence. The expected numbers come from the engine's graph: its data, the
local derivative it stored on tanh's edge, and the chain rule over its edges; once every field is right,
the engine's own backward() gives the column shown beside the reader's.
What it is not: the view (neuron_by_hand.mjs draws the neuron and the fields).
"""
import math

from tinygrad import Value

from .by_hand import checked_texts, entry, open_row, rows
from .display import number_text, state_field
from .graph_trace import chain_rule

TITLE = "A neuron by hand"
PAGE_CALLS = ("initial", "check_entry", "start_again")
X1, X2, W1, W2 = 2, 3, -1, 1
B = math.log(2) - 1  # makes the activation ln 2, so that t = tanh(ln 2) = 0.6 exactly
TOLERANCE = 0.005  # an entry is right when it agrees to two decimals
CLOSE = 0.05  # ... and close (round less) within this
FIELDS = [  # key, label: in the order the reader fills them
    ("n", "Activation n"),
    ("t", "Output t = tanh(n)"),
    ("local", "Local derivative 1 − t²"),
    ("w1", "Gradient of w₁"),
    ("w2", "Gradient of w₂"),
    ("b", "Gradient of b"),
]


def agrees(number, expected):
    return abs(number - expected) <= TOLERANCE


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


def closeness(typed):
    return f"Close: {typed} is off by more than rounding allows. Keep at least two decimals."


def slip(key, number, expected):
    """The sentence for a wrong `number` in the field `key`: the likely slip, else the rule to apply."""
    typed, n, t, local = number_text(number), expected["n"], expected["t"], expected["local"]
    weighted = {"w1": (W1, X1, "w₁", "x₁"), "w2": (W2, X2, "w₂", "x₂")}
    close = abs(number - expected[key]) <= CLOSE
    if key == "n":
        if agrees(number, n - B):
            return "That is w₁·x₁ + w₂·x₂ without the bias: add b too."
        if agrees(number, n - W1 * X1) or agrees(number, n - W2 * X2):
            return "One of the two products is missing: n adds w₁·x₁, w₂·x₂ and b."
        return closeness(typed) if close else f"Not {typed}. Multiply each input by its weight, then add both products and the bias: n = w₁·x₁ + w₂·x₂ + b."
    if key == "t":
        if agrees(number, n):
            return f"That is n itself. The neuron passes n through tanh: t = tanh({number_text(n)})."
        return closeness(typed) if close else (f"Not {typed}. t = tanh(n) = tanh({number_text(n)}): use a calculator's tanh key, or "
                f"math.tanh({number_text(n)}) in Python.")
    if key == "local":
        if agrees(number, t * t):
            return "That is t². The local derivative of tanh is 1 − t²: subtract it from 1."
        if agrees(number, 1 - t):
            return "Square t first: the local derivative is 1 − t², not 1 − t."
        if agrees(number, 1 - n * n):
            return "Use t, the output of tanh, not n: the local derivative is 1 − t²."
        return closeness(typed) if close else f"Not {typed}. tanh's local derivative comes from its output: 1 − t², with t = {number_text(t)}."
    if key in weighted:
        weight, x, weight_name, x_name = weighted[key]
        if agrees(number, local):
            return (f"That is how much t moves when n moves. n moves by {x_name} = {x} for each unit of {weight_name}: "
                    f"multiply by {x_name}.")
        if agrees(number, local * weight):
            return (f"That multiplies by the weight. The local derivative of {weight_name}·{x_name} for {weight_name} "
                    f"is the other factor, the input {x_name} = {x}.")
        if agrees(number, x):
            return f"That leaves tanh out: t moves by 1 − t² = {number_text(local)} for each unit n moves. Multiply by it."
        if agrees(number, t * x):
            return "That multiplies by t. The local derivative of tanh is 1 − t², not t."
        return closeness(typed) if close else (f"Not {typed}. Chain the two local derivatives: tanh's, 1 − t², times that of {weight_name}·{x_name} "
                f"for {weight_name}, the input {x_name}.")
    if agrees(number, 1):
        return f"That leaves tanh out: the sum passes b on with 1, and tanh multiplies it by 1 − t² = {number_text(local)}."
    if agrees(number, t):
        return "That multiplies by t. The local derivative of tanh is 1 − t², not t."
    return closeness(typed) if close else f"Not {typed}. b enters n with local derivative 1; chain it with tanh's, 1 − t²."


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


def view(texts, messages, warning=False):
    expected = expected_numbers(build())
    boxes = [{"key": key, "label": label, "expected": expected[key]} for key, label in FIELDS]
    form = rows(boxes, texts, agrees)
    current = open_row(form)
    engine = None
    if current is None:
        numbers = engine_column()
        engine = {key: number_text(number) for key, number in numbers.items()}
        same = all(math.isclose(numbers[key], expected[key], rel_tol=1e-9, abs_tol=1e-12) for key, _ in FIELDS)
        if not warning:
            messages = messages + ["Every field is right. Beside each one is what the engine computed for the same "
                                   "neuron, forward and with backward(): " + ("the same numbers." if same else
                                   "they differ, so the engine in use does not compute this neuron as the lesson's does.")]
    elif not warning:
        messages = messages + [f"Next: {current['label']}."]
    right = sum(row["right"] for row in form)
    return {
        "inputs": [["x₁", number_text(X1)], ["x₂", number_text(X2)], ["w₁", number_text(W1)], ["w₂", number_text(W2)],
                   ["b", number_text(B)]],
        "texts": {row["key"]: row["text"] for row in form if row["text"]},
        "form": [{key: row[key] for key in ("key", "label", "text", "right", "open", "invalid")} for row in form],
        "shown": {row["key"]: number_text(expected[row["key"]]) if row["right"] else None for row in form},
        "open": None if current is None else current["key"],
        "engine": engine,
        "finished": current is None,
        "right_text": f"{right} of {len(form)}",
        "messages": messages,
        "warning": warning,
        "description": (f"A neuron with inputs x₁ = {X1} and x₂ = {X2}, weights w₁ = {number_text(W1)} and "
                        f"w₂ = {number_text(W2)}, bias b = "
                        f"{number_text(B)}; {right} of the {len(form)} numbers filled in"
                        + "".join(f", {row['label']} = {number_text(expected[row['key']])}" for row in form if row["right"]) + "."),
    }


OPENING = "Work the neuron out by hand: first forward (n, then t), then backward, from t to each weight."


def initial():
    return view({}, [OPENING])


def unpacked(state):
    return checked_texts(state_field(state, "texts"), [key for key, _ in FIELDS])


def start_again(state):
    unpacked(state)
    return view({}, [OPENING])


def check_entry(state, box, text):
    """Check `text`, typed into the field `box` ("n", "t", "local", "w1", "w2" or "b")."""
    texts = unpacked(state)
    expected = expected_numbers(build())
    boxes = [{"key": key, "label": label, "expected": expected[key]} for key, label in FIELDS]
    if not isinstance(box, str):
        raise ValueError(f"box must name a field of this figure, not {box!r}")
    label = dict(FIELDS).get(box, box)
    number, problem = entry(rows(boxes, texts, agrees), box, text, label[0].lower() + label[1:])
    texts[box] = text
    if problem is not None:
        return view(texts, [problem], warning=True)
    if agrees(number, expected[box]):
        return view(texts, [right_sentence(box, expected)])
    return view(texts, [slip(box, number, expected)], warning=True)
