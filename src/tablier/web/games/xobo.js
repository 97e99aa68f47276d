// XoBo's board module: the 9×9 grid in SVG, stack heights, reserves, voyna, click input.
// Views come from games/xobo/view.py (see docs/web-client.md, "XoBo").
//
// Input: click an empty cell to place a cube; under voyna, click the first cube of a run,
// then the cell where the stack will stand (the valid ends are highlighted); to distribute,
// click a stack, then the next cell in the chosen direction (an arrow marks each one).

import { diagramArrow, diagramCross } from "../diagram.js";
import { label, t } from "../i18n.js";
import { moveKey } from "../moves.js";
import { clear, el, sideMarker, svg } from "../ui.js";

const S = 40; // cell size
const M = 34; // margin: edge bars and coordinates
const SIZE = 9;
const W = 2 * M + SIZE * S;
const TOP = 26; // a band above the board for the voyna announcement
const COLUMNS = "abcdefghi";

function cellName(col, row) {
  return `${COLUMNS[col]}${row + 1}`;
}

function playersOf(view) {
  return view.players || [0, 1].map((seat) => label(`game.xobo.player.${seat}`, t("Seat {n}", { n: seat + 1 })));
}

const VOYNA = /\(\s*v\s*\)\s*$/i;

/**
 * A typed move in a spelling the engine reads but the move list does not write: the
 * voyna mark "(v)" may be left out (a move that announces voyna is written "e8 (v)").
 * Typed with the mark, the move must announce voyna.  → the legal move view, or null.
 */
function readMove(text, legal) {
  const bare = (s) => moveKey(String(s).replace(VOYNA, ""));
  const announced = VOYNA.test(text);
  const key = bare(text);
  return legal.find((m) => bare(m.notation) === key && (!announced || VOYNA.test(m.notation)))
    || null;
}

function parseCell(name) {
  return [COLUMNS.indexOf(name[0]), Number(name.slice(1)) - 1];
}

/** Create the XoBo board in `host`; see the board-module interface in docs/web-client.md. */
export function createBoard(host, { submit }) {
  const root = svg("svg", {
    class: "xobo-board",
    viewBox: `0 ${-TOP} ${W} ${W + TOP}`,
    role: "group",
    "aria-label": t("XoBo board"),
    "data-testid": "xobo-board",
  });
  host.append(root);
  let view = null;
  let options = { legal: null, last: null, coordinates: true, flipped: false };
  let selection = null; // the cell whose run or stack is selected
  let index = null;
  let diagram = null; // {highlights, arrows, marks} while drawn as a diagram (read-only)

  function buildIndex(legal) {
    const idx = { place: new Map(), byFrom: new Map() };
    for (const mv of legal || []) {
      if (mv.kind === "place") idx.place.set(mv.from, mv);
      else {
        if (!idx.byFrom.has(mv.from)) idx.byFrom.set(mv.from, []);
        idx.byFrom.get(mv.from).push(mv);
      }
    }
    return idx;
  }

  function xy(col, row) {
    const c = options.flipped ? SIZE - 1 - col : col;
    const r = options.flipped ? row : SIZE - 1 - row;
    return [M + c * S, M + r * S];
  }

  function centre(name) {
    const [col, row] = parseCell(name);
    const [x, y] = xy(col, row);
    return [x + S / 2, y + S / 2];
  }

  function click(name) {
    if (!index) return;
    const chosen = selection ? index.byFrom.get(selection) || [] : [];
    const hit = chosen.find((mv) => mv.to === name);
    if (hit) {
      submit(hit.notation);
      return;
    }
    if (selection === name) {
      selection = null;
      draw();
      return;
    }
    if (index.byFrom.has(name)) {
      selection = name;
      draw();
      return;
    }
    selection = null;
    const place = index.place.get(name);
    if (place) submit(place.notation);
    draw();
  }

  function defs() {
    return svg("defs", {},
      svg("pattern", { id: "xobo-stripes", width: 8, height: 8, patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)" },
      svg("rect", { width: 8, height: 8, class: "stripe-bg" }),
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, class: "stripe" })),
      svg("marker", { id: "xobo-arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5,
        markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" },
      svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" })));
  }

  function edges() {
    const g = svg("g", { class: "edges" });
    const t = 7;
    const span = SIZE * S;
    // North and South edges belong to player 0 (solid orange), West and East to player 1
    // (striped blue): the stripes are the second cue besides the colour.
    g.append(
      svg("rect", { x: M, y: M - t - 2, width: span, height: t, class: "edge-0" }),
      svg("rect", { x: M, y: M + span + 2, width: span, height: t, class: "edge-0" }),
      svg("rect", { x: M - t - 2, y: M, width: t, height: span, class: "edge-1" }),
      svg("rect", { x: M + span + 2, y: M, width: t, height: span, class: "edge-1" }),
    );
    return g;
  }

  function coordinates() {
    const g = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let i = 0; i < SIZE; i++) {
      const [x] = xy(i, 0);
      const [, y] = xy(0, i);
      for (const yy of [M / 2 - 6, W - M / 2 + 6]) {
        g.append(svg("text", { x: x + S / 2, y: yy, class: "coord" }, COLUMNS[i]));
      }
      for (const xx of [M / 2 - 6, W - M / 2 + 6]) {
        g.append(svg("text", { x: xx, y: y + S / 2, class: "coord" }, String(i + 1)));
      }
    }
    return g;
  }

  function cube(group, height) {
    if (height === 1) {
      group.append(svg("rect", { x: 8, y: 8, width: S - 16, height: S - 16, rx: 4, class: "cube" }));
      return;
    }
    // a stack: one offset layer per cube, bottom first (the pile grows with the height),
    // the darker top, and the number of cubes
    const layers = Math.min(height, 8);
    const side = S - 16;
    for (let k = layers - 1; k >= 0; k--) {
      const off = 6 + k * 1.6;
      group.append(svg("rect", {
        x: off, y: off, width: side, height: side, rx: 3,
        class: k === 0 ? "stack-top" : "stack-layer",
      }));
    }
    group.append(svg("text", { x: 6 + side / 2, y: 6 + side / 2, class: "height" }, String(height)));
  }

  /** The diagram's lit cells, arrows and crosses (names outside the grid are left out). */
  function overlay(cells) {
    const known = (c) => typeof c === "string" && /^[a-i][1-9]$/.test(c);
    const g = svg("g", { class: "diagram-overlay", "pointer-events": "none" });
    for (const c of diagram.highlights.filter(known)) {
      const [x, y] = centre(c);
      const cell = cells.querySelector(`[data-cell="${c}"]`);
      if (cell) cell.classList.add("highlighted");
      g.append(svg("rect", { class: "diagram-highlight", "data-cell": c,
        x: x - S / 2 + 2, y: y - S / 2 + 2, width: S - 4, height: S - 4, rx: 5 }));
    }
    for (const [from, to] of diagram.arrows.filter(([a, b]) => known(a) && known(b))) {
      g.append(diagramArrow(centre(from), centre(to), from, to, S));
    }
    for (const c of diagram.marks.filter(known)) g.append(diagramCross(centre(c), c, S));
    return g;
  }

  function draw() {
    clear(root);
    if (!view) return;
    root.append(defs(), svg("rect", { x: 0, y: -TOP, width: W, height: W + TOP, class: "frame" }), edges());
    if (options.coordinates) root.append(coordinates());
    const last = new Set((options.last && options.last.cells) || []);
    const threats = new Set(view.threats || []);
    const chain = new Set([...(view.connections || [[], []])[0], ...(view.connections || [[], []])[1]]);
    const chosen = selection && index ? index.byFrom.get(selection) || [] : [];
    const targets = new Set(chosen.map((mv) => mv.to));
    const run = new Set();
    for (const mv of chosen) for (const c of mv.run || mv.covered || []) run.add(c);
    const cells = svg("g", { class: "cells" });
    for (let row = 0; row < SIZE; row++) {
      for (let col = 0; col < SIZE; col++) {
        const name = cellName(col, row);
        const height = view.heights[row][col];
        const [x, y] = xy(col, row);
        const classes = ["cell"];
        const placeTarget = !selection && index && index.place.has(name);
        const isTarget = targets.has(name) || placeTarget;
        const selectable = index && index.byFrom.has(name);
        if (last.has(name)) classes.push("last");
        if (threats.has(name)) classes.push("threat");
        if (chain.has(name)) classes.push("chain");
        if (run.has(name)) classes.push("run");
        if (isTarget) classes.push("target");
        if (placeTarget) classes.push("place");
        if (selectable) classes.push("selectable");
        if (selection === name) classes.push("selected");
        const what = height === 0 ? t("empty") : height === 1 ? t("one cube")
          : t("stack of {n}", { n: height });
        const cellLabel = `${name}: ${what}`;
        const g = svg("g", {
          class: classes.join(" "),
          "data-cell": name,
          "data-height": height,
          transform: `translate(${x} ${y})`,
          tabindex: isTarget || selectable ? 0 : undefined,
          role: isTarget || selectable ? "button" : undefined,
          "aria-label": cellLabel,
        });
        g.append(svg("rect", { x: 0, y: 0, width: S, height: S, class: "square" }));
        if (height) cube(g, height);
        if (threats.has(name)) {
          g.append(svg("circle", { cx: S / 2, cy: S / 2, r: S / 2 - 7, class: "threat-mark",
            "stroke-dasharray": "4 3" }));
        }
        if (isTarget && !height) {
          g.append(svg("circle", { cx: S / 2, cy: S / 2, r: placeTarget ? 3.5 : 6, class: "dot" }));
        }
        g.addEventListener("click", () => click(name));
        g.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            click(name);
          }
        });
        cells.append(g);
      }
    }
    root.append(cells);
    if (diagram) root.append(overlay(cells));
    if (selection && chosen.length && chosen[0].kind === "distribute") {
      const [x0, y0] = centre(selection);
      for (const mv of chosen) {
        const [x1, y1] = centre(mv.to);
        root.append(svg("line", {
          x1: x0 + (x1 - x0) * 0.3, y1: y0 + (y1 - y0) * 0.3,
          x2: x0 + (x1 - x0) * 0.95, y2: y0 + (y1 - y0) * 0.95,
          class: "arrow", "pointer-events": "none",
        }));
      }
    }
    if (view.voyna) {
      root.append(
        svg("rect", { x: 3, y: 3 - TOP, width: W - 6, height: W + TOP - 6, rx: 8,
          class: "voyna-frame", "pointer-events": "none" }),
        svg("text", { x: W / 2, y: -TOP / 2 + 3, class: "voyna-label", "data-testid": "board-voyna" },
          t("VOYNA! {player} threatens to win", { player: playersOf(view)[view.voyna_by] || "" })),
      );
    }
  }

  return {
    render(newView, opts = {}) {
      const changed = !view || newView.position !== view.position;
      diagram = null;
      view = newView;
      options = { legal: null, last: null, coordinates: true, flipped: false, ...opts };
      index = options.legal ? buildIndex(options.legal) : null;
      if (changed || !index || (selection && !index.byFrom.has(selection))) selection = null;
      draw();
    },

    /** Draw `newView` read-only as a diagram: `highlights`, `arrows` and `marks` on it
     *  (docs/web-client.md, "Diagrams"); nothing can be clicked. */
    drawDiagram(newView, opts = {}) {
      view = newView;
      options = { legal: null, last: null, coordinates: opts.coordinates ?? true,
        flipped: !!opts.flipped };
      index = null;
      selection = null;
      diagram = { highlights: opts.highlights || [], arrows: opts.arrows || [], marks: opts.marks || [] };
      draw();
    },

    info(v) {
      const players = playersOf(v);
      const box = el("div", { class: "xobo-info" });
      if (v.voyna) {
        const by = players[v.voyna_by];
        const other = players[1 - v.voyna_by];
        const where = (v.threats || []).join(", ");
        box.append(el("div", { class: "voyna-badge", "data-testid": "voyna-badge", role: "alert" },
          where
            ? t("VOYNA! {player} threatens to win at {cells}. {other} may stack.",
              { player: by, cells: where, other })
            : t("VOYNA! {player} threatens to win. {other} may stack.", { player: by, other })));
      }
      const dl = el("dl", { class: "reserves", "data-testid": "reserves" },
        el("dt", {}, t("Common reserve")), el("dd", { "data-testid": "common-reserve" }, String(v.common)));
      [0, 1].forEach((p) => {
        dl.append(el("dt", {}, sideMarker(p, 12), t("{player}'s reserve", { player: players[p] })),
          el("dd", { "data-testid": `reserve-${p}` }, String(v.reserves[p])));
      });
      box.append(el("h2", {}, t("Cubes")), dl,
        el("p", { class: "xobo-help" },
          t("{first} joins rows 1 and 9 (solid orange edges); {second} joins columns a "
            + "and i (striped blue edges), with chains of single cubes.",
          { first: players[0], second: players[1] })),
        el("p", { class: "xobo-help" },
          t("Click an empty cell to place a cube. Under voyna, click the first cube of a run, then "
            + "the cell where the stack will stand. To distribute, click a stack, then the next cell "
            + "in the chosen direction.")));
      if (v.options) {
        const words = ["stack", "exhaustion", "voyna"].map((name) =>
          `${label(`game.xobo.option.${name}`, name)}: ${
            label(`game.xobo.option.${name}.${v.options[name]}`, v.options[name])}`);
        box.append(el("p", { class: "xobo-help" }, t("Options: {options}", { options: words.join("; ") })));
      }
      return box;
    },

    readMove,

    reset() {
      if (selection !== null) {
        selection = null;
        draw();
      }
    },

    destroy() {
      root.remove();
      view = null;
    },
  };
}
