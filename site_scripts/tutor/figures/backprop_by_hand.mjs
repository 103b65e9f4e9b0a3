// backprop_by_hand.mjs: view of the figure "Backpropagate by hand" (model: backprop_by_hand.py).
// What it is: the "Graph" radios, one number field per box of each graph ("Gradient of e", with the numbers
// on its box's edges under the label; only the chosen graph's fields show, and only the open one can be
// checked), "Start again", and the graph drawn as the reader has filled it; once every box is right, the
// same graph as the engine's backward() filled it, below. The fields follow the boxes of the state drawn (another
// engine's graph may have more). What it is not: a check: whether an entry is right, and why not, comes
// from the model's state (text that is not a number never reaches it: figure.mjs's numberField says why).
import { graphDrawing, nodeHeading, panels } from "../../browser/figures/svg.mjs";

function captioned(graph, text) {
  const part = Object.assign(document.createElement("div"), { className: "figure__panel" });
  part.append(Object.assign(document.createElement("p"), { className: "figure__caption", textContent: text }), graph);
  return part;
}

/** Under a field's label, what the graph writes on the edges out of its box ("its edge to w·x: × 2"), so a
 *  reader far below the graph (on a phone) needs not scroll back; the field is described by it. */
function withHint(line, hint) {
  const label = line.querySelector("label");
  const caption = Object.assign(document.createElement("span"), { className: "figure__number-caption" });
  const note = Object.assign(document.createElement("span"), { className: "figure__number-hint", id: `${label.htmlFor}-hint`, textContent: hint });
  label.replaceWith(caption);
  caption.append(label, note);
  line.querySelector("input").setAttribute("aria-describedby", note.id);
}

export function mountView(figure) {
  const first = figure.state;
  const setChoice = figure.radios("Graph", first.choices, "choose_graph", (state, choice) => ({ state, choice }));
  const forms = {}; // graph -> { list, boxes: the keys its fields were made for, fields: key -> set(...) }
  for (const [choice] of first.choices) {
    const list = Object.assign(document.createElement("div"), { className: "figure__numbers" });
    figure.controls.append(list);
    forms[choice] = { list, boxes: "", fields: {} };
  }
  /** The fields of graph `choice`, made anew whenever its boxes are not those they were made for: the page's
   *  starting state is the lesson engine's, and another engine may build another graph (one that subtracts by
   *  adding a negation has more boxes). */
  const fieldsOf = (choice, rows) => {
    const form = forms[choice];
    const boxes = JSON.stringify(rows.map((row) => [row.key, row.label, row.hint]));
    if (form.boxes !== boxes) {
      form.list.replaceChildren();
      form.fields = {};
      for (const row of rows) {
        form.fields[row.key] = figure.numberField(row.label, `the gradient of ${row.key}`, "check_entry",
          (state, text, number) => ({ state, box: row.key, text, number }), form.list);
        withHint(form.list.lastElementChild, row.hint);
      }
      form.boxes = boxes;
    }
    return form.fields;
  };
  figure.button("Start again", "start_again");
  return (state) => {
    setChoice(state.choice);
    for (const [choice, { list }] of Object.entries(forms)) {
      const shown = choice === state.choice;
      list.hidden = !shown;
      const fields = fieldsOf(choice, state.forms[choice]);
      for (const row of state.forms[choice]) {
        fields[row.key]({ text: row.text, open: shown && row.open, done: shown && row.right, invalid: row.invalid });
      }
    }
    const root = state.graph.nodes.find((node) => node.is_root);
    const yours = captioned(graphDrawing(state.graph, `Computation graph of ${nodeHeading(root)} with the gradients you filled in`),
      `Your gradients: ${state.right_text} boxes`);
    const drawings = [yours];
    if (state.engine_graph) {
      drawings.push(captioned(graphDrawing(state.engine_graph, `The same graph with the gradients backward() computed`),
        "The same graph, filled by the engine's backward()"));
    }
    figure.draw(panels(...drawings));
    figure.readouts([["Boxes right", state.right_text]]);
    figure.messages(state.messages, state.warning);
  };
}
