// Volo's board for the Tablier web client: the hexagonal sky drawn in SVG, click input.
//
// The board module interface is described in docs/web-client.md; the views it reads
// (state_view and move_view) come from src/tablier/games/volo/view.py.
//
// Click input:
// - add a bird: click a marked empty cell;
// - fly: click one of your birds (it becomes the anchor), then, for a line, click the
//   bird at its other end (every cell between must hold your birds); click a marked
//   cell: the cell where the leading bird of the line lands (for a flight side by side,
//   the anchor is the leading bird).  Hovering a marked cell shows where every bird lands;
// - when the flight divides the opponent, the board
//   numbers the opponent's regions and asks which one to keep (the shell's dialog, or a
//   click on a bird of that region);
// - clicking the anchor again, or an empty unmarked cell, drops the selection.

const SVGNS = "http://www.w3.org/2000/svg";
const SIZE = 20; // hexagon circumradius in SVG units
const W = Math.sqrt(3) * SIZE; // width of a hexagon (pointy top)
const SIDE_CLASS = ["orange", "blue"];

const STYLE = `
.volo-board { --volo-o: var(--side0, #E69F00); --volo-b: var(--side1, #0072B2);
  --volo-cell: var(--cell-bg, #fbf7ee); --volo-cell-line: var(--line, #b9ab8a);
  --volo-hole: color-mix(in srgb, var(--board-bg, #e4dcc8) 82%, var(--text, #1d1d1b));
  --volo-text: var(--text, #1d1d1b);
  --volo-target: var(--target, #009E73); --volo-last: var(--last, #F0E442);
  --volo-select: var(--selected, #CC79A7); --volo-mark: #fff; --volo-bird-line: #2a2000;
  display: flex; flex-direction: column; align-items: center; gap: .4rem; width: 100%; }
.volo-board svg.volo-sky { width: 100%; height: auto; display: block;
  touch-action: manipulation; user-select: none; -webkit-user-select: none; }
.volo-sky .hex { fill: var(--volo-cell); stroke: var(--volo-cell-line); stroke-width: 1; }
.volo-sky .hole .hex { fill: var(--volo-hole); stroke-dasharray: 3 3; }
.volo-sky .hole .hatch { stroke: var(--volo-cell-line); stroke-width: 1; }
.volo-sky .coord { fill: var(--volo-text); font: 13px system-ui, sans-serif; opacity: .8;
  text-anchor: middle; dominant-baseline: central; pointer-events: none; }
.volo-sky .cell { cursor: default; }
.volo-sky .cell.clickable { cursor: pointer; }
.volo-sky .cell:focus { outline: none; }
.volo-sky .cell:focus-visible .hex { stroke: var(--focus, #0072B2); stroke-width: 3.5; }
.volo-board .bird.orange { fill: var(--volo-o); stroke: var(--volo-bird-line); stroke-width: 1.2; }
.volo-board .bird.blue { fill: var(--volo-b); stroke: var(--volo-bird-line); stroke-width: 1.2; }
.volo-board .ring { fill: none; stroke: var(--volo-mark); stroke-width: 2.4; }
.volo-sky .cell.target.fly .hex, .volo-sky .cell.region .hex {
  fill: color-mix(in srgb, var(--volo-target) 30%, var(--volo-cell)); }
.volo-sky .target-dot { fill: var(--volo-target); pointer-events: none; }
.volo-sky .cell.target.add .target-dot { opacity: .8; }
.volo-sky .cell.target.add:hover .hex {
  fill: color-mix(in srgb, var(--volo-target) 30%, var(--volo-cell)); }
.volo-sky .cell.movable .bird { stroke-width: 2; }
.volo-sky .cell.selected .hex { fill: color-mix(in srgb, var(--volo-select) 45%, var(--volo-cell));
  stroke: var(--volo-select); stroke-width: 3; }
.volo-sky .cell.ghost .hex { stroke: var(--volo-target); stroke-width: 3; stroke-dasharray: 4 2; }
.volo-sky .cell.last-to .hex { fill: color-mix(in srgb, var(--volo-last) 55%, var(--volo-cell)); }
.volo-sky .last-frame { fill: none; pointer-events: none; stroke-width: 2.5;
  stroke: color-mix(in srgb, var(--volo-last) 65%, var(--volo-text)); }
.volo-sky .last-frame.from { stroke-dasharray: 4 3; }
.volo-sky .gone { stroke: color-mix(in srgb, var(--volo-last) 50%, var(--volo-text));
  stroke-width: 2.5; pointer-events: none; }
.volo-sky .cell.region .hex { stroke: var(--volo-target); stroke-width: 3; }
.volo-sky .region-letter { font: bold 13px system-ui, sans-serif; text-anchor: middle;
  dominant-baseline: central; fill: #fff; pointer-events: none;
  paint-order: stroke; stroke: #000; stroke-width: 3px; }
.volo-bar { display: flex; gap: .6rem; align-items: center; flex-wrap: wrap;
  justify-content: center;
  font-size: .9rem; min-height: 1.8rem; color: var(--volo-text); text-align: center; }
.volo-info { display: grid; gap: .3rem; align-items: start; }
.volo-info .side { display: flex; align-items: center; gap: .2rem .45rem; flex-wrap: wrap; }
.volo-info .side.to-move .name { font-weight: bold; }
.volo-info svg.volo-icon { width: 1.2em; height: 1.2em; flex: none; }
.volo-info .volo-rules { color: var(--muted, inherit); font-size: .9em; }
`;

function injectStyle() {
  if (document.getElementById("volo-board-style")) return;
  const style = document.createElement("style");
  style.id = "volo-board-style";
  style.textContent = STYLE;
  document.head.append(style);
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.append(node);
  return node;
}

function hexPoints(x, y, size) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 90);
    pts.push(`${(x + size * Math.cos(a)).toFixed(2)},${(y + size * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** Draw a bird of `side`: 0 Orange, a plain disc; 1 Blue, a ring with a dot (a disc with a
 *  white ring inside), the shapes of the shell's side markers. */
function drawBird(parent, x, y, side, radius) {
  const g = el("g", { class: `bird-mark ${SIDE_CLASS[side]}` }, parent);
  el("circle", { class: `bird ${SIDE_CLASS[side]}`, cx: x, cy: y, r: radius }, g);
  if (side === 1) {
    el("circle", { class: "ring", cx: x, cy: y, r: radius * 0.5 }, g);
  }
  return g;
}

function label(q, r) {
  return String.fromCharCode(97 + q) + (r + 1);
}

function sameCells(a, b) {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((c) => set.has(c));
}

/** Create the Volo board inside `host` (see docs/web-client.md, "Volo board"). */
export function createBoard(host, { submit, choose } = {}) {
  injectStyle();
  const root = document.createElement("div");
  root.className = "volo-board";
  const svg = el("svg", { class: "volo-sky", role: "group", "aria-label": "Volo board" });
  const bar = document.createElement("div");
  bar.className = "volo-bar";
  const hint = document.createElement("span");
  hint.dataset.testid = "volo-hint";
  hint.setAttribute("aria-live", "polite");
  const passButton = document.createElement("button");
  passButton.type = "button";
  passButton.textContent = "Pass";
  passButton.dataset.testid = "volo-pass";
  passButton.style.display = "none"; // not `hidden`: page styles may give buttons a display
  bar.append(hint, passButton);
  root.append(svg, bar);
  host.append(root);

  let view = null;
  let legal = null;
  let last = null;
  let coordinates = true;
  let flipped = false;
  let renderKey = "";
  // selection: {anchor, line: [labels]}; choice: {moves, token} while a region is being chosen
  let selection = null;
  let choice = null;
  let choiceToken = 0;
  let preview = null; // landing cells shown while hovering a flight target
  let coords = new Map(); // label -> [q, r]
  let cellEls = new Map(); // label -> the cell's <g>, for hover previews without a redraw
  let focusCell = null; // the cell to focus again after a redraw (keyboard input)

  const send = (notation) => {
    selection = null;
    choice = null;
    preview = null;
    draw();
    if (submit) submit(notation);
  };

  passButton.addEventListener("click", () => {
    if (legal && legal.some((m) => m.kind === "pass")) send("pass");
  });

  function position(q, r) {
    const x = W * (q - r / 2);
    const y = -1.5 * SIZE * r;
    return flipped ? [-x, -y] : [x, y];
  }

  function flights() {
    return legal ? legal.filter((m) => m.kind === "fly") : [];
  }

  function movableBirds() {
    return new Set(flights().flatMap((m) => m.from));
  }

  /** The cell where the leading bird of the line lands (see the header comment). */
  function frontLanding(move, anchor) {
    const line = new Set(move.from);
    const [dq, dr] = move.step;
    let pick = -1;
    move.from.forEach((c, i) => {
      const [q, r] = coords.get(c);
      if (line.has(label(q + dq, r + dr))) return; // a bird of the line is ahead of it
      if (pick < 0 || c === anchor) pick = i;
    });
    return move.to[pick];
  }

  let targetsCache = { selection: null, legal: null, targets: new Map() };

  /** Flight targets of the current selection: landing cell -> [move_view] (cached). */
  function flightTargets() {
    if (!selection) return new Map();
    if (targetsCache.selection === selection && targetsCache.legal === legal) {
      return targetsCache.targets;
    }
    const out = new Map();
    for (const m of flights()) {
      if (!sameCells(m.from, selection.line)) continue;
      const cell = frontLanding(m, selection.anchor);
      if (!out.has(cell)) out.set(cell, []);
      out.get(cell).push(m);
    }
    targetsCache = { selection, legal, targets: out };
    return out;
  }

  function addTargets() {
    const out = new Map();
    if (!legal || selection || choice) return out;
    for (const m of legal) if (m.kind === "add") out.set(m.to[0], [m]);
    return out;
  }

  /** The straight line of friendly birds from `a` to `b`, or null. */
  function lineBetween(a, b) {
    const [qa, ra] = coords.get(a);
    const [qb, rb] = coords.get(b);
    const dq = qb - qa;
    const dr = rb - ra;
    const n = Math.max(Math.abs(dq), Math.abs(dr));
    const straight = dq === 0 || dr === 0 || dq === dr;
    if (!n || !straight) return null;
    const mine = view.to_move;
    const cells = [];
    for (let k = 0; k <= n; k++) {
      const c = label(qa + (dq / n) * k, ra + (dr / n) * k);
      if (view.birds[c] !== mine) return null;
      cells.push(c);
    }
    return cells;
  }

  function hasFlight(line) {
    return flights().some((m) => sameCells(m.from, line));
  }

  function setHint() {
    const player = view && view.to_move != null ? view.players[view.to_move] : "";
    if (!legal || !view || view.to_move == null) {
      hint.textContent = "";
    } else if (choice) {
      const other = view.players[1 - view.to_move];
      hint.textContent =
        `This flight divides ${other}: choose the region to keep (click one of its birds).`;
    } else if (selection) {
      const line = selection.line;
      const what = line.length > 1 ? `line ${line[0]}–${line.at(-1)}` : selection.anchor;
      hint.textContent = flightTargets().size
        ? `${what} selected: click a marked cell (where the leading bird lands), ` +
          "or another bird in line."
        : `${what} has no flight of its own: click the bird at the other end of a line, ` +
          "or another bird.";
    } else {
      const adds = legal.some((m) => m.kind === "add");
      const flies = legal.some((m) => m.kind === "fly");
      const parts = [];
      if (adds) parts.push("click a marked cell to add a bird");
      if (flies) parts.push("click one of your birds to fly");
      hint.textContent = parts.length
        ? `${player} to play: ${parts.join(", or ")}.`
        : `${player} can only pass.`;
    }
    const canPass = !!(legal && legal.some((m) => m.kind === "pass"));
    passButton.style.display = canPass ? "" : "none";
  }

  function startChoice(moves) {
    // choices that hand the opponent the game come last, so the first button is never one
    moves = [...moves].sort((a, b) => (a.opponent_wins ? 1 : 0) - (b.opponent_wins ? 1 : 0));
    const token = ++choiceToken;
    choice = { moves, token };
    draw();
    if (typeof choose !== "function") return;
    const other = view.players[1 - view.to_move];
    const options = moves.map((m, i) => ({
      label:
        `Region ${i + 1}: keep ${m.kept.length} bird${m.kept.length === 1 ? "" : "s"} ` +
        `(${m.kept.join(" ")}), remove ${m.removed.length}` +
        (m.opponent_wins ? ` (${other} is then one flock and wins)` : ""),
      value: m.notation,
    }));
    Promise.resolve(choose(`Which region of ${other}'s birds do you keep?`, options)).then(
      (value) => {
        if (!choice || choice.token !== token) return;
        if (value == null || value === "") {
          choice = null;
          draw();
        } else {
          send(value);
        }
      },
      () => {},
    );
  }

  function onCellClick(cell) {
    if (!view || !legal) return;
    const mine = view.to_move;
    if (choice) {
      const move = choice.moves.find((m) => m.kept.includes(cell));
      if (move) {
        send(move.notation);
      } else {
        choice = null; // a click elsewhere cancels the region choice
        choiceToken++;
        draw();
      }
      return;
    }
    if (selection) {
      const targets = flightTargets();
      if (targets.has(cell)) {
        const moves = targets.get(cell);
        if (moves.length === 1) send(moves[0].notation);
        else startChoice(moves);
        return;
      }
      if (view.birds[cell] === mine) {
        if (cell === selection.anchor) {
          selection = null;
        } else {
          const line = lineBetween(selection.anchor, cell);
          if (line && (hasFlight(line) || selection.line.includes(cell))) {
            selection = { anchor: selection.anchor, line };
          } else if (movableBirds().has(cell)) {
            selection = { anchor: cell, line: [cell] };
          } else {
            selection = null;
          }
        }
      } else {
        selection = null;
      }
      preview = null;
      draw();
      return;
    }
    const adds = addTargets();
    if (adds.has(cell)) {
      send(adds.get(cell)[0].notation);
      return;
    }
    if (view.birds[cell] === mine && movableBirds().has(cell)) {
      selection = { anchor: cell, line: [cell] };
      draw();
    }
  }

  function onHover(cell, entering) {
    if (!selection || choice) return;
    const moves = entering ? flightTargets().get(cell) : null;
    preview = moves ? moves[0].to : null;
    const ghost = new Set(preview || []);
    for (const [c, g] of cellEls) g.classList.toggle("ghost", ghost.has(c));
  }

  function draw() {
    svg.replaceChildren();
    cellEls = new Map();
    if (!view) return;
    const board = view;
    const mine = view.to_move;
    const targets = choice ? new Map() : selection ? flightTargets() : addTargets();
    const movable = selection || choice ? new Set() : movableBirds();
    const selected = new Set(selection ? selection.line : []);
    const ghost = new Set(choice ? choice.moves[0].to : preview || []);
    const lastTo = new Set(last ? last.to : []);
    const lastFrom = new Set(last ? last.from.filter((c) => !lastTo.has(c)) : []);
    const lastRemoved = new Set(last ? last.removed : []);
    const regionOf = new Map();
    if (choice) choice.moves.forEach((m, i) => m.kept.forEach((c) => regionOf.set(c, i)));

    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    const grow = (x, y, pad) => {
      minX = Math.min(minX, x - pad);
      maxX = Math.max(maxX, x + pad);
      minY = Math.min(minY, y - pad);
      maxY = Math.max(maxY, y + pad);
    };
    const sky = el("g", { class: "sky" }, svg);
    const marks = el("g", { class: "marks" }, svg);

    for (const h of board.holes) {
      const [x, y] = position(h.q, h.r);
      grow(x, y, SIZE);
      const g = el("g", { class: `hole ${h.kind}`, "data-hole": h.c }, sky);
      el("polygon", { class: "hex", points: hexPoints(x, y, SIZE * 0.96) }, g);
      const d = SIZE * 0.45;
      el("line", { class: "hatch", x1: x - d, y1: y + d, x2: x + d, y2: y - d }, g);
      el("line", { class: "hatch", x1: x - d, y1: y - d, x2: x + d, y2: y + d }, g);
    }
    for (const cell of board.cells) {
      const c = cell.c;
      const [x, y] = position(cell.q, cell.r);
      grow(x, y, SIZE);
      const side = board.birds[c];
      const classes = ["cell"];
      if (targets.has(c)) classes.push("target", selection ? "fly" : "add", "clickable");
      if (movable.has(c)) classes.push("movable", "clickable");
      if (selected.has(c)) classes.push("selected", "clickable");
      if (selection && side === mine) classes.push("clickable");
      if (ghost.has(c)) classes.push("ghost");
      if (lastTo.has(c)) classes.push("last-to");
      if (lastFrom.has(c)) classes.push("last-from");
      if (lastRemoved.has(c)) classes.push("last-removed");
      if (regionOf.has(c)) classes.push("region", "target", "clickable");
      const g = el("g", { class: classes.join(" "), "data-cell": c }, sky);
      cellEls.set(c, g);
      const title = el("title", {}, g);
      title.textContent = side === undefined ? c : `${c}: ${board.players[side]}`;
      el("polygon", { class: "hex", points: hexPoints(x, y, SIZE * 0.96) }, g);
      if (side !== undefined) {
        g.dataset.bird = SIDE_CLASS[side];
        drawBird(g, x, y, side, SIZE * 0.62);
      } else if (targets.has(c)) {
        el("circle", { class: "target-dot", cx: x, cy: y, r: SIZE * (selection ? 0.24 : 0.14) }, g);
      }
      if (lastTo.has(c) || lastFrom.has(c)) {
        const frame = lastFrom.has(c) ? "last-frame from" : "last-frame";
        el("polygon", { class: frame, points: hexPoints(x, y, SIZE * 0.8) }, marks);
      }
      if (lastRemoved.has(c) && side === undefined) {
        const d = SIZE * 0.3;
        el("line", { class: "gone", x1: x - d, y1: y - d, x2: x + d, y2: y + d }, marks);
        el("line", { class: "gone", x1: x - d, y1: y + d, x2: x + d, y2: y - d }, marks);
      }
      if (regionOf.has(c)) {
        const t = el("text", { class: "region-letter", x, y }, marks);
        t.textContent = String(regionOf.get(c) + 1);
      }
      if (classes.includes("clickable")) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
      }
      g.addEventListener("click", () => onCellClick(c));
      g.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        focusCell = c;
        onCellClick(c);
      });
      g.addEventListener("mouseenter", () => onHover(c, true));
      g.addEventListener("focus", () => onHover(c, true));
      g.addEventListener("mouseleave", () => onHover(c, false));
    }
    if (coordinates) {
      const coordsLayer = el("g", { class: "coords" }, svg);
      const n = board.edge;
      const top = 2 * n - 2;
      for (let r = 0; r <= top; r++) {
        // row numbers: one step left of the row's first cell (hole included)
        const q0 = Math.max(0, r - (n - 1));
        const [x, y] = position(q0 - 0.85, r);
        grow(x, y, 8);
        const t = el("text", { class: "coord row", x, y }, coordsLayer);
        t.textContent = String(r + 1);
      }
      for (let q = 0; q <= top; q++) {
        // column letters: one step below the column's lowest cell (hole included)
        const r0 = Math.max(0, q - (n - 1));
        const [x, y] = position(q, r0 - 0.8);
        grow(x, y, 8);
        const t = el("text", { class: "coord col", x, y }, coordsLayer);
        t.textContent = String.fromCharCode(97 + q);
      }
    }
    const pad = 4;
    svg.setAttribute(
      "viewBox",
      `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ` +
        `${(maxX - minX + 2 * pad).toFixed(1)} ${(maxY - minY + 2 * pad).toFixed(1)}`,
    );
    svg.setAttribute("aria-label", `Volo ${board.board} board`);
    setHint();
    if (focusCell !== null) {
      // keyboard use: keep the focus on the cell just used (or on the first target)
      const again = cellEls.get(focusCell);
      const next = again && again.getAttribute("tabindex") ? again : svg.querySelector(".target");
      focusCell = null;
      if (next) next.focus();
    }
  }

  return {
    /** Draw `view` with the legal moves (null: the user may not move now) and the last move. */
    render(nextView, opts = {}) {
      const nextLegal = opts.legal ?? null;
      const key = `${nextView.position}|${(nextLegal || []).length}|${nextLegal ? "y" : "n"}`;
      if (key !== renderKey) {
        selection = null;
        choice = null;
        choiceToken++;
        preview = null;
        renderKey = key;
      }
      view = nextView;
      legal = nextLegal;
      last = opts.last ?? null;
      coordinates = opts.coordinates ?? true;
      flipped = !!opts.flipped;
      coords = new Map(view.cells.map((c) => [c.c, [c.q, c.r]]));
      draw();
    },

    /** A side panel: both sides with their bird, supply, birds on the board and flocks. */
    info(infoView) {
      const box = document.createElement("div");
      box.className = "volo-info volo-board";
      for (const side of [0, 1]) {
        const row = document.createElement("div");
        row.className = `side ${SIDE_CLASS[side]}`;
        row.dataset.testid = `volo-side-${side}`;
        if (infoView.to_move === side) row.classList.add("to-move");
        const icon = el("svg", { viewBox: "-10 -10 20 20", "aria-hidden": "true" });
        icon.classList.add("volo-icon");
        drawBird(icon, 0, 0, side, 8.5);
        const name = document.createElement("span");
        name.className = "name";
        name.textContent = infoView.players[side] + (infoView.to_move === side ? " (to move)" : "");
        const supply = document.createElement("span");
        supply.dataset.testid = `volo-supply-${side}`;
        const flocks = infoView.flocks[side].length;
        supply.textContent =
          `supply ${infoView.supply[side]} · on the board ${infoView.on_board[side]} · ` +
          `${flocks} flock${flocks === 1 ? "" : "s"}`;
        row.append(icon, name, supply);
        box.append(row);
      }
      const foot = document.createElement("div");
      foot.className = "volo-rules";
      const n = infoView.passes;
      const passes = n ? ` · ${n} pass${n > 1 ? "es" : ""} in a row` : "";
      foot.textContent =
        `${infoView.board} board, ${infoView.edition} edition, ` +
        `${infoView.total} birds each${passes}`;
      box.append(foot);
      return box;
    },

    /** Drop any half-made selection or region choice. */
    reset() {
      selection = null;
      choice = null;
      choiceToken++;
      preview = null;
      draw();
    },

    /** Remove the board from the page. */
    destroy() {
      choiceToken++;
      root.remove();
    },
  };
}
