"""output.py: what one run of a block prints, batched into few messages and capped.

What it is: `Output` collects a run's text (streams stdout, stderr and note, the page's own remarks)
and the graphs show() draws, and passes them on through two callbacks, `on_output(stream, text)`
and `on_graph(graph)`: a flood of prints becomes a few messages, the first HEAD_LINES lines go out
as they come, later text only keeps its last TAIL_LINES lines, shown with a count of the hidden ones
when the run ends, and only the first GRAPHS_PER_RUN graphs are drawn. `Stream` is the run's
sys.stdout and sys.stderr, `NoInput` its sys.stdin (a block has no keyboard). `note(text)` and
`flush()` let the guards speak in, or empty, the output of the run in progress.
What it is not: the run itself (runner.py) or the drawing of a graph (the page's shown-graph.mjs).
"""
import collections
import sys
import time

HEAD_LINES = 1000  # shown as they come; after that only a count and the last TAIL_LINES
HEAD_CHARACTERS = 100_000
TAIL_LINES = 20
TAIL_CHARACTERS = 10_000
SENDS_PER_WINDOW = 20  # messages to the page per window; a faster flood is batched
SEND_WINDOW_SECONDS = 0.1
GRAPHS_PER_RUN = 20  # show() calls drawn per run; later ones print only their summary
INPUT_MESSAGE = ("input() cannot work here: a block in the page has no keyboard to read from. "
                 "Assign the value in the code instead, for example: name = \"Ada\"")


class Output:
    """Everything one run prints, batched and capped (see the module's docstring)."""

    def __init__(self, on_output, on_graph=None):
        self.on_output = on_output
        self.on_graph = on_graph or (lambda graph: None)
        self.pending = []  # [stream, text] not yet sent, neighbours of one stream merged
        self.shown_lines = 0
        self.shown_characters = 0
        self.at_line_start = True
        self.capped = False
        self.tail = collections.deque()  # (stream, text) written after the cap
        self.tail_lines = 0
        self.hidden_lines = 0
        self.window_start = 0.0
        self.sends_in_window = 0
        self.graphs = 0
        self.graphs_refused = False

    def write(self, stream, text):
        if self.capped:
            self.keep_in_tail(stream, text)
            return
        room = self.room_for(text)
        if room < len(text):
            self.queue(stream, text[:room])
            self.capped = True
            line_break = "" if self.at_line_start else "\n"
            self.queue("note", f"{line_break}[Long output: the first {self.shown_lines:,} lines are shown here, "
                               f"the last {TAIL_LINES} when the block ends.]\n")
            self.keep_in_tail(stream, text[room:])
        else:
            self.queue(stream, text)
        self.send_if_due()

    def room_for(self, text):
        """How much of `text` fits in the head: up to the character limit or the last allowed line."""
        room = min(len(text), HEAD_CHARACTERS - self.shown_characters)
        lines_left = HEAD_LINES - self.shown_lines
        if text.count("\n", 0, room) >= lines_left:
            end_of_last_line = -1
            for _ in range(lines_left):
                end_of_last_line = text.index("\n", end_of_last_line + 1)
            room = end_of_last_line + 1
        return room

    def queue(self, stream, text):
        if not text:
            return
        self.shown_characters += len(text)
        self.shown_lines += text.count("\n")
        self.at_line_start = text.endswith("\n")
        if self.pending and self.pending[-1][0] == stream:
            self.pending[-1][1] += text
        else:
            self.pending.append([stream, text])

    def keep_in_tail(self, stream, text):
        """Keep the last TAIL_LINES lines (and the partial line before them) written after the cap."""
        text = text[-TAIL_CHARACTERS:]
        self.tail.append((stream, text))
        self.tail_lines += text.count("\n")
        while len(self.tail) > 1 and self.tail_lines - self.tail[0][1].count("\n") > TAIL_LINES:
            dropped_lines = self.tail.popleft()[1].count("\n")
            self.tail_lines -= dropped_lines
            self.hidden_lines += dropped_lines

    def send_if_due(self):
        now = time.monotonic()
        if now - self.window_start >= SEND_WINDOW_SECONDS:
            self.window_start, self.sends_in_window = now, 0
        if self.sends_in_window < SENDS_PER_WINDOW:
            self.sends_in_window += 1
            self.send()

    def send(self):
        pending, self.pending = self.pending, []
        for stream, text in pending:
            self.on_output(stream, text)

    def finish(self):
        """Send what is held back, with the count of hidden lines and the last whole lines."""
        if self.capped:
            if self.tail_lines > TAIL_LINES:  # the first kept piece ends a line whose start was dropped
                stream, text = self.tail.popleft()
                self.tail.appendleft((stream, text.partition("\n")[2]))
                self.hidden_lines += 1
            hidden = f"{self.hidden_lines:,} more line{'s' if self.hidden_lines != 1 else ''}"
            self.pending.append(["note", f"[… {hidden} not shown; the last lines follow …]\n"])
            self.pending.extend([stream, text] for stream, text in self.tail)
            self.capped, self.tail = False, collections.deque()
        self.send()

    @property
    def graphs_left(self):
        return self.graphs < GRAPHS_PER_RUN

    def graph(self, graph):
        """A graph for the page to draw (show()), sent after the text printed before it."""
        self.graphs += 1
        self.send()
        self.on_graph(graph)

    def refuse_graph(self):
        """A show() past GRAPHS_PER_RUN: it prints only its summary; the first such says why, once."""
        if not self.graphs_refused:
            self.graphs_refused = True
            self.write("note", f"[This run already drew {GRAPHS_PER_RUN} graphs: further show() calls "
                               "only print their summary.]\n")

    def report(self, stream, text):
        """Text the reader must see whatever the cap (an error report, a note): sent at once."""
        self.finish()
        self.on_output(stream, text)


class Stream:
    """A write-only text stream (sys.stdout or sys.stderr) feeding one run's Output."""

    def __init__(self, name, output):
        self.name = name
        self.output = output

    def write(self, text):
        if text:
            self.output.write(self.name, text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"


class NoInput:
    """sys.stdin of a run: there is no keyboard behind a block, so reading explains that."""

    def readline(self, size=-1):
        raise EOFError(INPUT_MESSAGE)

    read = readline

    def close(self):  # exit() and quit() close stdin before raising SystemExit
        pass

    def isatty(self):
        return False


def current():
    """The Output of the run in progress (its sys.stdout is a Stream), or None between runs."""
    return sys.stdout.output if isinstance(sys.stdout, Stream) else None


def bracketed(remarks):
    """The page's remarks (one a line) as the output shows them: each line in brackets."""
    return "".join(f"[{line}]\n" for line in remarks.splitlines())


def note(text):
    """A remark of the page's own in the output of the block that runs now (nothing between runs)."""
    output = current()
    if output is not None:
        output.write("note", bracketed(text))


def flush():
    """Send what the running block printed so far, now (before a pause, say)."""
    output = current()
    if output is not None:
        output.send()
