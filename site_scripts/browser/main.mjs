// main.mjs: the lesson's one browser entry point, loaded on every page as a module script.
// What it is: the wiring that mounts runnable blocks, exercises, figures, predictions, the engine editor and the edited-engine
// banner on each page Material shows (document$ fires on the first load and after every instant
// navigation) and registers the
// offline service worker once. What it is not: behaviour; each imported module owns its own.
import { mountBlocks } from "./blocks/blocks.mjs";
import { mountFigures } from "./figures/figures.mjs";
import { mountExercises } from "./exercises/exercises.mjs";
import { registerOffline } from "./offline/register.mjs";
import { mountEngineBanner } from "./engine_edit/engine-banner.mjs";
import { mountEngineEditor } from "./engine_edit/engine-editor.mjs";
import { mountBuildOwn } from "./build_own/build-own.mjs";
import { mountPredictions } from "./predictions/predictions.mjs";

registerOffline();
// Material's search dialog has no accessible name (axe: "aria-dialog-name"); the header is not
// replaced by instant navigation, so naming it once is enough.
document.querySelector('.md-search[role="dialog"]:not([aria-label])')?.setAttribute("aria-label", "Search");
document$.subscribe(() => {
  mountEngineBanner(document);
  mountEngineEditor(document);
  mountBlocks(document);
  mountExercises(document); // after mountBlocks: an exercise panel drives its block
  mountBuildOwn(document); // after mountExercises: "Use my engine" runs the last step's checks
  mountFigures(document);
  mountPredictions(document); // after mountBlocks: a prediction reads what its block computed
});
