"""test_robustness.py: hostile code in runnable blocks, Stop, crashes and Restart Python, in Chromium.

What it is: what a learner may type, checked against the built site served on 127.0.0.1: endless
loops, runaway recursion, memory bombs, a flood of prints, input(), exit(), a missing package, a
syntax error, a broken engine and HTML in the output. Each must end with a clear message in that
block's output, a page that keeps answering, and a next run that works. Stop is checked with and
without cross-origin isolation; when Python has to be restarted (Stop without interrupts, a fatal
crash, Restart Python) the page's earlier blocks are re-run to restore the reader's definitions.
The hostile blocks share one page visit (module scope: booting Python costs seconds); the tests of
restarts open the page afresh, so what they re-run is theirs alone.

What it is not: the ordinary run/edit/reset behaviour (test_blocks.py), saved edits
(test_saved_edits.py), or speed: no assertion here measures time.
"""
import pytest

from helpers import (UI_TIMEOUT_MS, block, free_port, open_lesson, output_text, pages_with_blocks, press,
                     python_session, run_block, run_then_stop, serve_site, set_code, wait_not_busy,
                     wait_output_contains, wait_run_finished, wait_running)

RESTORED = "your definitions are back"


@pytest.fixture(scope="module")
def lesson_path(built_site):
    """A page with at least three runnable blocks; every test writes its own code into them."""
    candidates = pages_with_blocks(built_site, minimum=3)
    assert candidates, "the built site has no page with three runnable blocks"
    return candidates[0]


@pytest.fixture(scope="module")
def shared_visit(browser, site_url, lesson_path):
    """One visit of the lesson page shared by the hostile-block tests, with its uncaught errors
    and any dialog that opened (none may)."""
    context = browser.new_context(service_workers="block")
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    errors, dialogs = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_lesson(page, site_url, lesson_path)
    yield page, errors, dialogs
    context.close()


@pytest.fixture
def hostile(shared_visit):
    """The shared page; the test fails if the page raised an error or opened a dialog meanwhile."""
    page, errors, dialogs = shared_visit
    errors.clear()
    yield page
    assert errors == [] and dialogs == []


def run_code(block_locator, code):
    """Type `code` into the block, run it, return the output."""
    set_code(block_locator, code)
    return run_block(block_locator)


def assert_next_run_works(page):
    assert run_code(block(page, 2), "print(6 * 7)") == "42\n"


def test_infinite_recursion_ends_as_a_recursion_error(hostile):
    first = block(hostile, 1)
    session = python_session(hostile)
    for code in ["def f():\n    return f()\n\nf()",
                 # recursion through C (an operator calling itself) overflows the browser's stack first
                 "class Loop:\n    def __add__(self, other):\n        return self + other\n\nLoop() + 1"]:
        shown = run_code(first, code)
        assert "RecursionError: maximum recursion depth exceeded" in shown, shown
        assert "kept calling itself" in shown
        assert first.get_attribute("data-state") == "error"
    assert python_session(hostile) == session, "the recursion crashed Python instead of raising"
    assert_next_run_works(hostile)


@pytest.mark.parametrize("code", ["x = [0] * 10**10", "b = bytearray(3 * 10**9)", 's = "x" * 10**10'])
def test_memory_bomb_gets_a_clear_message(hostile, code):
    first = block(hostile, 1)
    shown = run_code(first, code)
    assert "more memory than Python in a browser tab can have" in shown or "Python crashed" in shown, shown
    assert first.get_attribute("data-state") == "error"
    wait_not_busy(first)
    assert_next_run_works(hostile)


def test_a_million_printed_lines_are_capped_and_the_page_keeps_answering(hostile):
    first, second = block(hostile, 1), block(hostile, 2)
    set_code(first, "for i in range(10**6):\n    print(i)")
    runs_before = int(first.get_attribute("data-runs"))
    press(first, "Run")
    wait_running(first)

    typed = "answer = 'typed while Python printed'"
    set_code(second, typed)  # the page takes keystrokes while the flood goes on
    state_meanwhile, text_meanwhile = hostile.evaluate(
        "([running, other]) => [running.dataset.state, other.runnableCode()]",
        [first.element_handle(), second.element_handle()])
    wait_run_finished(first, runs_before)

    assert state_meanwhile == "running", "the flood ended before the page could be used: nothing was shown"
    assert text_meanwhile == typed
    shown = output_text(first)
    lines = shown.splitlines()
    assert lines[:3] == ["0", "1", "2"]
    assert lines[-1] == "999999"
    assert len(lines) < 1100, "the output was not capped"
    assert "not shown" in shown
    assert first.get_attribute("data-state") == "done"


def test_input_explains_that_the_page_cannot_ask(hostile):
    first = block(hostile, 1)
    shown = run_code(first, 'name = input("Your name? ")\nprint("Hello", name)')
    assert "input() cannot work here" in shown and "Assign the value" in shown, shown
    assert "Hello" not in shown
    assert_next_run_works(hostile)


@pytest.mark.parametrize("ending", ["import sys\nsys.exit()", "exit()", "quit()"])
def test_exit_ends_only_the_block_and_keeps_definitions(hostile, ending):
    first = block(hostile, 1)
    shown = run_code(first, f"kept_after_exit = 'still here'\n{ending}\nprint('not reached')")
    assert "only ends this block" in shown and "kept" in shown, shown
    assert "not reached" not in shown
    assert run_code(block(hostile, 2), "print(kept_after_exit)") == "still here\n"


def test_import_numpy_says_why_it_is_not_available(hostile):
    shown = run_code(block(hostile, 1), "import numpy as np")
    assert "ModuleNotFoundError" in shown and "numpy is not available here" in shown, shown
    assert "offline" in shown and "standard library" in shown and "tinygrad" in shown
    assert_next_run_works(hostile)


def test_a_syntax_error_points_at_its_line(hostile):
    first = block(hostile, 1)
    shown = run_code(first, "total = 1\nprint(total +)\nprint('never')")
    lines = shown.splitlines()
    assert any("line 2" in line for line in lines), shown
    code_line = next(index for index, line in enumerate(lines) if "print(total +)" in line)
    assert set(lines[code_line + 1].strip()) <= set("^~") and lines[code_line + 1].strip(), shown
    assert lines[-1].startswith("SyntaxError")
    assert "never" not in shown
    assert_next_run_works(hostile)


def test_printed_html_stays_text_and_nothing_runs(hostile):
    first = block(hostile, 1)
    attack = '<img src=x onerror=alert(1)>'
    script = "<script>alert(2)</script>"
    shown = run_code(first, f"print({attack!r})\nprint({script!r})")

    assert shown == f"{attack}\n{script}\n"
    log = first.get_by_role("log")
    assert log.locator("img").count() == 0 and log.locator("script").count() == 0
    # the `hostile` fixture also fails the test if a dialog (alert) opened


def test_stop_ends_an_endless_loop_within_a_shared_page(hostile):
    first = block(hostile, 1)
    run_then_stop(first)

    assert first.get_attribute("data-state") == "stopped"
    assert "Stopped" in output_text(first)
    wait_not_busy(first)
    assert_next_run_works(hostile)


# ---- Restarts: each test opens the page afresh --------------------------------------------------

def prepare_three_blocks(page, last_code):
    """Blocks 1 and 2 define names; block 3 gets `last_code`. Runs block 3 (so 1 and 2 run first)
    up to the point where it executes; returns block 3."""
    first, second, third = block(page, 1), block(page, 2), block(page, 3)
    set_code(first, "from tinygrad import Value\nkept = 'restored'")
    set_code(second, "count = Value(2.0) * 3")
    set_code(third, last_code)
    press(third, "Run")
    wait_running(third)
    return third


def assert_definitions_restored(page, third):
    """After a restart: the note says blocks 1–2 were re-run, and their names work again."""
    wait_output_contains(third, RESTORED)
    wait_not_busy(third)
    assert "Re-ran blocks 1 and 2" in output_text(third)
    for number in (1, 2):
        assert block(page, number).get_attribute("data-runs") == "1", "a re-run must be silent"
    assert run_code(third, "print(kept, count.data == 2.0 * 3)") == "restored True\n"


def test_stop_without_isolation_restarts_python_and_replays_earlier_blocks(page, site_url, lesson_path,
                                                                          page_errors):
    open_lesson(page, site_url, lesson_path)
    assert not page.evaluate("() => crossOriginIsolated")
    third = prepare_three_blocks(page, "while True:\n    pass")
    session = python_session(page)

    press(third, "Stop")

    wait_output_contains(third, "Stopped")
    assert python_session(page) > session, "without isolation Stop must replace the interpreter"
    assert_definitions_restored(page, third)
    assert page_errors == []


@pytest.fixture(scope="module")
def isolated_url(built_site):
    """The site served with the headers that make its pages cross-origin isolated."""
    with serve_site(built_site, free_port(), isolation_headers=True) as url:
        yield url


def test_stop_with_isolation_interrupts_and_keeps_the_namespace(page, isolated_url, lesson_path, page_errors):
    open_lesson(page, isolated_url, lesson_path)
    assert page.evaluate("() => crossOriginIsolated")
    third = prepare_three_blocks(page, "progress = 0\nwhile True:\n    progress += 1")
    session = python_session(page)

    press(third, "Stop")
    wait_output_contains(third, "KeyboardInterrupt")
    wait_not_busy(third)

    assert python_session(page) == session, "an interrupt must keep the interpreter"
    assert "Re-ran" not in output_text(third)
    assert run_code(third, "print(kept, count.data == 2.0 * 3, progress > 0)") == "restored True True\n"
    assert page_errors == []


def test_stop_with_isolation_restarts_code_that_ignores_the_interrupt(page, isolated_url, lesson_path,
                                                                     page_errors):
    open_lesson(page, isolated_url, lesson_path)
    third = prepare_three_blocks(page, "sum(range(10**13))")  # one C call: no interrupt is checked
    session = python_session(page)

    press(third, "Stop")

    wait_output_contains(third, "did not answer the interrupt")
    assert python_session(page) > session
    assert_definitions_restored(page, third)
    assert page_errors == []


def test_a_crashed_python_is_detected_and_the_page_recovers(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "from tinygrad import Value\nchain = Value(0)\nfor _ in range(5000):\n"
                    "    chain = chain + 1\nkept = 'restored'")
    set_code(second, "del chain")
    session = python_session(page)

    shown = run_block(second)

    assert "Python crashed" in shown and "deep" in shown and "backward()" in shown, shown
    assert second.get_attribute("data-state") == "error"
    assert python_session(page) > session
    wait_output_contains(second, RESTORED)
    wait_not_busy(second)
    assert "Re-ran block 1" in output_text(second)
    assert run_code(second, "print(kept, chain.data == 5000)") == "restored True\n"
    assert page_errors == []


def test_restart_python_rebuilds_a_broken_engine(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "from tinygrad import Value\nkept = 'restored'")
    set_code(second, "import sys\nsys.modules['tinygrad'] = None\ndel Value")
    run_block(second)
    broken = run_code(second, "from tinygrad import Value as Engine\nprint(Value(2.0).data)")
    assert "Restart Python" in broken, broken
    session = python_session(page)

    press(second, "Restart Python")

    wait_output_contains(second, RESTORED)
    wait_not_busy(second)
    assert python_session(page) > session
    assert "Python was restarted" in output_text(second) and "Re-ran block 1" in output_text(second)
    assert run_code(second, "from tinygrad import Value as Engine\nprint(Value is Engine)") == "True\n"
    assert run_code(block(page, 3), "print(kept)") == "restored\n"
    assert page_errors == []

