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

import { diagramArrow, diagramCross } from "../diagram.js";
import { label as catalogLabel, t, tn } from "../i18n.js";
import { moveKey } from "../moves.js";
import { el, svg } from "../ui.js";

const SIZE = 20; // hexagon circumradius in SVG units
const W = Math.sqrt(3) * SIZE; // width of a hexagon (pointy top)
const SIDE_CLASS = ["orange", "blue"];

/** Append `node` to `parent` and return it. */
function add(parent, node) {
  parent.append(node);
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
  const g = add(parent, svg("g", { class: `bird-mark ${SIDE_CLASS[side]}` }));
  add(g, svg("circle", { class: `bird ${SIDE_CLASS[side]}`, cx: x, cy: y, r: radius }));
  if (side === 1) {
    add(g, svg("circle", { class: "ring", cx: x, cy: y, r: radius * 0.5 }));
  }
  return g;
}

/**
 * A typed move in a spelling the engine reads but the move list does not write: a flight
 * that divides the opponent may name any bird of the region it keeps ("d3-b3/a2" for the
 * move listed "d3-b3/f2" when a2 and f2 are in the same region).  → the move view, or null.
 */
function readMove(text, legal) {
  const key = moveKey(text);
  const slash = key.indexOf("/");
  if (slash < 0) return null;
  const flight = key.slice(0, slash);
  const keep = key.slice(slash + 1);
  return legal.find((m) => m.kind === "fly" && (m.kept || []).includes(keep)
    && moveKey(m.notation).split("/")[0] === flight) || null;
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
  const root = el("div", { class: "volo-board" });
  const skySvg = svg("svg", { class: "volo-sky", role: "group", "aria-label": t("Volo board") });
  const bar = el("div", { class: "volo-bar" });
  const hint = el("span", { "data-testid": "volo-hint", "aria-live": "polite" });
  const passButton = el("button", { type: "button", "data-testid": "volo-pass", hidden: true },
    t("Pass"));
  bar.append(hint, passButton);
  root.append(skySvg, bar);
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
  let diagram = null; // {highlights, arrows, marks} while drawn as a diagram (read-only)

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
        t("This flight divides {player}: choose the region to keep (click one of its birds).",
          { player: other });
    } else if (selection) {
      const line = selection.line;
      const what = line.length > 1
        ? t("line {first}–{last}", { first: line[0], last: line.at(-1) })
        : selection.anchor;
      hint.textContent = flightTargets().size
        ? t("{what} selected: click a marked cell (where the leading bird lands), " +
          "or another bird in line.", { what })
        : t("{what} has no flight of its own: click the bird at the other end of a line, " +
          "or another bird.", { what });
    } else {
      const adds = legal.some((m) => m.kind === "add");
      const flies = legal.some((m) => m.kind === "fly");
      const parts = [];
      if (adds) parts.push(t("click a marked cell to add a bird"));
      if (flies) parts.push(t("click one of your birds to fly"));
      const or = t(", or ");
      hint.textContent = parts.length
        ? t("{player} to play: {actions}.", { player, actions: parts.join(or) })
        : t("{player} can only pass.", { player });
    }
    const canPass = !!(legal && legal.some((m) => m.kind === "pass"));
    passButton.hidden = !canPass;
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
        tn("Region {region}: keep {n} bird ({cells}), remove {removed}",
          "Region {region}: keep {n} birds ({cells}), remove {removed}",
          m.kept.length, { region: i + 1, cells: m.kept.join(" "), removed: m.removed.length }) +
        (m.opponent_wins ? " " + t("({player} is then one flock and wins)", { player: other }) : ""),
      value: m.notation,
    }));
    Promise.resolve(choose(t("Which region of {player}'s birds do you keep?", { player: other }), options)).then(
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

  /** The diagram's lit cells, arrows and crosses (cells the sky lacks are left out). */
  function drawOverlay(layer) {
    const at = (c) => (coords.has(c) ? position(...coords.get(c)) : null);
    for (const c of diagram.highlights || []) {
      const p = at(c);
      if (!p) continue;
      cellEls.get(c).classList.add("highlighted");
      add(layer, svg("polygon", { class: "diagram-highlight", "data-cell": c,
        points: hexPoints(p[0], p[1], SIZE * 0.86) }));
    }
    for (const [from, to] of diagram.arrows || []) {
      const a = at(from);
      const b = at(to);
      if (a && b) add(layer, diagramArrow(a, b, from, to, SIZE * 1.6));
    }
    for (const c of diagram.marks || []) {
      const p = at(c);
      if (p) add(layer, diagramCross(p, c, SIZE * 1.6));
    }
  }

  function draw() {
    skySvg.replaceChildren();
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
    const sky = add(skySvg, svg("g", { class: "sky" }));
    const marks = add(skySvg, svg("g", { class: "marks" }));

    for (const h of board.holes) {
      const [x, y] = position(h.q, h.r);
      grow(x, y, SIZE);
      const g = add(sky, svg("g", { class: `hole ${h.kind}`, "data-hole": h.c }));
      add(g, svg("polygon", { class: "hex", points: hexPoints(x, y, SIZE * 0.96) }));
      const d = SIZE * 0.45;
      add(g, svg("line", { class: "hatch", x1: x - d, y1: y + d, x2: x + d, y2: y - d }));
      add(g, svg("line", { class: "hatch", x1: x - d, y1: y - d, x2: x + d, y2: y + d }));
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
      const g = add(sky, svg("g", { class: classes.join(" "), "data-cell": c }));
      cellEls.set(c, g);
      const title = add(g, svg("title"));
      title.textContent = side === undefined ? c : `${c}: ${board.players[side]}`;
      add(g, svg("polygon", { class: "hex", points: hexPoints(x, y, SIZE * 0.96) }));
      if (side !== undefined) {
        g.dataset.bird = SIDE_CLASS[side];
        drawBird(g, x, y, side, SIZE * 0.62);
      } else if (targets.has(c)) {
        add(g, svg("circle", { class: "target-dot", cx: x, cy: y, r: SIZE * (selection ? 0.24 : 0.14) }));
      }
      if (lastTo.has(c) || lastFrom.has(c)) {
        const frame = lastFrom.has(c) ? "last-frame from" : "last-frame";
        add(marks, svg("polygon", { class: frame, points: hexPoints(x, y, SIZE * 0.8) }));
      }
      if (lastRemoved.has(c) && side === undefined) {
        const d = SIZE * 0.3;
        add(marks, svg("line", { class: "gone", x1: x - d, y1: y - d, x2: x + d, y2: y + d }));
        add(marks, svg("line", { class: "gone", x1: x - d, y1: y + d, x2: x + d, y2: y - d }));
      }
      if (regionOf.has(c)) {
        const t = add(marks, svg("text", { class: "region-letter", x, y }));
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
    if (diagram) drawOverlay(marks);
    if (coordinates) {
      const coordsLayer = add(skySvg, svg("g", { class: "coords" }));
      const n = board.edge;
      const top = 2 * n - 2;
      for (let r = 0; r <= top; r++) {
        // row numbers: one step left of the row's first cell (hole included)
        const q0 = Math.max(0, r - (n - 1));
        const [x, y] = position(q0 - 0.85, r);
        grow(x, y, 8);
        const t = add(coordsLayer, svg("text", { class: "coord row", x, y }));
        t.textContent = String(r + 1);
      }
      for (let q = 0; q <= top; q++) {
        // column letters: one step below the column's lowest cell (hole included)
        const r0 = Math.max(0, q - (n - 1));
        const [x, y] = position(q, r0 - 0.8);
        grow(x, y, 8);
        const t = add(coordsLayer, svg("text", { class: "coord col", x, y }));
        t.textContent = String.fromCharCode(97 + q);
      }
    }
    const pad = 4;
    skySvg.setAttribute(
      "viewBox",
      `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ` +
        `${(maxX - minX + 2 * pad).toFixed(1)} ${(maxY - minY + 2 * pad).toFixed(1)}`,
    );
    skySvg.setAttribute("aria-label", t("Volo board ({board})", {
      board: catalogLabel(`game.volo.option.board.${board.board}`, board.board) }));
    setHint();
    if (focusCell !== null) {
      // keyboard use: keep the focus on the cell just used (or on the first target)
      const again = cellEls.get(focusCell);
      const next = again && again.getAttribute("tabindex") ? again : skySvg.querySelector(".target");
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
      diagram = null;
      bar.hidden = false;
      root.classList.remove("diagram");
      coordinates = opts.coordinates ?? true;
      flipped = !!opts.flipped;
      coords = new Map(view.cells.map((c) => [c.c, [c.q, c.r]]));
      draw();
    },

    /** Draw `nextView` read-only as a diagram: `highlights`, `arrows` and `marks` on it
     *  (docs/web-client.md, "Diagrams"); nothing can be clicked, no hint, no button. */
    drawDiagram(nextView, opts = {}) {
      view = nextView;
      legal = null;
      last = null;
      selection = null;
      choice = null;
      choiceToken++;
      preview = null;
      renderKey = "";
      coordinates = opts.coordinates ?? true;
      flipped = !!opts.flipped;
      diagram = {
        highlights: opts.highlights || [],
        arrows: opts.arrows || [],
        marks: opts.marks || [],
      };
      bar.hidden = true;
      root.classList.add("diagram");
      coords = new Map(view.cells.map((c) => [c.c, [c.q, c.r]]));
      draw();
    },

    /** A side panel: both sides with their bird, supply, birds on the board and flocks. */
    info(infoView) {
      const box = el("div", { class: "volo-info volo-board" });
      for (const side of [0, 1]) {
        const row = el("div", { class: `side ${SIDE_CLASS[side]}`,
          "data-testid": `volo-side-${side}` });
        if (infoView.to_move === side) row.classList.add("to-move");
        const icon = svg("svg", { class: "volo-icon", viewBox: "-10 -10 20 20",
          "aria-hidden": "true" });
        drawBird(icon, 0, 0, side, 8.5);
        const name = el("span", { class: "name" });
        name.textContent = infoView.to_move === side
          ? t("{player} (to move)", { player: infoView.players[side] })
          : infoView.players[side];
        const supply = el("span", { "data-testid": `volo-supply-${side}` });
        const flocks = infoView.flocks[side].length;
        supply.textContent = [
          t("supply {n}", { n: infoView.supply[side] }),
          t("on the board {n}", { n: infoView.on_board[side] }),
          tn("{n} flock", "{n} flocks", flocks),
        ].join(" · ");
        row.append(icon, name, supply);
        box.append(row);
      }
      const foot = el("div", { class: "volo-rules" });
      const n = infoView.passes;
      const passes = n ? " · " + tn("{n} pass in a row", "{n} passes in a row", n) : "";
      foot.textContent = t("{board} · {edition} · {total} birds each", {
        board: catalogLabel(`game.volo.option.board.${infoView.board}`, infoView.board),
        edition: catalogLabel(`game.volo.option.edition.${infoView.edition}`, infoView.edition),
        total: infoView.total,
      }) + passes;
      box.append(foot);
      return box;
    },

    readMove,

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
