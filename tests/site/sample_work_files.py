"""sample_work_files.py: learners' work files made up for the tests, and what the class overview should say of them.

What it is: `generated_work(lesson, learner, seed)` writes a work file's value (the format of
site_scripts/browser/work/work-file.schema.json) for a made-up learner of the built lesson (`lesson`:
the build's assets/lesson/browser/work/lesson.json): a random choice of chapters run, exercises tried
and solved with code of their own, predictions answered, solutions shown or turned off. `expected_counts`
counts one file the way the class overview must, written here independently of the page's JavaScript,
so the overview's rows and CSV can be checked against it, and `row_text` is what its table's cells then
say. `bad_work_files` are the files that "Load my work" and the class overview must refuse, each with the
words the refusal must contain. DROP_FILES drops files onto the overview's field, in any browser.
What it is not: the page's own code for any of this (site_scripts/browser/work/).
"""
import copy
import json
import random
from datetime import datetime, timedelta, timezone

FORMAT = "slope-to-backprop-work"
# The body of a function (arguments[0]: [[file name, text], ...]) that drops those files onto the class
# overview's field, as a teacher dragging them there does; Chromium, Firefox and WebKit all run it.
DROP_FILES = """
  const transfer = new DataTransfer();
  for (const [name, text] of arguments[0]) transfer.items.add(new File([text], name, { type: "application/json" }));
  const zone = document.querySelector(".class-overview__drop");
  zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
"""
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


def lesson_map(site_directory):
    """The build's lesson.json: {"site", "chapters", "exercises", "buildYourOwn"}."""
    return json.loads((site_directory / "assets" / "lesson" / "browser" / "work" / "lesson.json").read_text("utf-8"))


def iso(moment):
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def generated_work(lesson, learner, seed):
    """A plausible work file of `learner` (same seed, same file)."""
    rng = random.Random(seed)
    chapters = [chapter["path"] for chapter in lesson["chapters"]]
    ran = sorted(rng.sample(chapters, rng.randint(0, len(chapters))), key=chapters.index)
    moments = sorted(START + timedelta(minutes=rng.randint(0, 5000)) for _ in ran)
    pages = {path: {"runs": rng.randint(1, 30), "lastRun": iso(moment), "lastChange": iso(moment + timedelta(minutes=2))}
             for path, moment in zip(ran, moments)}
    edits, exercises = {}, {}
    for exercise in lesson["exercises"]:
        attempted = exercise["chapter"] in ran and rng.random() < 0.7
        code = f"# {learner}'s code for {exercise['name']}\nanswer = {rng.randint(1, 99)}\n" if attempted else None
        if code:
            edits[f"{exercise['chapter']}#{exercise['block']}"] = {"code": code, "original": f"{rng.getrandbits(32):08x}"}
        exercises[exercise["name"]] = {"chapter": exercise["chapter"], "title": exercise["title"], "attempted": attempted,
                                       "solved": attempted and rng.random() < 0.6,
                                       "solutionShown": attempted and rng.random() < 0.2, "code": code}
    predictions = {f"{rng.choice(chapters) or 'home'}-q{number}": {"answer": str(rng.randint(0, 9)),
                                                                    "correct": rng.random() < 0.6, "revealed": False}
                   for number in range(rng.randint(0, 6))}
    solutions_off = rng.random() < 0.3
    return {
        "format": FORMAT, "version": 1,
        "site": dict(lesson["site"]),
        "saved": iso(START + timedelta(days=5)),
        "learner": learner,
        "settings": {"solutions": "off" if solutions_off else "on",
                     "solutionsChanged": iso(START) if solutions_off else None},
        "pages": pages, "edits": edits, "exercises": exercises, "predictions": predictions,
        "engine": {"active": None, "draft": None},
    }


def expected_counts(work, lesson):
    """What the overview's row says of `work`, as numbers (and the last change as an ISO time, or None)."""
    runs = {path: page["runs"] for path, page in work["pages"].items()}
    solved = {name for name, result in work["exercises"].items() if result["solved"]}
    steps = [exercise["name"] for exercise in lesson["exercises"] if exercise["chapter"] == lesson["buildYourOwn"]]
    answers = list(work["predictions"].values())
    return {
        "chapters_run": sum(runs.get(chapter["path"], 0) > 0 for chapter in lesson["chapters"]),
        "chapters": len(lesson["chapters"]),
        "exercises_passed": sum(exercise["name"] in solved for exercise in lesson["exercises"]),
        "exercises": len(lesson["exercises"]),
        "predictions_right": sum(answer["correct"] for answer in answers),
        "predictions_answered": len(answers),
        "steps_passed": sum(name in solved for name in steps),
        "steps": len(steps),
        "solutions_shown": sum(result["solutionShown"] for result in work["exercises"].values()),
        "solutions_off": work["settings"]["solutions"] == "off",
        "last_change": max((page["lastChange"] for page in work["pages"].values()), default=None),
        "per_chapter": {chapter["path"]: (runs.get(chapter["path"], 0),
                                          sum(1 for exercise in lesson["exercises"]
                                              if exercise["chapter"] == chapter["path"] and exercise["name"] in solved),
                                          sum(1 for exercise in lesson["exercises"] if exercise["chapter"] == chapter["path"]))
                        for chapter in lesson["chapters"]},
    }


def bad_work_files(lesson):
    """[(file name, bytes, words the refusal must contain)]: each kind of file the site must refuse."""
    good = generated_work(lesson, "Ada", seed=1)
    text = json.dumps(good, indent=1)
    newer = dict(good, version=2)
    other_site = copy.deepcopy(good)
    other_site["site"]["name"] = "Another lesson"
    damaged = copy.deepcopy(good)
    damaged["exercises"][lesson["exercises"][0]["name"]]["solved"] = "yes"
    return [
        ("notes.json", b"These are my notes, not JSON.", "its text is not JSON"),
        ("other-shape.json", json.dumps({"name": "Ada", "scores": [1, 2, 3]}).encode(), "not a work file of this lesson"),
        ("newer-backprop-work.json", json.dumps(newer).encode(), "has version 2"),
        ("other-site-backprop-work.json", json.dumps(other_site).encode(), 'another site ("Another lesson")'),
        ("cut-backprop-work.json", text[: len(text) // 2].encode(), "ends too early"),
        ("damaged-backprop-work.json", json.dumps(damaged).encode(), "solved must be true or false"),
        ("huge-backprop-work.json", b"{" + b" " * (50 * 1000 * 1000) + b"}", "50 MB"),
    ]


def row_text(counts, lesson):
    """The cells after the learner's name in the overview's row of a file with `counts` (expected_counts)."""
    def chapter(path):
        runs, solved, total = counts["per_chapter"][path]
        parts = (["ran"] if runs else []) + ([f"{solved} of {total} solved"] if total and (runs or solved) else [])
        return ", ".join(parts) or "—"

    last = counts["last_change"].replace("T", " ")[:16] if counts["last_change"] else "—"  # the page's zone is UTC here
    return [f"{counts['chapters_run']} of {counts['chapters']}", f"{counts['exercises_passed']} of {counts['exercises']}",
            f"{counts['predictions_right']} of {counts['predictions_answered']} answered",
            f"{counts['steps_passed']} of {counts['steps']}",
            f"{counts['solutions_shown']}{' (turned off)' if counts['solutions_off'] else ''}", last,
            *[chapter(item["path"]) for item in lesson["chapters"]]]
