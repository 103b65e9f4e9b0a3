"""Model of the figure "A formula you can evaluate but not picture".

What it is: f(x) = 0.1·x³ − x + 2·tanh(4x − 2), built from engine operations. At one chosen
point the engine gives f(x) and, through backward(), f'(x), from which the local tangent
follows. Every point the reader asked about stays drawn (the last KEPT of them), so the shape
emerges only as far as the points asked about show it; the whole curve (several rises, dips and
turning points on −3 ≤ x ≤ 3) is sampled only when the reader asks for it.
What it is not: the view (mystery_curve.mjs draws the plot and forwards the slider and button).
"""
from tinygrad import Value

from .display import checked_number, line_through, number_text, sample_curve, state_field

TITLE = "A formula you can evaluate but not picture"
PAGE_CALLS = ("initial", "move_point", "reveal_full_curve")
FORMULA = "f(x) = 0.1·x³ − x + 2·tanh(4x − 2)"
X_RANGE = {"min": -3, "max": 3, "step": 0.05}
Y_RANGE = [-2.5, 2.5]
TANGENT_HALF_WIDTH = 0.6
START_X = -1
KEPT = 60  # the points asked about that stay drawn, the latest


def f(x):
    """The formula on an engine Value (or a number, which becomes one)."""
    x = Value.wrap(x)
    return 0.1 * x**3 - x + 2 * (4 * x - 2).tanh()


def value_and_slope(x):
    point = Value(x)
    result = f(point)
    result.backward()
    return result.data, point.grad


def asked_points(asked):
    """The points asked about before (their x, checked: the state comes from the page), without repeats."""
    if not isinstance(asked, list):
        raise ValueError("state must be the dictionary this figure returned last, with a list of the points asked about")
    xs = [checked_number("A point asked about", x, X_RANGE["min"], X_RANGE["max"]) for x in asked[-KEPT:]]
    return list(dict.fromkeys(xs))


def new_state(x, revealed, asked=()):
    x = checked_number("Known evaluation point x", x, X_RANGE["min"], X_RANGE["max"])
    value, slope = value_and_slope(x)
    asked = [*(other for other in asked if other != x), x][-KEPT:]
    return {
        "asked": asked,
        "asked_points": [[other, f(other).data] for other in asked],
        "formula": FORMULA,
        "x": x,
        "x_range": X_RANGE,
        "y_range": Y_RANGE,
        "x_text": number_text(x, 3),
        "value": value,
        "value_text": number_text(value, 4),
        "slope_text": number_text(slope, 4),
        "tangent": line_through(x, value, slope, x - TANGENT_HALF_WIDTH, x + TANGENT_HALF_WIDTH),
        "revealed": bool(revealed),
        "curve": sample_curve(lambda t: f(t).data, X_RANGE["min"], X_RANGE["max"]) if revealed else None,
        "description": (f"At x = {number_text(x, 3)}: f(x) = {number_text(value, 4)}, slope {number_text(slope, 4)}; "
                        f"{len(asked)} point{'' if len(asked) == 1 else 's'} asked about drawn; "
                        f"{'the full curve is drawn' if revealed else 'the curve between them is not'}."),
    }


def initial():
    return new_state(START_X, revealed=False)


def move_point(state, x):
    return new_state(x, state_field(state, "revealed"), asked_points(state_field(state, "asked")))


def reveal_full_curve(state):
    return new_state(state_field(state, "x"), revealed=True, asked=asked_points(state_field(state, "asked")))
