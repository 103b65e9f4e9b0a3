"""needed_blocks.py: which blocks of a chapter the class overview's re-check runs before an exercise's checks.

What it is: `plan(chapters)` (a page call of recheck.mjs, made in a learner's fresh Python before any of their
code runs) answers, for each chapter, the numbers of the blocks to run, in page order. A block is left out only
when it is the lesson's own code, only defines names in its namespace (no attribute or item set on anything,
no `global`, no star import, no `del`) and no code run after it can read a name it defines before another block
defines it again at its top level: the later blocks that run, the learner's code of each exercise and the
exercise's checks (every name its module's code spells out as a string, as in `defined(namespace, "network")`). Code
that may read its namespace some other way (globals(), eval, exec, vars, a frame's f_globals...), or cannot be
parsed, needs every block before it. A block that then fails before its top level defines everything counts on
what came before it: recheck.mjs runs that chapter again with every block.
What it is not: a sandbox or a proof: code that reaches names a way not seen here only changes its own verdict.
"""
import ast
import functools
import importlib
import inspect
from pathlib import Path

PAGE_CALLS = ("plan",)
DYNAMIC = {"globals", "locals", "vars", "dir", "eval", "exec", "compile", "__import__", "__builtins__", "__main__",
           "_getframe", "currentframe", "stack", "f_globals", "f_locals", "f_back", "getmembers"}


def plan(chapters):
    """chapters: {path: [{"code", "lesson", "exercise"}, ...]}: each block up to the chapter's last exercise the
    learner is checked on: the code that would run, the lesson's code of that block, and the name of the
    exercise whose checks run after it (else null). Answers {path: [block numbers to run, from 1]}."""
    if not isinstance(chapters, dict):
        raise TypeError("chapters must be an object")
    return {path: chapter_plan(blocks) for path, blocks in chapters.items()}


def chapter_plan(blocks):
    """The numbers (from 1) of `blocks` to run: see the module's docstring."""
    needed, run = set(), []  # needed: the names code run later may read; None: any name
    for number in range(len(blocks), 0, -1):
        block = blocks[number - 1]
        code, lesson, exercise = block.get("code"), block.get("lesson"), block.get("exercise")
        if not (isinstance(code, str) and isinstance(lesson, str) and (exercise is None or isinstance(exercise, str))):
            raise TypeError("every block needs its code and the lesson's code, as text, and an exercise name or null")
        if exercise is not None and needed is not None:
            needed |= checked_names(exercise)
        names = parsed(code)
        if exercise is None and code == lesson and names is not None and names.only_defines and needed is not None \
                and not names.defines & needed:
            continue
        run.append(number)
        if names is None or names.reads is None or needed is None:
            needed = None
        else:
            needed = (needed - names.redefines) | names.reads
    return sorted(run)


def checked_names(exercise):
    """Every identifier the module of `exercise`'s checks, and the modules of the lesson's functions it takes, spell
    out as a string: a superset of the names the checks look up."""
    module = importlib.import_module(f"tutor.exercises.{exercise}")
    owners = {module.__name__} | {value.__module__ for value in vars(module).values() if inspect.isfunction(value)}
    return set().union(*(strings_of(owner) for owner in owners
                         if owner.startswith("tutor.") and owner != "tutor.exercises"))


@functools.cache
def strings_of(module_name):
    """The identifiers the source of the module `module_name` holds as strings."""
    tree = ast.parse(Path(importlib.import_module(module_name).__file__).read_text(encoding="utf-8"))
    return frozenset(node.value for node in ast.walk(tree)
                     if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier())


class Names:
    """What a block does with names: defines (anywhere), redefines (by a statement of its top level), reads
    (the names it may read before it set them itself; None when it may read any) and only_defines (it changes
    nothing but names of its namespace)."""

    def __init__(self, tree):
        self.defines, self.only_defines, seen = set(), True, set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if not isinstance(node.ctx, ast.Load):
                    self.defines.add(node.id)
                self.only_defines &= not isinstance(node.ctx, ast.Del)
            elif isinstance(node, ast.Attribute):
                seen.add(node.attr)  # for DYNAMIC: f_globals, _getframe...
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.only_defines = False
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defines.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    self.only_defines &= alias.name != "*"
                    self.defines.add(alias.asname or alias.name.split(".")[0])
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                self.only_defines &= all(only_names(target) for target in targets)
        self.redefines = set().union(*(top_level_names(statement) for statement in tree.body))
        self.reads = set()
        read_in(tree.body, set(), self.reads)
        if DYNAMIC & (self.reads | seen | self.defines):
            self.reads = None


def read_in(statements, bound, reads):
    """Add to `reads` the names `statements` load that no statement before them in the same run of statements
    (or in one that holds them) surely bound: `bound`, then what each statement binds at that level."""
    bound = set(bound)
    for statement in statements:
        bodies = [value for field, value in ast.iter_fields(statement) if field in ("body", "orelse", "finalbody",
                  "handlers", "cases") and isinstance(value, list)]
        if not bodies or isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            reads |= loads(statement) - bound
        else:  # a loop, branch, with or try: its own expressions, then each of its bodies
            for field, value in ast.iter_fields(statement):
                if field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    continue
                for part in value if isinstance(value, list) else [value]:
                    if isinstance(part, ast.AST):
                        reads |= loads(part) - bound
            inner = bound | (target_names(statement.target) if isinstance(statement, (ast.For, ast.AsyncFor)) else set())
            for body in bodies:
                for item in body:
                    if isinstance(item, (ast.excepthandler, ast.match_case)):
                        reads |= set().union(*(loads(part) for part in (getattr(item, "type", None), getattr(item, "pattern", None),
                                                                         getattr(item, "guard", None)) if part is not None)) - bound
                        read_in(item.body, inner, reads)
                read_in([item for item in body if isinstance(item, ast.stmt)], inner, reads)
        bound |= top_level_names(statement)


def loads(node):
    """The names `node` loads, less those its own functions, lambdas and comprehensions bind for themselves
    (unless one declares a name global or nonlocal)."""
    found, own = set(), set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
            found.add(inner.id)
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            own |= {argument.arg for argument in ast.walk(inner.args) if isinstance(argument, ast.arg)}
            if not isinstance(inner, ast.Lambda):
                own |= {name.id for part in inner.body for name in ast.walk(part)
                        if isinstance(name, ast.Name) and not isinstance(name.ctx, ast.Load)}
        elif isinstance(inner, ast.comprehension):
            own |= {name.id for name in ast.walk(inner.target) if isinstance(name, ast.Name)}
        elif isinstance(inner, (ast.Global, ast.Nonlocal)):
            return found | {inner_name.id for inner_name in ast.walk(node) if isinstance(inner_name, ast.Name)}
    return found - own


def parsed(code):
    """The Names of `code`, or None when it cannot be parsed."""
    try:
        return Names(ast.parse(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def top_level_names(statement):
    """The names a statement of a block's top level surely binds once it ran (a loop's or a branch's may not)."""
    if isinstance(statement, ast.Assign) and all(only_names(target) for target in statement.targets):
        return set().union(*(target_names(target) for target in statement.targets))
    if isinstance(statement, ast.AnnAssign) and statement.value is not None and isinstance(statement.target, ast.Name):
        return {statement.target.id}
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {alias.asname or alias.name.split(".")[0] for alias in statement.names if alias.name != "*"}
    return set()


def target_names(target):
    """The names an assignment to `target` binds, when it binds names only."""
    return {node.id for node in ast.walk(target) if isinstance(node, ast.Name)} if only_names(target) else set()


def only_names(target):
    """Whether assigning to `target` binds names only (no attribute or item of anything)."""
    if isinstance(target, ast.Name):
        return True
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(only_names(element) for element in target.elts)
    if isinstance(target, ast.Starred):
        return only_names(target.value)
    return False
