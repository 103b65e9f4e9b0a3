"""Model of the figure "The loss experiment": one example x = 2, y = 5, prediction w·x + b with b = 0.

What it is: for the chosen loss (squared or absolute error) and weight w, the engine computes
the prediction, the loss and, by backward(), the gradient with respect to the prediction and
to the weight; "Take one step" moves w by −0.1 × the weight gradient. The engine has no
absolute value, so this model adds one as a new primitive: a Value whose single edge carries
the sign of the error, with the subgradient 0 chosen where the error is exactly zero.
What it is not: the view (loss_experiment.mjs draws L(w) and forwards the controls).
"""
import math

from tinygrad import Value

from .display import checked_number, line_through, number_text, sample_curve, state_field

TITLE = "The loss experiment"
PAGE_CALLS = ("initial", "choose_loss", "move_weight", "reset", "take_one_step")
X, Y, B = 2, 5, 0
LEARNING_RATE = 0.1
START_W = 1
W_RANGE = {"min": -1, "max": 4, "step": 0.05}
LOSS_NAMES = {"squared": "Squared error", "absolute": "Absolute error"}
PLOT_Y = {"squared": [-2, 50], "absolute": [-0.5, 7.5]}


def absolute(error):
    """|error| as an engine Value; its local derivative is the sign, 0 at zero."""
    sign = (error.data > 0) - (error.data < 0)
    return Value(abs(error.data), ((error, float(sign)),))


def loss_of(prediction, loss_kind):
    error = prediction - Y
    return error**2 if loss_kind == "squared" else absolute(error)


def forward_backward(loss_kind, w):
    """(prediction, loss) Values at weight w after backward()."""
    weight = Value(w)
    prediction = weight * X + B
    loss = loss_of(prediction, loss_kind)
    loss.backward()
    return weight, prediction, loss


def checked(loss_kind, w):
    if loss_kind not in LOSS_NAMES:
        raise ValueError(f"the loss must be one of {', '.join(LOSS_NAMES)}, not {loss_kind!r}")
    return checked_number("Weight w", w, W_RANGE["min"], W_RANGE["max"])


def new_state(loss_kind, w, note=None):
    w = checked(loss_kind, w)
    weight, prediction, loss = forward_backward(loss_kind, w)
    messages = [note] if note else []
    if loss_kind == "absolute" and prediction.data == Y:
        messages.append(
            "The error is zero, where absolute error has no derivative: "
            "this figure uses the subgradient 0, so a step leaves w where it is."
        )
    return {
        "loss_kind": loss_kind,
        "loss_names": LOSS_NAMES,
        "w": w,
        "w_range": W_RANGE,
        "plot_y": PLOT_Y[loss_kind],
        "w_text": number_text(w),
        "prediction_text": number_text(prediction.data),
        "loss_text": number_text(loss.data),
        "prediction_gradient_text": number_text(prediction.grad),
        "weight_gradient_text": number_text(weight.grad),
        "curve": sample_curve(lambda t: loss_of(Value(t) * X + B, loss_kind).data, W_RANGE["min"], W_RANGE["max"]),
        "point": [w, loss.data],
        "tangent": line_through(w, loss.data, weight.grad, w - 0.75, w + 0.75),
        "messages": messages,
        "description": (f"{LOSS_NAMES[loss_kind]} at w = {number_text(w)}: prediction {number_text(prediction.data)}, "
                        f"loss {number_text(loss.data)}, weight gradient {number_text(weight.grad)}."),
    }


def initial():
    return new_state("squared", START_W)


def choose_loss(state, loss_kind):
    return new_state(loss_kind, state_field(state, "w"))


def move_weight(state, w):
    return new_state(state_field(state, "loss_kind"), w)


def reset(state):
    return new_state(state_field(state, "loss_kind"), START_W)


def take_one_step(state):
    loss_kind = state_field(state, "loss_kind")
    w = checked(loss_kind, state_field(state, "w"))
    weight, _, _ = forward_backward(loss_kind, w)
    new_w = w - LEARNING_RATE * weight.grad
    if not (math.isfinite(new_w) and W_RANGE["min"] <= new_w <= W_RANGE["max"]):
        return new_state(loss_kind, w, note=f"That step would leave the plotted range of w; w stays at {number_text(w)}.")
    note = (f"Step: w ← {number_text(w)} − {number_text(LEARNING_RATE)} × ({number_text(weight.grad)})"
            f" = {number_text(new_w)}.")
    return new_state(loss_kind, new_w, note=note)
