import sys, time, traceback
for limit in (3000, 30000, 100000):
    sys.setrecursionlimit(limit)
    def f():
        return f()
    t = time.time()
    try:
        f()
    except RecursionError as e:
        t1 = time.time()
        s = traceback.TracebackException.from_exception(e)
        t2 = time.time()
        text = "".join(s.format())
        t3 = time.time()
        print(limit, "raise", round(t1-t, 3), "extract", round(t2-t1, 3), "format", round(t3-t2, 3), len(text), flush=True)
