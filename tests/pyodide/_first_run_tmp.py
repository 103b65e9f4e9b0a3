import sys, time, asyncio
sys.path[:0] = ["site_scripts", "engine", "."]
import tinygrad, tutor.session as session
import tutor.widgets, pkgutil, importlib
for m in pkgutil.iter_modules(tutor.widgets.__path__, "tutor.widgets."): importlib.import_module(m.name)
import gc; gc.collect()
session.configure()
before = set(sys.modules)
out = []
def drive(coro):
    try:
        while True: coro.send(None)
    except StopIteration as stop:
        return stop.value
for code in ["print(sum(range(10)))", "print(sum(range(10)))", "from tinygrad import Value\nw = Value(1)\nl = (w*2-5)**2\nl.backward()\nprint(w.grad)"]:
    t = time.perf_counter()
    r = drive(session.run("p/", code, lambda s, x: out.append(x)))
    print(round((time.perf_counter() - t) * 1000, 2), "ms", r, "new modules:", sorted(set(sys.modules) - before)[:40])
    before = set(sys.modules)
print(out)
