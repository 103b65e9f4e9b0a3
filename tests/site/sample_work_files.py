"""sample_work_files.py: learners' work files made up for the tests, and what the class overview should say of them.

What it is: `generated_work(lesson, learner, seed)` writes a work file's value (the format of
site_scripts/browser/work/work-file.schema.json) for a made-up learner of the built lesson (`lesson`:
the build's assets/lesson/browser/work/lesson.json): a random choice of chapters run, exercises tried
and solved with code of their own, predictions answered (right or wrong at the first try, some answers
shown), figures filled in by hand, solutions shown, turned off or switched back on; every fourth file is of the kind made
before first tries and figures were kept (no `first`, `firstRight` or `figures`). `honest_work` is such a
file whose learner solved every exercise with the lesson's own solution (tutor.exercises.<name>.SOLUTION),
what the class overview's re-check must find solved. `expected_counts`
counts one file the way the class overview must, written here independently of the page's JavaScript,
so the overview's rows and CSV can be checked against it, and `row_text` is what its table's cells then
say. `bad_work_files` are the files that "Load my work" and the class overview must refuse, each with the
words the refusal must contain. DROP_FILES drops files onto the overview's field, in any browser.
What it is not: the page's own code for any of this (site_scripts/browser/work/).
"""
import copy
import importlib
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
    """The build's lesson.json: {"site", "chapters", "exercises", "predictions", "figures", "buildYourOwn"}."""
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
    older = seed % 4 == 3  # made before first tries and figures were kept
    ids = [prediction["id"] for prediction in lesson["predictions"]] + ["a-prediction-of-an-older-lesson"]
    predictions = {}
    for identifier in rng.sample(ids, rng.randint(0, 8)):
        revealed = rng.random() < 0.3
        if revealed and rng.random() < 0.3:  # "Show me" before any answer
            predictions[identifier] = {"answer": "", "correct": False, "revealed": True}
            continue
        correct = rng.random() < 0.7
        record = {"answer": str(rng.randint(0, 9)), "correct": correct, "revealed": revealed}
        if not older:
            record.update(first=str(rng.randint(0, 9)), firstRight=correct and not revealed and rng.random() < 0.7)
        predictions[identifier] = record
    figures = {}
    for figure in lesson["figures"]:
        if rng.random() < 0.7:
            total = rng.randint(6, 11)
            figures[figure["name"]] = {"right": rng.choice([total, rng.randint(0, total)]), "total": total}
    switch = rng.random()
    solutions_off, switched_back_on = switch < 0.3, 0.3 <= switch < 0.5  # turned off; turned off, then on again
    return {
        "format": FORMAT, "version": 1,
        "site": dict(lesson["site"]),
        "saved": iso(START + timedelta(days=5)),
        "learner": learner,
        "settings": {"solutions": "off" if solutions_off else "on",
                     "solutionsChanged": iso(START) if solutions_off or switched_back_on else None},
        "pages": pages, "edits": edits, "exercises": exercises, "predictions": predictions,
        **({} if older else {"figures": figures}),
        "engine": {"active": None, "draft": None},
    }


def honest_work(lesson, learner, seed):
    """generated_work whose learner tried and solved every exercise with its solution as their code
    (tutor.exercises on sys.path, as the tests and the benchmark have it)."""
    work = generated_work(lesson, learner, seed)
    for exercise in lesson["exercises"]:
        code = importlib.import_module(f"tutor.exercises.{exercise['name']}").SOLUTION
        work["edits"][f"{exercise['chapter']}#{exercise['block']}"] = {"code": code, "original": f"{seed:08x}"}
        work["exercises"][exercise["name"]].update(attempted=True, solved=True, code=code)
    return work


def expected_counts(work, lesson):
    """What the overview's row says of `work`, as numbers (and the last change as an ISO time, or None)."""
    runs = {path: page["runs"] for path, page in work["pages"].items()}
    solved = {name for name, result in work["exercises"].items() if result["solved"] and result["code"] is not None}
    steps = [exercise["name"] for exercise in lesson["exercises"] if exercise["chapter"] == lesson["buildYourOwn"]]
    ids = {prediction["id"] for prediction in lesson["predictions"]}
    kept = {identifier: record for identifier, record in work["predictions"].items() if identifier in ids}
    answered = {identifier: record for identifier, record in kept.items() if record["answer"] != "" or "first" in record}
    figures = work.get("figures", {})

    def chapter_counts(path):
        asked = [prediction["id"] for prediction in lesson["predictions"] if prediction["chapter"] == path]
        return {"runs": runs.get(path, 0),
                "solved": sum(1 for exercise in lesson["exercises"] if exercise["chapter"] == path and exercise["name"] in solved),
                "exercises": sum(1 for exercise in lesson["exercises"] if exercise["chapter"] == path),
                "predictions": len(asked), "answered": sum(identifier in answered for identifier in asked),
                "right_first": sum(answered.get(identifier, {}).get("firstRight") is True for identifier in asked),
                "figures": [(figure["title"], figures[figure["name"]]["right"], figures[figure["name"]]["total"])
                            for figure in lesson["figures"] if figure["chapter"] == path and figure["name"] in figures]}

    return {
        "chapters_run": sum(runs.get(chapter["path"], 0) > 0 for chapter in lesson["chapters"]),
        "chapters": len(lesson["chapters"]),
        "exercises_passed": sum(exercise["name"] in solved for exercise in lesson["exercises"]),
        "exercises": len(lesson["exercises"]),
        "predictions_right_first": sum(record.get("firstRight") is True for record in answered.values()),
        "predictions_answered": len(answered),
        "predictions_shown": sum(record["revealed"] for record in kept.values()),
        "predictions_unknown": sum("first" not in record for record in answered.values()),
        "predictions": len(lesson["predictions"]),
        "figures_done": sum(figures.get(figure["name"], {}).get("right", -1) == figures.get(figure["name"], {}).get("total")
                            for figure in lesson["figures"]),
        "figures": len(lesson["figures"]),
        "steps_passed": sum(name in solved for name in steps),
        "steps": len(steps),
        "solutions_shown": sum(result["solutionShown"] for result in work["exercises"].values()),
        "solutions_off": work["settings"]["solutions"] == "off",
        "solutions_back_on": work["settings"]["solutionsChanged"] if work["settings"]["solutions"] == "on" else None,
        "last_change": max((page["lastChange"] for page in work["pages"].values()), default=None),
        "edited_engine": work["engine"]["active"] is not None,
        "solved_without_code": sum(result["solved"] and result["code"] is None for name, result in work["exercises"].items()
                                   if name in {exercise["name"] for exercise in lesson["exercises"]}),
        "ignored_predictions": len(work["predictions"]) - len(kept),
        "per_chapter": {chapter["path"]: chapter_counts(chapter["path"]) for chapter in lesson["chapters"]},
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
    month_13 = dict(good, saved="2026-13-02T08:00:00.000Z")  # written as a time should be, but no such month
    return [
        ("notes.json", b"These are my notes, not JSON.", "its text is not JSON"),
        ("other-shape.json", json.dumps({"name": "Ada", "scores": [1, 2, 3]}).encode(), "not a work file of this lesson"),
        ("newer-backprop-work.json", json.dumps(newer).encode(), "has version 2"),
        ("other-site-backprop-work.json", json.dumps(other_site).encode(), 'another site ("Another lesson")'),
        ("cut-backprop-work.json", text[: len(text) // 2].encode(), "ends too early"),
        ("damaged-backprop-work.json", json.dumps(damaged).encode(), "solved must be true or false"),
        ("huge-backprop-work.json", b"{" + b" " * (50 * 1000 * 1000) + b"}", "50 MB"),
        ("month-13-backprop-work.json", json.dumps(month_13).encode(), "the date 2026-13-02 08:00:00, which does not exist"),
    ]


def solutions_note(counts):
    """What the overview adds to the number of solutions shown: " (turned off)", " (switched back on <time>)" or ""."""
    if counts["solutions_off"]:
        return " (turned off)"
    back_on = counts["solutions_back_on"]
    return f" (switched back on {back_on.replace('T', ' ')[:16]})" if back_on else ""  # the page's zone is UTC here


def row_text(counts, lesson):
    """The cells after the learner's name in the overview's row of a file with `counts` (expected_counts)."""
    def chapter(path):
        c = counts["per_chapter"][path]
        parts = (["ran"] if c["runs"] else []) + ([f"{c['solved']} of {c['exercises']} solved"]
                                                  if c["exercises"] and (c["runs"] or c["solved"]) else [])
        if c["answered"]:
            parts.append(f"{c['answered']} of {c['predictions']} predictions answered, {c['right_first']} right first time")
        parts += [f"{title} {'done' if right == total else f'{right} of {total} boxes'}"
                  for title, right, total in c["figures"] if right > 0]
        return "; ".join(parts) or "—"

    predictions = f"{counts['predictions_right_first']} of {counts['predictions_answered']} answered right first time"
    if counts["predictions_shown"]:
        predictions += f"; {counts['predictions_shown']} shown the answer"
    if counts["predictions_unknown"]:
        predictions += f"; {counts['predictions_unknown']} first {'try' if counts['predictions_unknown'] == 1 else 'tries'} not recorded"
    last = counts["last_change"].replace("T", " ")[:16] if counts["last_change"] else "—"  # the page's zone is UTC here
    ignored = counts["ignored_predictions"]
    not_counted = "; ".join(([f"{counts['solved_without_code']} marked solved with no code"] if counts["solved_without_code"] else [])
                            + ([f"{ignored} prediction{'' if ignored == 1 else 's'} this lesson does not have"] if ignored else [])) or "—"
    return [f"{counts['chapters_run']} of {counts['chapters']}", f"{counts['exercises_passed']} of {counts['exercises']}",
            predictions, f"{counts['steps_passed']} of {counts['steps']}", f"{counts['figures_done']} of {counts['figures']}",
            f"{counts['solutions_shown']}{solutions_note(counts)}", last,
            "yes" if counts["edited_engine"] else "no", not_counted, "not checked", *[chapter(item["path"]) for item in lesson["chapters"]]]
