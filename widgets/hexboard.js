// The namesakes' hex board (anywidget ES module). Python draws the board as SVG and says which cells
// and buttons do something; this module shows them and sends intents back: a clicked cell or a pressed
// button, stamped with the view's `version` so Python can refuse clicks made on an out-of-date board.

/**
 * @typedef {{id: string, label: string, active?: boolean, disabled?: boolean}} Button
 * @typedef {{svg: string, prompt: string, status: string, buttons: Button[], log: string[]}} View
 */

/** @param {{model: any, el: HTMLElement}} context */
function render({ model, el }) {
  el.classList.add("hx-widget");
  const prompt = document.createElement("div");
  prompt.className = "hx-prompt";
  const board = document.createElement("div");
  board.className = "hx-svg";
  const buttons = document.createElement("div");
  buttons.className = "hx-buttons";
  const error = document.createElement("div");
  error.className = "hx-error";
  const log = document.createElement("div");
  log.className = "hx-log";
  el.replaceChildren(prompt, board, buttons, error, log);

  /** @param {Record<string, string>} intent */
  const send = (intent) => model.send({ ...intent, version: model.get("version") });

  board.addEventListener("click", (event) => {
    const cell = /** @type {Element} */ (event.target).closest("[data-cell]");
    if (cell) send({ kind: "cell", cell: cell.getAttribute("data-cell") ?? "" });
  });

  const draw = () => {
    /** @type {View} */
    const view = model.get("view");
    prompt.textContent = view.prompt;
    board.innerHTML = view.svg;
    buttons.replaceChildren(
      ...view.buttons.map((button) => {
        const node = document.createElement("button");
        node.textContent = button.label;
        node.dataset.button = button.id;
        node.disabled = Boolean(button.disabled);
        node.classList.toggle("hx-active", Boolean(button.active));
        node.addEventListener("click", () => send({ kind: "button", button: button.id }));
        return node;
      }),
    );
    error.textContent = model.get("error");
    log.textContent = view.status + (view.log.length ? ` · moves: ${view.log.join(" ")}` : "");
    el.dataset.version = String(model.get("version")); // tests wait for the version Python holds
  };
  model.on("change:view", draw);
  model.on("change:error", draw);
  model.on("change:version", draw);
  draw();
}

export default { render };
