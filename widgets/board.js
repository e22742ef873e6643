// The Amoeboid board (anywidget ES module). It draws the `view` Python sends and sends intents
// back; it knows no rules. Every intent carries the `version` it was made on, so Python can refuse
// clicks made on an out-of-date board. No framework, no network: classrooms may be offline.

/**
 * @typedef {[number, number] | null} Cell  (a, b) control numbers, or null for an empty cell
 * @typedef {{turn: string, player: string, grow: string, src: string|null, dst: string|null,
 *            before: Cell[], grown: Cell[]}} Step  a turn to show in two steps (grow, then move)
 * @typedef {{rows: number, cols: number, names: string[], cells: Cell[], shown: string, to_move: string,
 *            phase: string, prompt: string, roll?: number|null, last_turn: string|null, grow?: string|null,
 *            src?: string|null, move?: string[]|null, selectable?: string[], targets?: string[],
 *            counts?: {a: number, b: number, max_a: number, max_b: number}|null,
 *            presets?: {label: string, target: string|null, a: number, b: number}[],
 *            stats: Record<string, number>, result: string, players?: Record<string, string>,
 *            steps?: Step[], queued?: number, next_turn?: string|null, can_undo?: boolean, ply?: number, plies?: number,
 *            script_status?: string|null, can_restart?: boolean, marked_grow?: string|null,
 *            pass_note?: string|null}} View
 */

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 80; // SVG units per cell; the drawing scales to the output's width
const STEP_MS = 450; // each half of a bot's turn stays on screen this long

/** @param {number} x */
const signed = (x) => (x > 0 ? `+${x}` : `${x}`);

/**
 * SVG markup for one element (numbers rounded to 0.1 so the markup stays short).
 * @param {string} tag @param {Record<string, string|number>} attrs @param {string} [inner]
 */
function svg(tag, attrs, inner) {
  const text = Object.entries(attrs)
    .map(([key, value]) => `${key}="${typeof value === "number" ? Math.round(value * 10) / 10 : value}"`)
    .join(" ");
  return inner === undefined ? `<${tag} ${text}/>` : `<${tag} ${text}>${inner}</${tag}>`;
}

/**
 * A pie slice of `fraction` of a disc, clockwise from 12 o'clock (a full disc when fraction >= 1).
 * @param {number} cx @param {number} cy @param {number} r @param {number} fraction @param {string} cls
 */
function wedge(cx, cy, r, fraction, cls) {
  if (fraction >= 1) return svg("circle", { class: cls, cx, cy, r });
  const angle = 2 * Math.PI * fraction;
  const [x, y] = [cx + r * Math.sin(angle), cy - r * Math.cos(angle)].map((v) => v.toFixed(1));
  const large = fraction > 0.5 ? 1 : 0;
  return svg("path", { class: cls, d: `M${cx},${cy} V${(cy - r).toFixed(1)} A${r},${r} 0 ${large} 1 ${x},${y} Z` });
}

const ARROW_HEAD = svg(
  "marker",
  { id: "amb-head", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" },
  svg("path", { d: "M0,0 L10,5 L0,10 z", class: "amb-arrowhead" }),
);

/**
 * The board as SVG markup: cells, amoebae (area proportional to size, A's share blue, B's orange,
 * outline in the owner's colour, neutral dashed), highlights and the keyboard cursor.
 * @param {View} view @param {Cell[]} cells @param {Record<string, string>} marks cell name -> class list
 * @param {number} cursor @param {string[]|null} arrow [src, dst] to draw an arrow between
 */
function boardSvg(view, cells, marks, cursor, arrow) {
  const { rows, cols, names } = view;
  const largest = Math.max(1, ...cells.map((c) => (c ? c[0] + c[1] : 0)));
  const centre = (/** @type {number} */ i) => [((i % cols) + 0.5) * CELL, (Math.floor(i / cols) + 0.5) * CELL];
  const square = (/** @type {number} */ cx, /** @type {number} */ cy, /** @type {number} */ inset) => ({
    x: cx - CELL / 2 + inset,
    y: cy - CELL / 2 + inset,
    width: CELL - 2 * inset,
    height: CELL - 2 * inset,
  });
  const cellsMarkup = names.map((name, i) => {
    const [cx, cy] = centre(i);
    const cell = cells[i];
    const parts = [
      svg("rect", { class: "amb-square", ...square(cx, cy, 0) }),
      svg("rect", { class: "amb-mark", rx: 6, ...square(cx, cy, 4) }),
    ];
    if (cell) {
      const [a, b] = cell;
      const r = Math.max(CELL * 0.2, CELL * 0.36 * Math.sqrt((a + b) / largest)); // room for a small label
      if (b) parts.push(wedge(cx, cy, r, 1, "amb-b"));
      if (a) parts.push(wedge(cx, cy, r, a / (a + b), "amb-a"));
      const owner = a > b ? "amb-own-a" : b > a ? "amb-own-b" : "amb-neutral";
      parts.push(svg("circle", { class: `amb-ring ${owner}`, cx, cy, r: r + 3 }));
      const text = `(${a},${b})`;
      const fit = Math.min(1, (2.3 * r) / (0.6 * 15 * text.length)); // shrink a long label to about the disc's width
      const shrink = fit < 1 ? { style: `font-size: ${Math.round(100 * fit)}%` } : {};
      parts.push(svg("text", { class: "amb-label", x: cx, y: cy + 5, ...shrink }, text));
    }
    if (i === cursor) parts.push(svg("rect", { class: "amb-cursor", rx: 8, ...square(cx, cy, 2) }));
    const amoeba = cell ? `(${cell[0]},${cell[1]})` : ".";
    const label = cell ? `${name} ${amoeba}` : `${name} empty`;
    const shade = (Math.floor(i / cols) + i) % 2 ? "amb-shaded" : "";
    const attrs = { class: `amb-cell ${shade} ${marks[name] || ""}`, "data-cell": name, "data-amoeba": amoeba };
    return svg("g", { ...attrs, role: "gridcell", "aria-label": label }, parts.join(""));
  });
  if (arrow && arrow[0] && arrow[1]) {
    const [x1, y1] = centre(names.indexOf(arrow[0]));
    const [x2, y2] = centre(names.indexOf(arrow[1]));
    // from a quarter of the way to where the destination cell begins: the head stops short of its amoeba's label
    const at = (/** @type {number} */ f) => ({ x: x1 + (x2 - x1) * f, y: y1 + (y2 - y1) * f });
    const [from, to] = [at(0.25), at(0.5)];
    const line = { x1: from.x, y1: from.y, x2: to.x, y2: to.y };
    cellsMarkup.push(svg("line", { class: "amb-arrow", "marker-end": "url(#amb-head)", ...line }));
  }
  // Cell names last, over a diagonal arrow's ends (which cross a cell's corner); clicks go through to the cell.
  const labels = names.map((name, i) => {
    const [cx, cy] = centre(i);
    const grown = (marks[name] || "").includes("amb-last-grow") ? " amb-last-grow" : "";
    return svg("text", { class: `amb-name${grown}`, x: cx - CELL / 2 + 5, y: cy - CELL / 2 + 14 }, name);
  });
  cellsMarkup.push(svg("g", { class: "amb-names", "pointer-events": "none" }, labels.join("")));
  const attrs = { xmlns: SVG_NS, class: "amb-svg", style: `--amb-cols: ${cols}` }; // board.css caps a cell's width
  const frame = { viewBox: `0 0 ${cols * CELL} ${rows * CELL}`, preserveAspectRatio: "xMidYMin meet", role: "grid",
    "aria-label": `board ${view.shown}` }; // a presenter board fills a box of another shape: centred, at the top
  return svg("svg", { ...attrs, ...frame }, `<defs>${ARROW_HEAD}</defs>${cellsMarkup.join("")}`);
}

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

  /** Marks for the live view: selectable cells, the grow, the source, the legal destinations. */
  const liveMarks = (/** @type {View} */ view) => {
    /** @type {Record<string, string>} */
    const marks = {};
    const add = (/** @type {string|null|undefined} */ name, /** @type {string} */ cls) => {
      if (name) marks[name] = `${marks[name] || ""} ${cls}`;
    };
    (view.selectable || []).forEach((name) => add(name, "amb-selectable"));
    (view.targets || []).forEach((name) => add(name, "amb-target"));
    add(view.grow, "amb-grow");
    add(view.src, "amb-source");
    if (view.move && model.get("mode") === "replay") {
      add(view.move[0], "amb-source");
      add(view.move[1], "amb-target");
    } else if (view.move) {  // the last bot or scripted turn stays marked until the next action
      add(view.move[0], "amb-last-src");
      add(view.move[1], "amb-last-dst");
    }
    add(view.marked_grow, "amb-last-grow");
    return marks;
  };

  const drawBoard = (/** @type {View} */ view) => {
    const arrow = view.move || null;
    boardBox.innerHTML = boardSvg(view, view.cells, liveMarks(view), keyboardUsed ? cursor : -1, arrow);
    if (coach) boardBox.querySelector("svg")?.insertAdjacentHTML("beforeend", coach.arrows(view)); // hint arrows
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
        boardBox.innerHTML = boardSvg(view, step.before, { [step.grow]: "amb-grow" }, -1, null);
        message.textContent = `${step.player} plays ${step.turn}: grows ${step.grow}`;
      }, delay));
      delay += STEP_MS;
      timers.push(setTimeout(() => {
        /** @type {Record<string, string>} */
        const marks = { [step.grow]: "amb-grow" };
        if (step.src && step.dst) Object.assign(marks, { [step.src]: "amb-source", [step.dst]: "amb-target" });
        boardBox.innerHTML = boardSvg(view, step.grown, marks, -1, step.src ? [step.src, step.dst || ""] : null);
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
      drawBoard(view);
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
// Python (amoeboid_edu.coach) computes everything; this part only draws the `hints` and `review_view`
// it is sent and sends the Hint, Review and "play this hint" intents.

const CLASS_COLOURS = { inaccuracy: "#e0b000", mistake: "#e07000", blunder: "#d02020" };

/** Arrows (numbered 1..3) for the hints, drawn into the board's SVG. */
function hintArrows(/** @type {View} */ view, /** @type {any[]} */ hints) {
  const centre = (/** @type {string} */ name) => {
    const i = view.names.indexOf(name);
    return [((i % view.cols) + 0.5) * CELL, (Math.floor(i / view.cols) + 0.5) * CELL];
  };
  return hints.map((hint, k) => {
    if (!hint.src || !hint.dst) {
      const [cx, cy] = centre(hint.grow);
      return svg("g", { class: `amb-hint amb-hint-${k + 1}` },
        svg("circle", { class: "amb-hint-ring", cx, cy, r: CELL * 0.42 }) +
        svg("text", { class: "amb-hint-number", x: cx + CELL * 0.3, y: cy - CELL * 0.25 }, String(k + 1)));
    }
    const [x1, y1] = centre(hint.src);
    const [x2, y2] = centre(hint.dst);
    const [dx, dy] = [(x2 - x1) * 0.2, (y2 - y1) * 0.2];
    // arrows between the same two cells (other counts) sit side by side, apart across their direction
    const twin = hints.slice(0, k).filter((h) => h.src === hint.src && h.dst === hint.dst).length;
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [px, py] = [-(y2 - y1) / length, (x2 - x1) / length];
    const [ox, oy] = [px * twin * 16, py * twin * 16];
    const line = { x1: x1 + dx + ox, y1: y1 + dy + oy, x2: x2 - dx + ox, y2: y2 - dy + oy };
    const label = { x: (x1 + x2) / 2 + ox + px * 12 + 4, y: (y1 + y2) / 2 + oy + py * 12 + 4 };
    return svg("g", { class: `amb-hint amb-hint-${k + 1}` },
      svg("line", { class: "amb-hint-arrow", "marker-end": "url(#amb-head)", ...line }) +
      svg("text", { class: "amb-hint-number", ...label }, String(k + 1)));
  }).join("");
}

/** A's win chance at the start of every turn, as coach.Review.chart draws it; each step split into the dice's
 * swing (dashed grey), the choice's (solid) and the estimate's horizon (dotted); markers at mistakes (clickable). */
function reviewChart(/** @type {any} */ review, /** @type {number} */ picked) {
  const rows = review.rows;
  const [W, H, L, T] = [520, 176, 46, 12]; // room left of the plot for 14 px labels
  const n = Math.max(1, rows.length);
  const x = (/** @type {number} */ t) => L + (t / n) * (W - L - 10);
  const y = (/** @type {number} */ p) => T + (1 - p) * (H - T - 20);
  const parts = [
    svg("line", { class: "amb-review-half", x1: L, x2: W - 10, y1: y(0.5), y2: y(0.5) }),
    svg("text", { class: "amb-review-axis", x: 2, y: y(1) + 4 }, "100%"),
    svg("text", { class: "amb-review-axis", x: 9, y: y(0.5) + 4 }, "50%"),
    svg("text", { class: "amb-review-axis", x: 18, y: y(0) + 4 }, "0%"),
    svg("text", { class: "amb-review-axis", x: W - 70, y: H - 2 }, `turn ${rows.length}`),
  ];
  rows.forEach((/** @type {any} */ row, /** @type {number} */ i) => {
    const xm = x(i + 0.5);
    parts.push(svg("line", { class: "amb-review-dice", x1: x(i), y1: y(row.A_before), x2: xm, y2: y(row.A_after_roll) }));
    parts.push(svg("line", { class: "amb-review-choice", x1: xm, y1: y(row.A_after_roll), x2: x(i + 1), y2: y(row.A_after) }));
    parts.push(svg("line", { class: "amb-review-horizon", x1: x(i + 1), y1: y(row.A_after), x2: x(i + 1), y2: y(row.A_next) }));
  });
  rows.forEach((/** @type {any} */ row, /** @type {number} */ i) => {
    const colour = CLASS_COLOURS[/** @type {keyof typeof CLASS_COLOURS} */ (row.class)];
    const attrs = { class: `amb-review-point ${row.turn === picked ? "amb-picked" : ""}`, "data-ply": row.turn,
      cx: x(i + 1), cy: y(row.A_next), r: colour ? 6 : 3 };
    const tip = `turn ${row.turn} ${row.player}: ${row.played} (${row.class})` +
      (colour ? `; better: ${row.best}` : "");
    parts.push(svg("circle", { ...attrs, ...(colour ? { style: `fill:${colour}` } : {}) }, `<title>${tip}</title>`));
  });
  return svg("svg", { xmlns: SVG_NS, class: "amb-review-chart", viewBox: `0 0 ${W} ${H}`,
    role: "img", "aria-label": "A's win chance over the game" }, parts.join(""));
}

/** The coach's panel under the board; returns its node and the hooks render() calls. */
function coachPanel(/** @type {any} */ model, /** @type {(intent: Record<string, unknown>) => void} */ send) {
  const node = make("div", "amb-coach");
  let picked = -1;
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
      const chartBox = make("div", "amb-review-chart-box");
      chartBox.innerHTML = reviewChart(review, picked);
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
        mini.innerHTML = boardSvg(view, review.plies[picked], {}, -1, review.moves[picked]);
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
      picked = Number(/** @type {HTMLElement} */ (ply).dataset.ply);
      update(model.get("view"));
      return;
    }
    const action = /** @type {HTMLElement|null} */ (target.closest("[data-action]"));
    if (!action) return;
    if (action.dataset.action === "coach-hint") { busy("hints"); send({ kind: "hint" }); }
    else if (action.dataset.action === "coach-review") { picked = -1; busy("the review"); send({ kind: "review" }); }
    else if (action.dataset.action === "coach-play") send({ kind: "play_hint", turn: action.dataset.turn });
    else if (action.dataset.action === "coach-cancel") send({ kind: "cancel_review" });
  });
  const done = () => { busy(""); update(model.get("view")); };
  return { node, update, done, arrows: (/** @type {View} */ view) => (["grow", "source", "destination"].includes(view.phase) ? hintArrows(view, model.get("hints")) : "") };
}

export default { render };
