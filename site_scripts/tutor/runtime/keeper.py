"""keeper.py: the lesson's own modules, kept as the lesson made them whatever a block does to them.

What it is: `keeper()` makes, once per interpreter (the dispatcher does, at boot), three functions.
`note()` takes down every lesson module in memory (`tutor` and `tutor.*`: the module object and
the value of each of its names); the dispatcher calls it at boot and again once the page has
configured Python (the engine installed, the guards in place), before any reader's code ran.
`mend(reader_ran)`, after every request that may have run the reader's code (a block, checks given
the page's namespace, any call while Python runs the reader's edited engine), puts back what changed
since: a name of a lesson module that a block replaced or deleted (`import tutor.runtime.output as
o; o.Output = None`), a name a block added to one (which would hide a built-in the module uses), and
the module itself in sys.modules when a block replaced or removed it. It also puts back in sys.modules
the modules that are not the lesson's (Python's own, the standard library's, the page's, the engine)
when a block removed them (`sys.modules.clear()`). It answers what it put back, in words, for a note
in the block's output ("" when nothing changed). A lesson module imported since
note() is taken down as it is when the request only ran the lesson's own code (a figure's call
imported its model), and forgotten when the request ran a block or checks given the page's
namespace (`reader_ran`), whose code may have changed it already: the next import makes it afresh. `note_new()`, after a request that ran only the lesson's
own code (a figure's call with the lesson's engine), only takes down the lesson modules it imported,
at a fraction of mend's cost. A module's own state, names it rebinds while it works, is listed in
its `CHANGING` tuple and left alone; so is a package's link to its submodule of that name, which the
import system makes and remakes.
The three functions hold what they use in their closure, so a block that replaces this module's
names cannot stop them, and none of them ever raises.
What it is not: a sandbox. A block can still break Python in ways no lesson module's names show (a
changed standard module such as `ast.parse = None`, sys.settrace): the dispatcher's check finds
that the machinery fails (dispatcher.py), and a fresh Python is the way back. Changes inside a
lesson module's objects (a dict it holds) are not undone either; the engine, tinygrad, is the
guards' (guards.py).
"""
import sys
import types

from .guards import ENGINE

LESSON_PACKAGE = "tutor"


def keeper():
    """(note, note_new, mend): see the module's docstring."""
    modules = sys.modules
    module_type = types.ModuleType
    missing = object()
    kept = {}  # name -> (module, {name: value} as noted, names left alone)
    python_modules = {}  # name -> module: Python's and the page's own (sys, json, pyodide, tinygrad, ...)
    standard_library = frozenset(getattr(sys, "stdlib_module_names", ()))
    built_in = frozenset(sys.builtin_module_names)

    def is_lesson_module(name):
        return isinstance(name, str) and (name == LESSON_PACKAGE or name.startswith(LESSON_PACKAGE + "."))

    def take_down(name, module):
        changing = getattr(module, "CHANGING", ())
        kept[name] = (module, dict(vars(module)), frozenset(changing if isinstance(changing, tuple) else ()))

    def note_python_modules(every_one):
        """Note the modules that are not the lesson's: every one before any reader's code ran, then the
        standard library's and the engine a request imported (never a reader's own module, which they may drop
        on purpose)."""
        for name, module in list(modules.items()):
            if (isinstance(module, module_type) and not is_lesson_module(name) and name not in python_modules
                    and (every_one or name == ENGINE
                         or (isinstance(name, str) and name.partition(".")[0] in standard_library))):
                python_modules[name] = module

    def note():
        kept.clear()
        for name, module in list(modules.items()):
            if is_lesson_module(name) and isinstance(module, module_type):
                take_down(name, module)
        note_python_modules(every_one=True)

    def mend_python_modules():
        """Put back in sys.modules the modules a block removed (sys.modules.clear()), and a built-in module
        made anew, which lacks its state (a new `sys` has no sys.warnoptions). A module the reader replaced
        (`sys.modules['tinygrad'] = None`: the guards name that) or imported afresh is theirs to keep."""
        removed = []
        for name, module in python_modules.items():
            now = modules.get(name, missing)
            if now is not module and (now is missing or (name in built_in and isinstance(now, module_type))):
                modules[name] = module
                removed.append(name)
        return removed

    def forget(name, module):
        """Drop a module imported while the reader's code ran: the next import makes it afresh."""
        del modules[name]
        parent, _, child = name.rpartition(".")
        scope = modules.get(parent)
        if isinstance(scope, module_type) and vars(scope).get(child) is module:
            del vars(scope)[child]

    def left_alone(name, key, value, changing):
        """A module's own state, or a package's submodule as the import system links it (also one imported
        afresh, or one the engine check imported for its trial and dropped again: tutor.engine_trial)."""
        return key in changing or (isinstance(key, str) and isinstance(value, module_type)
                                   and getattr(value, "__name__", None) == f"{name}.{key}")

    def added_by_python(key):
        """A name Python itself adds to a module now and then, such as __warningregistry__."""
        return isinstance(key, str) and key.startswith("__") and key.endswith("__")

    def mend_module(name, module, saved, changing):
        changed = []
        if modules.get(name, missing) is not module:
            modules[name] = module
            changed.append(f"sys.modules[{name!r}]")
        names = vars(module)
        for key, value in saved.items():
            now = names.get(key, missing)
            if now is not value and not left_alone(name, key, now, changing):
                names[key] = value
                changed.append(f"{name}.{key}")
        for key in [key for key in names if key not in saved]:
            if not (left_alone(name, key, names[key], changing) or added_by_python(key)):
                del names[key]
                changed.append(f"{name}.{key}")
        return changed

    def new_modules(reader_ran):
        for name, module in list(modules.items()):
            if is_lesson_module(name) and name not in kept:
                if reader_ran or not isinstance(module, module_type):
                    forget(name, module)
                else:
                    take_down(name, module)

    def note_new():
        try:
            new_modules(reader_ran=False)
            note_python_modules(every_one=False)
        except Exception:  # noqa: BLE001 - the next request must be answered all the same
            pass

    def mend(reader_ran):
        try:
            removed = mend_python_modules()
            changed = []
            for name, (module, saved, changing) in list(kept.items()):
                changed += mend_module(name, module, saved, changing)
            new_modules(reader_ran)
            note_python_modules(every_one=False)
        except Exception:  # noqa: BLE001 - the next request must be answered all the same
            return ""
        said = []
        if removed:
            said.append(f"This block removed modules Python and the page need from sys.modules ({listed(removed)}): "
                        "they are put back, so the page keeps working.")
        if changed:
            said.append(f"This block changed the lesson's own code ({listed(changed)}): it is put back, so the "
                        "page keeps working.")
        return " ".join(said)

    def listed(names):
        return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")

    return note, note_new, mend
