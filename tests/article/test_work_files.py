"""The learner's work file: its JSON Schema and the build's list of the lesson, in CPython.

What it is: checks that the schema (site_scripts/browser/work/work-file.schema.json) is a valid JSON
Schema 2020-12 and ships unchanged with the built site; that the build's lesson.json
(hooks/work_files.py) lists exactly the blocks and exercises the built pages hold, numbered as the
browser numbers them; that generated work files obey the schema under CPython's `jsonschema`, and
that each kind of damage breaks it; and that the browser's own check (schema-check.mjs, run under
Node) gives the same verdict as `jsonschema` on every one of those files and refuses a schema keyword
it does not know. ARCHITECTURE.md describes the same fields the schema has.
What it is not: the pages that make and read the files (tests/site/test_work.py, in Chromium).
"""
import copy
import json
import re
import subprocess
from pathlib import Path

import jsonschema
import pytest

from helpers import page_parts, runnable_sources
from sample_work_files import FORMAT, bad_work_files, generated_work, lesson_map

REPO = Path(__file__).resolve().parents[2]
SCHEMA_FILE = REPO / "site_scripts" / "browser" / "work" / "work-file.schema.json"
SCHEMA_CHECK = REPO / "site_scripts" / "browser" / "work" / "schema-check.mjs"
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


@pytest.fixture(scope="module")
def lesson(site):
    return lesson_map(site)


def block_exercises(page):
    """data-exercise (or None) of every runnable block of a page, in page order: as the browser numbers them."""
    return [attributes.get("data-exercise") for attributes in page_parts(page).blocks]


def js_verdicts(values, schema=SCHEMA):
    """problemWith(value, schema) of schema-check.mjs for each value, under Node: None or the problem."""
    script = ("import { problemWith } from " + json.dumps(SCHEMA_CHECK.as_uri()) + ";\n"
              "let input = ''; process.stdin.on('data', (part) => { input += part; });\n"
              "process.stdin.on('end', () => { const { values, schema } = JSON.parse(input);\n"
              "  try { console.log(JSON.stringify(values.map((value) => problemWith(value, schema)))); }\n"
              "  catch (error) { console.log(JSON.stringify({ thrown: error.message })); } });\n")
    result = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps({"values": values, "schema": schema}),
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_the_schema_is_valid_and_ships_with_the_site(site):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["format"]["const"] == FORMAT
    shipped = site / "assets" / "lesson" / "browser" / "work" / "work-file.schema.json"
    assert shipped.read_bytes() == SCHEMA_FILE.read_bytes()
    your_work = (site / "your-work" / "index.html").read_text(encoding="utf-8")
    assert 'href="../assets/lesson/browser/work/work-file.schema.json"' in your_work


def test_the_lesson_map_lists_the_built_pages_blocks_and_exercises(site, lesson):
    assert lesson["site"]["name"] == "From a slope to backpropagation"
    paths = [chapter["path"] for chapter in lesson["chapters"]]
    assert paths[0] == "" and "build-your-own/" in paths and lesson["buildYourOwn"] == "build-your-own/"
    for chapter in lesson["chapters"]:
        page = site / chapter["path"] / "index.html"
        assert chapter["blocks"] == len(runnable_sources(page)), chapter
    built = []
    for page in sorted(site.rglob("index.html")):
        place = page.parent.relative_to(site).as_posix()
        for number, name in enumerate(block_exercises(page), start=1):
            if name:
                built.append((name, "" if place == "." else f"{place}/", number))
    listed = [(exercise["name"], exercise["chapter"], exercise["block"]) for exercise in lesson["exercises"]]
    assert sorted(listed) == sorted(built) and len(listed) >= 14
    steps = [exercise for exercise in lesson["exercises"] if exercise["chapter"] == lesson["buildYourOwn"]]
    assert [step["title"].split(",")[0] for step in steps] == [f"Exercise: step {n}" for n in range(1, 8)]


def test_the_lesson_map_lists_each_pages_predictions_and_figures_filled_in_by_hand(site, lesson):
    """The class overview counts them per chapter: every checked prediction and every figure whose progress the
    page saves, with the page that holds it."""
    placed = []
    for page in sorted(site.rglob("index.html")):
        place = page.parent.relative_to(site).as_posix()
        chapter = "" if place == "." else f"{place}/"
        text = page.read_text(encoding="utf-8")
        placed += [(identifier, chapter) for identifier in re.findall(r'<div class="prediction" data-prediction="([^"]+)"', text)]
    assert sorted((item["id"], item["chapter"]) for item in lesson["predictions"]) == sorted(placed) and len(placed) >= 25
    assert [(item["name"], item["chapter"], item["title"]) for item in lesson["figures"]] == [
        ("backprop_by_hand", "backpropagation/", "Backpropagate by hand"), ("neuron_by_hand", "training/", "A neuron by hand")]


def test_a_version_1_file_keeps_loading_with_or_without_the_fields_added_later(lesson):
    """First tries and figures by hand were added to version 1 as optional fields: a file made before them is
    valid, and so is one that has them."""
    older = generated_work(lesson, "Old", seed=3)
    assert "figures" not in older and not any("first" in record for record in older["predictions"].values())
    newer = next(work for work in (generated_work(lesson, "New", seed=seed) for seed in range(40))
                 if work.get("figures") and any("firstRight" in record for record in work["predictions"].values()))
    for value in (older, newer):
        VALIDATOR.validate(value)
    assert js_verdicts([older, newer]) == [None, None]
    assert set(SCHEMA["required"]).isdisjoint({"figures"})
    assert not {"first", "firstRight"} & set(SCHEMA["properties"]["predictions"]["additionalProperties"]["required"])


def damaged_files(lesson):
    """(what is wrong, value) pairs that the schema must refuse."""
    good = generated_work(lesson, "Ada", seed=3)
    exercise = lesson["exercises"][0]["name"]

    def changed(change):
        value = copy.deepcopy(good)
        change(value)
        return value

    return [
        ("no format", changed(lambda v: v.pop("format"))),
        ("another version", changed(lambda v: v.update(version=2))),
        ("a field of its own", changed(lambda v: v.update(extra=1))),
        ("solved is a text", changed(lambda v: v["exercises"][exercise].update(solved="yes"))),
        ("code is a number", changed(lambda v: v["exercises"][exercise].update(code=5))),
        ("a bad time", changed(lambda v: v.update(saved="yesterday"))),
        ("runs below zero", changed(lambda v: v["pages"].update({"derivatives/": {"runs": -1, "lastRun": None,
                                                                                   "lastChange": v["saved"]}}))),
        ("an edit's place without a block", changed(lambda v: v["edits"].update({"derivatives/": {"code": "", "original": "00000000"}}))),
        ("a too long name", changed(lambda v: v.update(learner="x" * 101))),
        ("a too long code", changed(lambda v: v["exercises"][exercise].update(code="x" * 200001))),
        ("solutions neither on nor off", changed(lambda v: v["settings"].update(solutions="maybe"))),
        ("an engine that is a list", changed(lambda v: v["engine"].update(active=["print(1)"]))),
        ("no predictions", changed(lambda v: v.pop("predictions"))),
        ("a first try that is not text", changed(lambda v: v["predictions"].update(
            {"paths-total": {"answer": "7", "correct": True, "revealed": False, "first": 4, "firstRight": False}}))),
        ("a figure's boxes as text", changed(lambda v: v.update(figures={"backprop_by_hand": {"right": "2", "total": 11}}))),
        ("a figure without its total", changed(lambda v: v.update(figures={"backprop_by_hand": {"right": 2}}))),
        ("a list, not an object", [good]),
    ]


def test_generated_work_files_obey_the_schema_and_damaged_ones_do_not(lesson):
    for seed in range(30):
        VALIDATOR.validate(generated_work(lesson, f"Learner {seed}", seed=seed))
    for what, value in damaged_files(lesson):
        assert not VALIDATOR.is_valid(value), what


def test_the_browsers_check_agrees_with_jsonschema(lesson):
    values = [generated_work(lesson, f"Learner {seed}", seed=seed) for seed in range(5)]
    values += [value for _, value in damaged_files(lesson)]
    values += [json.loads(data) for _, data, _ in bad_work_files(lesson)
               if data.startswith(b"{") and len(data) < 100_000 and data.rstrip().endswith(b"}")]
    verdicts = js_verdicts(values)
    assert len(verdicts) == len(values)
    for value, verdict in zip(values, verdicts):
        assert (verdict is None) == VALIDATOR.is_valid(value), (verdict, value if len(json.dumps(value)) < 2000 else "...")
    damaged = dict(damaged_files(lesson))
    messages = dict(zip([what for what, _ in damaged_files(lesson)], js_verdicts(list(damaged.values()))))
    assert messages["solved is a text"] == f"exercises.{lesson['exercises'][0]['name']}.solved must be true or false"
    assert messages["a field of its own"] == 'the file has "extra", which a work file does not have'


def test_the_browsers_check_refuses_a_keyword_it_does_not_know():
    schema = dict(SCHEMA, properties=dict(SCHEMA["properties"], learner={"type": "string", "minLength": 1}))
    assert js_verdicts([{}], schema) == {"thrown": "schema-check.mjs does not know minLength"}


def test_the_architecture_notes_describe_every_field():
    notes = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = notes[notes.index("### Work files"):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    for field in SCHEMA["properties"]:
        assert f"`{field}`" in section, field
    for group in ("settings", "pages", "exercises", "predictions", "figures", "engine"):
        properties = SCHEMA["properties"][group].get("properties") or SCHEMA["properties"][group].get(
            "additionalProperties", {}).get("properties", {})
        for field in properties:
            assert f"`{field}`" in section, f"{group}.{field}"
