// main.mjs: the lesson's one browser entry point, loaded on every page as a module script.
// What it is: the wiring that mounts runnable blocks, exercises, predictions, figures, the engine editor
// and the edited-engine banner, and the pages "Your work" and "Class overview", on each page Material
// shows (document$ fires on the first load and after every instant navigation), handing the mount
// functions the page visit's shared state (a LessonPage); it obeys ?solutions=off|on in the address, puts
// right an address that instant navigation left with another page's #heading, and registers the offline
// service worker once. What it is not: behaviour; each imported module owns its own.
import { mountBlocks } from "./blocks/blocks.mjs";
import { mountFigures } from "./figures/figures.mjs";
import { mountExercises } from "./exercises/exercises.mjs";
import { registerOffline } from "./offline/register.mjs";
import { mountEngineBanner } from "./engine_edit/engine-banner.mjs";
import { mountEngineEditor } from "./engine_edit/engine-editor.mjs";
import { isBuildOwnChapter, mountBuildOwn } from "./build_own/build-own.mjs";
import { lessonPage } from "./blocks/lesson-page.mjs";
import { mountPredictions } from "./predictions/predictions.mjs";
import { anchorWorkLink, mountWorkPages } from "./work/work-pages.mjs";
import { applySolutionsParameter } from "./storage/saved-settings.mjs";
import { putAddressRight, watchNavigation } from "./navigation/address.mjs";

registerOffline();
watchNavigation();
anchorWorkLink(document);
// Material's search dialog has no accessible name (axe: "aria-dialog-name"); the header is not
// replaced by instant navigation, so naming it once is enough.
document.querySelector('.md-search[role="dialog"]:not([aria-label])')?.setAttribute("aria-label", "Search");
document$.subscribe(() => {
  putAddressRight(); // first: Material's navigation.tracking may have given it the page left behind's #heading
  applySolutionsParameter(location.search); // before the exercises show their solution buttons
  mountEngineBanner(document);
  mountEngineEditor(document);
  // What this visit's blocks, exercises and chapter parts share; each mount needs the one before it
  // (it says so if not): exercise panels drive their blocks, "Use my engine" runs the last step's checks.
  const page = lessonPage(document, { chained: isBuildOwnChapter(document) });
  mountBlocks(page);
  mountExercises(page);
  mountBuildOwn(page);
  mountPredictions(page); // after mountBlocks: a prediction reads what the block after it computed
  mountFigures(document);
  mountWorkPages(document); // "Your work" and "Class overview", loaded only there
});
