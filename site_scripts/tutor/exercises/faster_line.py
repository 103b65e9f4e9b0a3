"""Exercise (chapter "Training a line and an XOR network"): a learning rate that fits in 50 steps.

What it is: the hidden checks, hints and solution of the block with exercise="faster_line" in
docs/training.md. The reader picks `fast_rate` so that train_line(steps=50, learning_rate=fast_rate)
ends with a mean squared error below 1e-6. The check trains the line itself with the reader's rate.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from . import NotYet, engine, number, run_checks

STEPS = 50
TARGET_LOSS = 1e-6

HINTS = [
    "A larger learning rate takes longer steps, so fewer of them are needed. Doubling the default "
    "to 0.1 already brings the loss to about 9e-05 in 50 steps: keep going up.",
    "A step can also be too long: from about 0.24 on, the steps overshoot the minimum so far that "
    "the loss grows instead of falling (at 0.3 it explodes). The rates that work lie below that.",
    "Every rate from 0.17 to 0.218 gets below 1e-6 in 50 steps; 0.2 reaches a loss near 1e-7. "
    "At 0.22 the loss still falls, but too slowly to get there in 50 steps.",
]

SOLUTION = '''\
from tinygrad import train_line

fast_rate = 0.2                       # four times the default: longer steps, still stable
w_fast, b_fast, loss_fast = train_line(steps=50, learning_rate=fast_rate)
print(f"learning rate {fast_rate}, 50 steps: w = {w_fast:.4f}, b = {b_fast:.4f}, loss = {loss_fast:.1e}")
'''


def positive_rate(namespace):
    """fast_rate is a positive number"""
    rate = number(namespace, "fast_rate")
    if not rate > 0:
        raise NotYet(f"`fast_rate` is {rate!r}; a learning rate must be above 0 to step against the gradient.")


def fits_in_time(namespace):
    """train_line(steps=50, learning_rate=fast_rate) ends with a loss below 1e-6"""
    rate = number(namespace, "fast_rate")
    start_loss = engine().train_line(steps=0)[2]
    try:
        loss = engine().train_line(steps=STEPS, learning_rate=rate)[2]
    except OverflowError:
        raise NotYet(f"With fast_rate = {rate!r} the loss grew until the numbers overflowed: "
                     "the steps are far too long. Try a smaller rate.") from None
    if loss > start_loss:
        raise NotYet(f"With fast_rate = {rate!r} the loss grew from {start_loss!r} to {loss:.3g} in "
                     f"{STEPS} steps: the steps overshoot the minimum. Try a smaller rate.")
    if not loss < TARGET_LOSS:
        raise NotYet(f"With fast_rate = {rate!r} the loss after {STEPS} steps is {loss:.2e}, it should be "
                     f"below {TARGET_LOSS:.0e}. Try a larger rate.")


def check(namespace):
    return run_checks(namespace, [positive_rate, fits_in_time])
