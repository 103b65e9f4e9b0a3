"""The class overview's names (site_scripts/browser/class/names.mjs), under Node.

What it is: a table of names a work file may carry, and what the overview must make of them: hidden and
bidi control characters written out ("[U+200B]") while ordinary letters of any script stay as typed;
names that look alike (a Cyrillic or Greek look-alike letter, a no-break space, a full-width letter, a
hidden character, the same name twice) found together, and names that only resemble each other to a
careless eye kept apart; what sets each apart named in words.
What it is not: the page (tests/site/test_class_overview.py reads it in Chromium).
"""
import json
import subprocess
from pathlib import Path

NAMES = Path(__file__).resolve().parents[2] / "site_scripts" / "browser" / "class" / "names.mjs"


def names_module(call, values):
    """`call` (a function of the module's exports, as JavaScript text) applied to `values`, under Node."""
    script = (f"import * as names from {json.dumps(NAMES.as_uri())};\n"
              "let input = ''; process.stdin.on('data', (part) => { input += part; });\n"
              f"process.stdin.on('end', () => console.log(JSON.stringify(({call})(JSON.parse(input)))));\n")
    result = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(values),
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_hidden_and_bidi_characters_are_written_out_and_letters_stay():
    cases = {
        "Ada\u200b Lovelace": "Ada[U+200B] Lovelace",           # zero-width space
        "Ada \u202eLovelace": "Ada [U+202E]Lovelace",           # right-to-left override
        "\u2067Ada\u2069": "[U+2067]Ada[U+2069]",               # right-to-left isolate and its end
        "Ada\u00adLovelace": "Ada[U+00AD]Lovelace",             # soft hyphen
        "Ada\u3164": "Ada[U+3164]",                             # Hangul filler, drawn as nothing
        "Ada\U000e0041": "Ada[U+E0041]",                        # a tag character
        "Ada\u2800": "Ada[U+2800]",                             # Braille blank
        "Ada\nLovelace": "Ada[U+000A]Lovelace",
        "Émile Zola": "Émile Zola", "Анна Петрова": "Анна Петрова", "محمد علي": "محمد علي", "李雷": "李雷",
    }
    assert names_module("(values) => values.map(names.visibleName)", list(cases)) == list(cases.values())


def test_names_that_look_alike_are_found_together_and_others_kept_apart():
    names = ["Ada Lovelace", "\u0410da Lovelace", "\u0391da Lovelace", "Ada\u00a0Lovelace", "\uff21da Lovelace",
             "Ada\u200b Lovelace", "Ada Lovelace", "Ada  Lovelace",
             "Ian", "lan", "Anna", "\u0410\u043d\u043d\u0430", "Grace Hopper", "grace hopper"]
    groups = names_module("(values) => names.lookAlikeGroups(values)", names)
    assert groups == [[0, 1, 2, 3, 4, 5, 6, 7]]


def test_what_sets_a_name_apart_is_named():
    names = ["Ada Lovelace", "\u0410da Lovelace", "\u03bflga", "Ada\u00a0Lovelace", "\uff21da", "Ada\u202e"]
    assert names_module("(values) => values.map(names.oddLetters)", names) == [
        [], ["Cyrillic \u0410 (U+0410)"], ["Greek \u03bf (U+03BF)"], ["a space U+00A0"], ["\uff21 (U+FF21)"],
        ["a hidden character U+202E"]]
