// The Amoeboid board (anywidget ES module), as hexboard.js: Python draws the board (amoeboid_edu/ui/render.py)
// and says how each cell is highlighted; this module shows the `view` Python sends, animates through CSS
// classes, and sends intents back. It knows no rules. Every intent carries the `version` it was made on, so
// Python can refuse clicks made on an out-of-date board. No framework, no network: classrooms may be offline.

/**
 * @typedef {{turn: string, player: string, grow: string, src: string|null, dst: string|null,
 *            before_svg: string, grown_svg: string}} Step  a turn to show in two steps (grow, then move)
 * @typedef {{rows: number, cols: number, names: string[], svg: string, shown: string, to_move: string,
 *            phase: string, prompt: string, roll?: number|null, last_turn: string|null, grow?: string|null,
 *            src?: string|null, move?: string[]|null, selectable?: string[], targets?: string[],
 *            counts?: {a: number, b: number, max_a: number, max_b: number}|null,
 *            presets?: {label: string, target: string|null, a: number, b: number}[],
 *            stats: Record<string, number>, result: string, players?: Record<string, string>,
 *            steps?: Step[], queued?: number, next_turn?: string|null, can_undo?: boolean, ply?: number, plies?: number,
 *            script_status?: string|null, can_restart?: boolean, marked_grow?: string|null,
 *            pass_note?: string|null}} View
 */

const STEP_MS = 450; // each half of a bot's turn stays on screen this long

/** @param {number} x */
const signed = (x) => (x > 0 ? `+${x}` : `${x}`);

/** @param {string} tag @param {string} cls @param {string} [text] */
function make(tag, cls, text) {
  const node = document.createElement(tag);
  node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** @param {string} text @param {string} action @param {string} [title] */
function button(text, action, title) {
  const node = make("button", "amb-button", text);
  node.dataset.action = action;
  node.type = "button";
  if (title) node.title = title;
  return node;
}

/**
 * @typedef {{view: View, message: string, error: string, record: string, version: number, mode: string}} Model
 * @type {import("@anywidget/types").Render<Model>}
 */
function render({ model, el }) {
  const root = make("div", "amoeboid-board");
  root.tabIndex = 0;
  const status = make("div", "amb-status");
  const boardBox = make("div", "amb-board-box");
  const controls = make("div", "amb-controls");
  const message = make("div", "amb-message");
  message.setAttribute("aria-live", "polite");
  const error = make("div", "amb-error");
  error.setAttribute("role", "alert");
  const buttons = make("div", "amb-buttons");
  const historyBox = /** @type {HTMLDetailsElement} */ (make("details", "amb-history"));
  historyBox.open = model.get("history_open");
  historyBox.append(make("summary", "", "History (turn notation, copyable)"));
  const history = /** @type {HTMLTextAreaElement} */ (make("textarea", "amb-record"));
  history.readOnly = true;
  history.rows = 4;
  historyBox.append(history);
  root.append(status, boardBox, controls, message, error, buttons, historyBox);
  el.append(root);
  const coach = model.get("mode") === "play" ? coachPanel(model, (intent) => send(intent)) : null; // the coach's panel
  if (coach) root.insertBefore(coach.node, historyBox);

  let cursor = -1; // keyboard cursor (a cell index), drawn once the keyboard is used
  let keyboardUsed = false;
  /** @type {number[]} */
  let timers = [];
  let animatedVersion = -1;

  /** @param {Record<string, unknown>} intent */
  const send = (intent) => model.send({ ...intent, version: model.get("version") });

  const stopAnimation = () => {
    timers.forEach(clearTimeout);
    timers = [];
    root.classList.remove("amb-animating");
  };

  /** The keyboard cursor is a class on the cell under it (board.css draws its frame). */
  const placeCursor = (/** @type {View} */ view) => {
    boardBox.querySelectorAll(".amb-cursor-on").forEach((node) => node.classList.remove("amb-cursor-on"));
    if (keyboardUsed && cursor >= 0) boardBox.querySelector(`[data-cell="${view.names[cursor]}"]`)?.classList.add("amb-cursor-on");
  };

  const drawBoard = (/** @type {View} */ view) => {
    boardBox.innerHTML = view.svg; // drawn by Python, highlights and hint arrows included
    placeCursor(view);
    root.dataset.position = view.shown;
  };

  const drawStatus = (/** @type {View} */ view) => {
    const s = view.stats;
    const players = view.players ? ` (${view.players[view.to_move]})` : "";
    const mover = `<b class="amb-player-${view.to_move}">${view.to_move}</b>${players} to move`;
    // in a scripted line: "Scripted line, turn 4 of 11: B to move"
    const scripted = (view.script_status || "").replace(/: ([AB]) to move$/, ': <b class="amb-player-$1">$1</b> to move');
    const turn = view.result !== "ongoing" ? `<b>result: ${view.result}</b>` : scripted || mover;
    const roll = view.roll ? ` · roll <b class="amb-roll">${view.roll}</b>` : "";
    const passed = view.pass_note ? `: ${view.pass_note}` : ""; // e.g. "B had to pass (no legal move)"
    const last = view.last_turn ? ` · last turn <code>${view.last_turn}</code>${passed}` : "";
    const sums = `σ<sub>A</sub> ${s.sigma_A} · σ<sub>B</sub> ${s.sigma_B} · δ ${signed(s.delta)}`;
    const sizes = `Σ<sub>A</sub> ${s.Sigma_A} · Σ<sub>B</sub> ${s.Sigma_B} · Δ ${signed(s.Delta)}`;
    status.innerHTML = `${turn}${roll}${last}<br>${sums} · ${sizes}`;
  };

  const drawControls = (/** @type {View} */ view) => {
    controls.replaceChildren();
    if (!view.counts) return;
    const { a, b, max_a, max_b } = view.counts;
    for (const [side, value, max] of /** @type {[string, number, number][]} */ ([["A", a, max_a], ["B", b, max_b]])) {
      if (max === 0) continue; // no units of this side here: nothing to choose
      const stepper = make("span", `amb-stepper amb-stepper-${side}`);
      const minus = button("−", `minus-${side}`, `one ${side}-unit fewer`);
      const plus = button("+", `plus-${side}`, `one ${side}-unit more`);
      minus.disabled = value <= 0 || a + b <= 1; // a move takes at least one unit
      plus.disabled = value >= max;
      const label = make("span", "amb-stepper-label", `${side}-units`);
      stepper.append(label, minus, make("output", "amb-count", String(value)), plus);
      controls.append(stepper);
    }
    for (const preset of view.presets || []) {
      const name = preset.target ? `${preset.label} ${preset.target}` : preset.label;
      const node = button(`${name}: ${preset.a},${preset.b}`, "preset");
      node.dataset.a = String(preset.a);
      node.dataset.b = String(preset.b);
      node.classList.toggle("amb-chosen", preset.a === a && preset.b === b);
      controls.append(node);
    }
  };

  const drawButtons = (/** @type {View} */ view) => {
    buttons.replaceChildren();
    if (model.get("mode") === "replay") {
      const slider = /** @type {HTMLInputElement} */ (make("input", "amb-slider"));
      slider.type = "range";
      slider.min = "0";
      slider.max = String(view.plies);
      slider.value = String(view.ply);
      slider.setAttribute("aria-label", "turn");
      const prev = button("◀ prev", "prev");
      const next = button("next ▶", "next-ply");
      prev.disabled = view.ply === 0;
      next.disabled = view.ply === view.plies;
      buttons.append(prev, slider, next);
      return;
    }
    const undo = button("Undo", "undo");
    undo.disabled = !view.can_undo;
    if (view.queued) {
      const next = button("Next", "next", "play the scripted line's next turn");
      if (view.next_turn) next.append(make("span", "amb-next-turn", `: ${view.next_turn}`)); // presenter: the message says it
      else buttons.append(button("Reveal", "reveal", "show the next turn before playing it"));
      buttons.append(next);
    }
    buttons.append(undo, button("New game", "new"));
    if (view.can_offer_draw) buttons.append(button("Offer a draw", "draw", "the bot accepts when it is not ahead in size"));
    if (view.can_restart) buttons.append(button("Restart line", "restart", "back to the first turn of the scripted line"));
  };

  /** Show bot (or scripted) turns in two steps, grow then move, before the live view. */
  const animate = (/** @type {View} */ view) => {
    const steps = view.steps || [];
    if (!steps.length || animatedVersion === model.get("version")) return false;
    animatedVersion = model.get("version");
    root.classList.add("amb-animating");
    let delay = 0;
    for (const step of steps) {
      const who = view.players ? ` (${view.players[step.player]})` : "";
      timers.push(setTimeout(() => {
        const player = `<b class="amb-player-${step.player}">${step.player}</b>${who}`;
        status.innerHTML = `${player} is playing…<br><code>${step.turn}</code>`;
        boardBox.innerHTML = step.before_svg;
        message.textContent = `${step.player} plays ${step.turn}: grows ${step.grow}`;
      }, delay));
      delay += STEP_MS;
      timers.push(setTimeout(() => {
        boardBox.innerHTML = step.grown_svg;
        const move = step.src ? `moves ${step.src}-${step.dst}` : "no legal move";
        message.textContent = `${step.player} plays ${step.turn}: ${move}`;
      }, delay));
      delay += STEP_MS;
    }
    timers.push(setTimeout(() => {
      stopAnimation();
      drawStatus(view);
      drawBoard(view);
      message.textContent = model.get("message");
    }, delay));
    return true;
  };

  const applySize = () => root.classList.toggle("amb-presenter", model.get("size") === "presenter");
  const applyHistory = () => { historyBox.open = model.get("history_open"); };

  const update = () => {
    stopAnimation();
    applySize();
    const view = model.get("view");
    drawStatus(view);
    drawControls(view);
    drawButtons(view);
    if (!animate(view)) {
      drawBoard(view);
      message.textContent = model.get("message");
    }
    error.textContent = model.get("error");
    history.value = model.get("record");
    history.scrollTop = history.scrollHeight; // the latest turn in view
    root.dataset.phase = view.phase;
    root.dataset.version = String(model.get("version"));
    if (coach) coach.done();
  };

  const onClick = (/** @type {MouseEvent} */ event) => {
    const target = /** @type {Element} */ (event.target);
    const cell = target.closest("[data-cell]");
    if (root.classList.contains("amb-animating")) {
      update(); // a click skips the animation to the live board; buttons act as well
      if (cell) return; // the cell was clicked on a picture of the past
    }
    if (cell) {
      cursor = model.get("view").names.indexOf(/** @type {HTMLElement} */ (cell).dataset.cell);
      send({ kind: "cell", cell: /** @type {HTMLElement} */ (cell).dataset.cell });
      return;
    }
    const action = /** @type {HTMLElement|null} */ (target.closest("[data-action]"));
    if (!action) return;
    const view = model.get("view");
    const name = action.dataset.action || "";
    const counts = view.counts;
    if (name === "preset") send({ kind: "counts", a: Number(action.dataset.a), b: Number(action.dataset.b) });
    else if (name.startsWith("minus-") || name.startsWith("plus-")) {
      const change = name.startsWith("plus-") ? 1 : -1;
      const side = name.endsWith("A") ? "a" : "b";
      send({ kind: "counts", a: counts.a + (side === "a" ? change : 0), b: counts.b + (side === "b" ? change : 0) });
    } else if (name === "prev") send({ kind: "seek", ply: view.ply - 1 });
    else if (name === "next-ply") send({ kind: "seek", ply: view.ply + 1 });
    else send({ kind: name });
  };

  const onInput = (/** @type {Event} */ event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.classList.contains("amb-slider")) send({ kind: "seek", ply: Number(target.value) });
  };

  /** Arrow keys move the cursor, Enter or Space clicks the cell under it (replay: arrows step). */
  const onKey = (/** @type {KeyboardEvent} */ event) => {
    const view = model.get("view");
    if (/** @type {Element} */ (event.target).closest("textarea, input, button")) return;
    if (model.get("mode") === "replay") {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (step) send({ kind: "seek", ply: Math.min(view.plies, Math.max(0, view.ply + step)) });
      if (step) event.preventDefault();
      return;
    }
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[/** @type {keyof typeof moves} */ (event.key)];
    if (move) {
      keyboardUsed = true;
      const here = cursor < 0 ? 0 : cursor;
      const row = Math.min(view.rows - 1, Math.max(0, Math.floor(here / view.cols) + move[0]));
      const col = Math.min(view.cols - 1, Math.max(0, (here % view.cols) + move[1]));
      cursor = cursor < 0 ? 0 : row * view.cols + col;
      placeCursor(view);
      event.preventDefault();
    } else if ((event.key === "Enter" || event.key === " ") && cursor >= 0) {
      send({ kind: "cell", cell: view.names[cursor] });
      event.preventDefault();
    }
  };

  root.addEventListener("click", onClick);
  root.addEventListener("change", onInput);
  root.addEventListener("keydown", onKey);
  // Every accepted intent bumps `version` (Backbone has set all synced traits by then); a rejection
  // changes only `error`.
  const showError = () => { error.textContent = model.get("error"); };
  model.on("change:version", update);
  model.on("change:error", showError);
  model.on("change:size", applySize);
  model.on("change:history_open", applyHistory);
  if (coach) model.on("change:error", coach.done); // a refused Hint or Review stops the spinner
  const showProgress = () => coach?.update(model.get("view")); // the review's progress arrives without a new version
  if (coach) model.on("change:review_progress", showProgress);
  update();

  return () => {
    stopAnimation();
    model.off("change:version", update);
    model.off("change:error", showError);
    model.off("change:size", applySize);
    model.off("change:history_open", applyHistory);
    if (coach) model.off("change:error", coach.done);
    if (coach) model.off("change:review_progress", showProgress);
    root.removeEventListener("click", onClick);
    root.removeEventListener("change", onInput);
    root.removeEventListener("keydown", onKey);
  };
}

// --------------------------------------------------------------------------- the coach (hints and review)
// Python (amoeboid_edu.theory.coach) computes everything and draws the hint arrows into the board, the review's
// chart and the picked turn's board; this part only shows the `hints` and `review_view` it is sent and sends the
// Hint, Review, Cancel, "play this hint" and "pick a turn" intents.

/** The coach's panel under the board; returns its node and the hooks render() calls. */
function coachPanel(/** @type {any} */ model, /** @type {(intent: Record<string, unknown>) => void} */ send) {
  const node = make("div", "amb-coach");
  const busy = (/** @type {string} */ what) => {
    node.dataset.busy = what;
    const spinner = node.querySelector(".amb-coach-spinner");
    if (spinner) spinner.textContent = what ? `computing ${what}…` : "";
  };
  const update = (/** @type {View} */ view) => {
    node.replaceChildren();
    const row = make("div", "amb-coach-buttons");
    const live = ["grow", "source", "destination"].includes(view.phase);
    if (live) row.append(button("Hint", "coach-hint", "the coach's top 3 turns for this roll"));
    const running = model.get("review_progress");
    if (running.total) { // the review runs on the kernel's side: its progress, and a way to stop it
      if (node.dataset.busy === "the review") delete node.dataset.busy;
      row.append(button("Cancel", "coach-cancel", "stop the review"));
      row.append(make("span", "amb-review-progress", `reviewing… ${running.done} of ${running.total} turns`));
    } else if (view.phase === "over" && !Object.keys(model.get("review_view")).length)
      row.append(button("Review", "coach-review", "where the game was won and lost"));
    row.append(make("span", "amb-coach-spinner", node.dataset.busy ? `computing ${node.dataset.busy}…` : ""));
    node.append(row);
    const hints = live ? model.get("hints") : [];
    if (hints.length) {
      const list = make("ol", "amb-hint-list");
      hints.forEach((/** @type {any} */ hint, /** @type {number} */ k) => {
        const item = make("li", `amb-hint-item amb-hint-${k + 1}`);
        const play = button(hint.turn, "coach-play", "play this turn");
        play.dataset.turn = hint.turn;
        item.append(play, make("span", "amb-hint-figures",
          ` your win chance ${Math.round(hint.win * 100)}% · Δ ${signed(hint.Delta)} after it`));
        list.append(item);
      });
      node.append(list);
    }
    const review = model.get("review_view");
    if (view.phase === "over" && review.rows) {
      const box = make("div", "amb-review");
      const acc = review.accuracy;
      box.append(make("div", "amb-review-title",
        `Review: A's win chance (both sides greedy for two turns, then random) · accuracy A ${acc.A ?? "–"}, B ${acc.B ?? "–"}`));
      const picked = review.picked;
      const chartBox = make("div", "amb-review-chart-box");
      chartBox.innerHTML = review.chart; // drawn by Python (amoeboid_edu/ui/render.py)
      box.append(chartBox, make("div", "amb-review-legend",
        "dashed grey: the swing of the dice roll · solid: the swing of the choice · dotted: the estimate looking one turn further · big dots: inaccuracy (yellow), mistake (orange), blunder (red); click a turn"));
      const table = make("div", "amb-review-turns");
      for (const r of review.rows) {
        const item = make("button", `amb-review-turn amb-class-${r.class} ${r.turn === picked ? "amb-picked" : ""}`,
          `${r.turn} ${r.player} ${r.played} · ${r.class}`);
        item.type = "button";
        item.dataset.ply = String(r.turn);
        table.append(item);
      }
      box.append(table);
      if (picked >= 0) {
        const r = review.rows[picked - 1];
        const shown = make("div", "amb-review-position");
        const mini = make("div", "amb-review-board");
        mini.innerHTML = review.picked_svg;
        const better = ["best", "forced"].includes(r.class) ? "" : ` Better: ${r.best} (${Math.round(r.best_win * 100)}%).`;
        shown.append(mini, make("div", "amb-review-caption",
          `After turn ${r.turn}: ${r.player} played ${r.played} — ${r.class}; ${r.player}'s win chance ` +
          `${Math.round(r.win_before * 100)}% before the roll, ${Math.round(r.win_after_roll * 100)}% after it, ` +
          `${Math.round(r.win_after * 100)}% after the move.${better}`));
        box.append(shown);
      }
      node.append(box);
    }
  };
  node.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    event.stopPropagation(); // the board's own click handler never sees the coach's clicks
    const ply = target.closest("[data-ply]");
    if (ply) {
      send({ kind: "review_pick", ply: Number(/** @type {HTMLElement} */ (ply).getAttribute("data-ply")) });
      return;
    }
    const action = /** @type {HTMLElement|null} */ (target.closest("[data-action]"));
    if (!action) return;
    if (action.dataset.action === "coach-hint") { busy("hints"); send({ kind: "hint" }); }
    else if (action.dataset.action === "coach-review") { busy("the review"); send({ kind: "review" }); }
    else if (action.dataset.action === "coach-play") send({ kind: "play_hint", turn: action.dataset.turn });
    else if (action.dataset.action === "coach-cancel") send({ kind: "cancel_review" });
  });
  const done = () => { busy(""); update(model.get("view")); };
  return { node, update, done };
}

export default { render };
