"""xor.py: benchmark of the engine against micrograd 0.1.0 on the lesson's XOR training.

What it is: the same workload on both engines (a 2-4-1 network, tanh hidden layer, linear output,
initial weights drawn with rng.uniform(-1, 1) from random.Random(42) layer by layer and neuron by
neuron, zero biases, mean squared error over the four XOR examples, 1000 full-batch steps, learning
rate 0.1), timed in alternating runs in one process; it prints the medians and their ratio (target:
this engine takes at most 0.35 of micrograd's time), and the best runs, which a busy machine
disturbs least. It first checks that both engines end with the same predictions, so the two really
did the same work. It also times forward + backward of a
100,000-node chain, and, when Node and node_modules/pyodide are there, the engine's XOR inside
Pyodide. micrograd has no tanh; one is added below in micrograd's own style.

What it is not: a test (timings depend on the machine; nothing here passes or fails on speed).

Run: `.venv/bin/python tests/benchmarks/xor.py [--repeats N] [--no-pyodide]`, or from Python:
`results = xor.run(repeats=5)` then `print(xor.format_report(results))`.
Inside Pyodide (used by run() itself): `--engine-only` prints the engine's medians as JSON.
"""
import argparse
import json
import math
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "engine"))

import tinygrad  # noqa: E402  (after the path is set)

SIZES = [2, 4, 1]
SEED = 42
STEPS = 1000
LEARNING_RATE = 0.1
EXAMPLES = [([0, 0], -1), ([0, 1], 1), ([1, 0], 1), ([1, 1], -1)]
CHAIN_LENGTH = 100_000
TARGET_RATIO = 0.35


def engine_xor(steps=STEPS):
    """The engine's own training function, exactly as the lesson runs it; returns the predictions."""
    predictions, _ = tinygrad.train_xor(steps=steps, learning_rate=LEARNING_RATE)
    return predictions


def micrograd_xor(steps=STEPS):
    """The same training written with micrograd's Value; returns the predictions."""
    from micrograd.engine import Value

    if not hasattr(Value, "tanh"):
        Value.tanh = micrograd_style_tanh
    rng = random.Random(SEED)
    layers = [
        [([Value(rng.uniform(-1, 1)) for _ in range(n_in)], Value(0.0)) for _ in range(n_out)]
        for n_in, n_out in zip(SIZES, SIZES[1:])
    ]
    parameters = [p for layer in layers for weights, bias in layer for p in weights + [bias]]

    def predict(inputs):
        for index, layer in enumerate(layers):
            totals = [sum((w * x for w, x in zip(weights, inputs)), bias) for weights, bias in layer]
            inputs = totals if index == len(layers) - 1 else [t.tanh() for t in totals]
        return inputs[0]

    for _ in range(steps):
        loss = sum((predict(x) - y) ** 2 for x, y in EXAMPLES) * (1 / len(EXAMPLES))
        for parameter in parameters:
            parameter.grad = 0.0
        loss.backward()
        for parameter in parameters:
            parameter.data -= LEARNING_RATE * parameter.grad
    return [predict(x).data for x, _ in EXAMPLES]


def micrograd_style_tanh(self):
    """tanh for micrograd's Value, written the way micrograd writes relu: a closure per node."""
    from micrograd.engine import Value

    t = math.tanh(self.data)
    out = Value(t, (self,), "tanh")

    def _backward():
        self.grad += (1 - t**2) * out.grad

    out._backward = _backward
    return out


def engine_chain(length=CHAIN_LENGTH):
    """Forward and backward of a chain of `length` additions; returns the leaf's gradient."""
    start = tinygrad.Value(1.0)
    node = start
    for _ in range(length):
        node = node + 0.5
    node.backward()
    return start.grad


def seconds(function):
    """CPU seconds `function()` takes: other programs on a busy machine disturb it less than wall time."""
    started = time.process_time()
    function()
    return time.process_time() - started


def check_same_workload(steps=STEPS):
    """Both engines must end with the same predictions; returns the largest difference."""
    ours, theirs = engine_xor(steps), micrograd_xor(steps)
    difference = max(abs(a - b) for a, b in zip(ours, theirs))
    if difference > 1e-9:
        raise RuntimeError(f"the engines disagree, so the workloads differ: {ours} versus {theirs}")
    return difference


def median_seconds(function, repeats):
    return statistics.median(seconds(function) for _ in range(repeats))


def engine_medians(repeats):
    """Median seconds of the engine's XOR training and of the 100,000-node chain."""
    return {
        "engine_xor_seconds": median_seconds(engine_xor, repeats),
        "engine_chain_seconds": median_seconds(engine_chain, repeats),
    }


def pyodide_medians(repeats):
    """engine_medians() measured inside Pyodide under Node, or None if Node or Pyodide is missing."""
    node = shutil.which("node")
    if not node or not (REPO / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        return None
    command = [node, "tests/pyodide/run_in_pyodide.mjs", "tests/benchmarks/xor.py", "--engine-only"]
    finished = subprocess.run(
        command + ["--repeats", str(repeats)], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    if finished.returncode != 0:
        raise RuntimeError(f"the benchmark failed inside Pyodide:\n{finished.stdout}\n{finished.stderr}")
    return json.loads(next(line for line in finished.stdout.splitlines() if line.startswith("{")))


def run(repeats=5, include_pyodide=True, steps=STEPS, chain_length=CHAIN_LENGTH):
    """Measure everything; returns a dict of plain numbers (seconds are medians). Fewer `steps` and a
    shorter chain than the benchmark's measure the same work in less time (test_bench_smoke.py)."""
    difference = check_same_workload(steps)
    engine_times, micrograd_times = [], []
    for _ in range(repeats):  # alternate, so a slow moment of the machine hits both
        engine_times.append(seconds(lambda: engine_xor(steps)))
        micrograd_times.append(seconds(lambda: micrograd_xor(steps)))
    results = {
        "repeats": repeats, "steps": steps, "chain_length": chain_length,
        "largest_prediction_difference": difference,
        "engine_xor_seconds": statistics.median(engine_times),
        "micrograd_xor_seconds": statistics.median(micrograd_times),
        "engine_xor_best_seconds": min(engine_times),
        "micrograd_xor_best_seconds": min(micrograd_times),
        "engine_chain_seconds": median_seconds(lambda: engine_chain(chain_length), repeats),
        "pyodide": pyodide_medians(max(1, repeats // 2)) if include_pyodide else None,
    }
    results["ratio"] = results["engine_xor_seconds"] / results["micrograd_xor_seconds"]
    results["best_ratio"] = results["engine_xor_best_seconds"] / results["micrograd_xor_best_seconds"]
    return results


def format_report(results):
    """The results of run() as the lines the benchmark prints."""
    ratio, pyodide = results["ratio"], results["pyodide"]
    lines = [
        f"XOR, 2-4-1 MLP, {results['steps']} steps, learning rate {LEARNING_RATE}, "
        f"median of {results['repeats']} alternating runs, CPU time",
        f"  same predictions on both engines (largest difference "
        f"{results['largest_prediction_difference']:.1e})",
        "                   median       best",
        f"  this engine    {results['engine_xor_seconds'] * 1000:8.1f} ms "
        f"{results['engine_xor_best_seconds'] * 1000:8.1f} ms",
        f"  micrograd      {results['micrograd_xor_seconds'] * 1000:8.1f} ms "
        f"{results['micrograd_xor_best_seconds'] * 1000:8.1f} ms",
        f"  ratio          {ratio:8.3f}    {results['best_ratio']:8.3f}"
        f"      (target <= {TARGET_RATIO} for the median: {'met' if ratio <= TARGET_RATIO else 'NOT met'})",
        f"chain of {results['chain_length']:,} nodes, forward + backward: {results['engine_chain_seconds'] * 1000:.1f} ms",
    ]
    if pyodide is None:
        return "\n".join(lines + ["Pyodide: not measured (no Node or no node_modules/pyodide, or --no-pyodide)"])
    lines.append("inside Pyodide under Node (same engine file):")
    for label, key in [("XOR", "engine_xor_seconds"), ("chain", "engine_chain_seconds")]:
        slowdown = pyodide[key] / results[key]
        lines.append(f"  {label:<14} {pyodide[key] * 1000:8.1f} ms   (Pyodide / CPython {slowdown:.2f})")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Time the engine against micrograd on XOR.")
    parser.add_argument("--repeats", type=int, default=5, help="alternating runs per engine (default 5)")
    parser.add_argument("--no-pyodide", action="store_true", help="skip the measurement inside Pyodide")
    parser.add_argument("--engine-only", action="store_true", help="print only this engine's medians as JSON")
    arguments = parser.parse_args(argv)
    if arguments.engine_only:
        print(json.dumps(engine_medians(arguments.repeats)))
    else:
        print(format_report(run(arguments.repeats, include_pyodide=not arguments.no_pyodide)))


if __name__ == "__main__":
    main()
