// Voldétour board: the top-down height map, on which the player clicks (targets, the
// selection, the last move, the ghost of a previewed placement), drawn from the board's
// state (voldetour.model.js).  The pointer and the keyboard focus are written to the
// state (hover, focusSq); clicks go to the handler given.  Part of games/voldetour.js.

import { clear, svg } from "../ui.js";
import { t } from "../i18n.js";
import { coordOf, dirWords, DIRS, labelOf, MAP_SQ, polyPoints, sideFill } from "./voldetour.geometry.js";
import { defs } from "./voldetour.iso.js";
import {
  clickableSquares,
  ghost,
  lastSquares,
  previewPath,
  selectedSquares,
  targetSquares,
} from "./voldetour.model.js";

/**
 * The map's SVG with its event handlers: `click(square)` for a click (or Enter/Space on a
 * focused square), `pointerMoved()` when the hovered square changed while something is
 * selected; null for a read-only map (a diagram).  → {root, overlay, pos, pathLine} (for
 * drawOverlay and drawMapDiagram).
 */
export function drawMap(st, handlers) {
  const { click, pointerMoved } = handlers || { click: () => {}, pointerMoved: () => {} };
  const { view, last, coordinates, flipped } = st;
  const { width: W, height: H, tower_height: TH, files } = view.board;
  const setHover = (sq) => {
    if (st.hover !== sq) {
      st.hover = sq;
      if (st.sel) pointerMoved();
    }
  };
  const m = coordinates ? 18 : 4;
  const S = MAP_SQ;
  const root2d = svg("svg", {
    class: "vd-map",
    "data-testid": "vd-map",
    viewBox: `0 0 ${W * S + 2 * m} ${H * S + 2 * m}`,
    role: "group",
    "aria-label": t("Voldétour height map"),
  });
  root2d.append(defs());
  const pos = (x, y) => (flipped ? [m + (W - 1 - x) * S, m + y * S] : [m + x * S, m + (H - 1 - y) * S]);
  const targets = targetSquares(st);
  const lastSq = new Set(lastSquares(st));
  const selected = selectedSquares(st);
  const lordAt = new Map(view.lords.map((l) => [l.square, l]));
  const towerAt = new Map(view.towers.map((t) => [t.square, t]));
  const clickable = clickableSquares(st);
  const marked = new Set(view.marked || []);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const sq = labelOf(files, x, y);
      const col = view.columns[sq];
      const [px, py] = pos(x, y);
      const classes = ["vd-sq"];
      if (targets.has(sq)) classes.push("target");
      if (selected.has(sq)) classes.push("selected");
      if (lastSq.has(sq)) classes.push("last");
      if (marked.has(sq)) classes.push("marked");
      if (clickable.has(sq)) classes.push("clickable");
      const cell = svg("g", { class: "vd-map-cell" });
      const rect = svg("rect", {
        class: classes.join(" "), x: px + 1, y: py + 1, width: S - 2, height: S - 2, rx: 2,
        "data-cell": sq, role: clickable.has(sq) ? "button" : "img",
        "aria-label": squareDescription(view, sq, col, lordAt.get(sq), towerAt.get(sq)),
      });
      rect.addEventListener("click", () => click(sq));
      if (clickable.has(sq)) {
        // keyboard: Tab between the squares that do something, Enter or Space to click
        rect.setAttribute("tabindex", "0");
        rect.addEventListener("keydown", (event) => {
          if (event.key !== "Enter" && event.key !== " ") return;
          event.preventDefault();
          st.focusSq = sq;
          click(sq);
        });
        rect.addEventListener("focus", () => {
          st.focusSq = sq;
          setHover(sq);
        });
      }
      rect.addEventListener("pointerenter", () => setHover(sq));
      cell.append(rect);
      const h = col.height === null ? col.slope.level + 0.5 : col.height;
      if (h > 0) {
        cell.append(svg("rect", { class: "vd-shade", x: px + 1, y: py + 1, width: S - 2, height: S - 2,
          rx: 2, "fill-opacity": (0.1 + (0.38 * h) / TH).toFixed(2) }));
      }
      if (marked.has(sq)) {
        cell.append(svg("rect", { class: "vd-mark", x: px + 3, y: py + 3, width: S - 6, height: S - 6,
          fill: "none", stroke: "var(--vd-marked)", "stroke-width": 2, "stroke-dasharray": "2 2" }));
      }
      const tower = towerAt.get(sq);
      const lord = lordAt.get(sq);
      if (tower) cell.append(mapTower(px, py, S, tower, view.players));
      else if (col.top !== null && col.top !== undefined) cell.append(mapOwner(px, py, S, col.top));
      if (col.slope) {
        cell.append(mapArrow(px, py, S, col.slope.dir, flipped));
        cell.append(svg("text", { class: "vd-num", x: px + 5, y: py + S - 5 }, String(col.slope.level)));
      } else if (!tower && (col.height > 0 || lord)) {
        const small = !!lord;
        cell.append(svg("text", {
          class: small ? "vd-num" : "vd-num big",
          x: small ? px + 5 : px + S / 2,
          y: small ? py + 13 : py + S / 2 + 5,
          "text-anchor": small ? "start" : "middle",
        }, String(col.height)));
      }
      if (lord) cell.append(mapLord(px, py, S, lord, !!tower, view.players));
      if (targets.has(sq)) {
        cell.append(svg("circle", { class: "vd-target-dot", cx: px + S - 7, cy: py + S - 7, r: 3.5 }));
      }
      root2d.append(cell);
    }
  }
  // the last Lord path, and the previewed one
  const pathLine = (path, cls) => {
    const pts = path.map((sq) => {
      const [x, y] = coordOf(files, sq);
      const [px, py] = pos(x, y);
      return [px + S / 2, py + S / 2];
    });
    return svg("polyline", { class: cls, points: polyPoints(pts) });
  };
  if (last && last.kind === "lord" && last.path) root2d.append(pathLine(last.path, "vd-path"));
  const parts = { root: root2d, overlay: svg("g", { class: "vd-map-overlay" }), pos, pathLine };
  root2d.append(parts.overlay);
  drawOverlay(st, parts);
  if (coordinates) {
    for (let x = 0; x < W; x++) {
      const [px] = pos(x, 0);
      for (const yy of [m - 5, m + H * S + 13]) {
        root2d.append(svg("text", { class: "vd-coord", x: px + S / 2, y: yy, "text-anchor": "middle" }, files[x]));
      }
    }
    for (let y = 0; y < H; y++) {
      const [, py] = pos(0, y);
      root2d.append(svg("text", { class: "vd-coord", x: m / 2, y: py + S / 2 + 4, "text-anchor": "middle" }, String(y + 1)));
      root2d.append(svg("text", { class: "vd-coord", x: m + W * S + m / 2, y: py + S / 2 + 4, "text-anchor": "middle" }, String(y + 1)));
    }
  }
  root2d.addEventListener("pointerleave", () => setHover(null));
  return parts;
}

/** Draw again what changes with the pointer: the ghost's squares and the previewed Lord
 *  path (`parts`: what drawMap returned). */
export function drawOverlay(st, parts) {
  const { view } = st;
  const mapOverlay = parts.overlay;
  clear(mapOverlay);
  const S = MAP_SQ;
  const g = ghost(st);
  if (g) {
    for (const sq of g.squares) {
      const [px, py] = parts.pos(...coordOf(view.board.files, sq));
      mapOverlay.append(svg("rect", { class: "vd-ghost-sq", "data-testid": "vd-ghost-square",
        x: px + 2, y: py + 2, width: S - 4, height: S - 4 }));
    }
  }
  const preview = previewPath(st);
  if (preview) mapOverlay.append(parts.pathLine(preview.path, "vd-path preview"));
}

function squareDescription(view, sq, col, lord, tower) {
  const parts = [sq];
  if (tower) parts.push(t("{player}'s tower", { player: view.players[tower.owner] }));
  else if (col.slope) {
    parts.push(t("slope from level {level}, {direction}",
      { level: col.slope.level, direction: dirWords(col.slope.dir) }));
  } else parts.push(t("height {n}", { n: col.height }));
  if (lord) parts.push(t("{player}'s Lord", { player: view.players[lord.owner] }));
  return parts.join(", ");
}

function mapOwner(px, py, S, owner) {
  // owner of the top piece: a coloured frame and the side's marker in the corner
  const g = svg("g", { class: `vd-mark vd-owner-${owner}` });
  g.append(svg("rect", { x: px + 2.5, y: py + 2.5, width: S - 5, height: S - 5, rx: 2, fill: "none",
    stroke: sideFill(owner), "stroke-width": 3 }));
  g.append(marker(px + S - 8, py + 8, 4, owner));
  return g;
}

function marker(cx, cy, r, owner) {
  const g = svg("g", { class: "vd-mark" });
  if (owner === 0) {
    g.append(svg("circle", { cx, cy, r, fill: sideFill(0), stroke: "#000", "stroke-width": 0.8 }));
  } else {
    g.append(svg("circle", { cx, cy, r: r - 0.6, fill: "#fff", stroke: sideFill(1), "stroke-width": 1.8 }));
    g.append(svg("circle", { cx, cy, r: r / 2.8, fill: sideFill(1) }));
  }
  return g;
}

function mapTower(px, py, S, tower, players) {
  // a grey square with battlements along its top edge in the owner's style
  const g = svg("g", { class: `vd-mark vd-tower-mark vd-owner-${tower.owner}` });
  g.append(svg("rect", { x: px + 1, y: py + 1, width: S - 2, height: S - 2, rx: 2, fill: "var(--vd-tower)" }));
  const x0 = px + 4;
  const w = (S - 8) / 5;
  const yt = py + 4;
  const d = `M${x0},${yt + 9} L${x0},${yt} L${x0 + w},${yt} L${x0 + w},${yt + 4} L${x0 + 2 * w},${yt + 4} L${x0 + 2 * w},${yt} L${x0 + 3 * w},${yt} L${x0 + 3 * w},${yt + 4} L${x0 + 4 * w},${yt + 4} L${x0 + 4 * w},${yt} L${x0 + 5 * w},${yt} L${x0 + 5 * w},${yt + 9} Z`;
  const own = tower.owner === 0;
  g.append(svg("path", { d, fill: own ? sideFill(0) : "#fff", stroke: own ? "#000" : sideFill(1),
    "stroke-width": own ? 1 : 2 }));
  if (!own) g.append(svg("circle", { cx: px + S / 2, cy: yt + 6, r: 2, fill: sideFill(1) }));
  g.append(svg("title", {}, t("{player}'s tower (height {n})", { player: players[tower.owner], n: tower.height })));
  return g;
}

function mapArrow(px, py, S, dir, flip) {
  let [dx, dy] = DIRS[dir];
  if (flip) [dx, dy] = [-dx, -dy];
  const cx = px + S / 2;
  const cy = py + S / 2;
  const L = S * 0.32;
  // screen y grows downwards; north is up
  const tip = [cx + dx * L, cy - dy * L];
  const tail = [cx - dx * L, cy + dy * L];
  const side = [-dy, -dx];
  const head1 = [tip[0] - dx * 7 + side[0] * 5, tip[1] + dy * 7 + side[1] * 5];
  const head2 = [tip[0] - dx * 7 - side[0] * 5, tip[1] + dy * 7 - side[1] * 5];
  return svg("path", { class: "vd-mark vd-slope-arrow",
    d: `M${tail[0]},${tail[1]} L${tip[0]},${tip[1]} M${head1[0]},${head1[1]} L${tip[0]},${tip[1]} L${head2[0]},${head2[1]}`,
    fill: "none", stroke: "var(--vd-ink)", "stroke-width": 2.2, "stroke-linecap": "round" });
}

function mapLord(px, py, S, lord, onTower, players) {
  const cx = px + S / 2 + (onTower ? 0 : 3);
  const cy = py + S / 2 + (onTower ? 4 : 1);
  const g = svg("g", { class: `vd-mark vd-lord-mark vd-lord-${lord.owner}`, "data-lord": String(lord.owner) });
  const crown = `M${cx - 7},${cy} L${cx - 7},${cy - 8} L${cx - 3.5},${cy - 4} L${cx},${cy - 10} L${cx + 3.5},${cy - 4} L${cx + 7},${cy - 8} L${cx + 7},${cy} Z`;
  if (lord.owner === 0) {
    g.append(svg("circle", { cx, cy: cy + 4, r: 7.5, fill: sideFill(0), stroke: "#000", "stroke-width": 1.2 }));
    g.append(svg("path", { d: crown, fill: sideFill(0), stroke: "#000", "stroke-width": 1.2 }));
  } else {
    g.append(svg("circle", { cx, cy: cy + 4, r: 7, fill: "#fff", stroke: sideFill(1), "stroke-width": 2.6 }));
    g.append(svg("path", { d: crown, fill: "#fff", stroke: sideFill(1), "stroke-width": 2 }));
    g.append(svg("circle", { cx, cy: cy + 4, r: 2.6, fill: sideFill(1) }));
  }
  g.append(svg("title", {}, t("{player}'s Lord (level {n})", { player: players[lord.owner], n: lord.level })));
  return g;
}

/** A diagram's marks on the map (`diagram`: {highlights, arrows, marks}; labels the board
 *  does not have are left out).  The 3D view carries the diagram classes the pages read;
 *  the map's copies have their own. */
export function drawMapDiagram(parts, st, diagram) {
  const { view } = st;
  const files = view.board.files;
  const S = MAP_SQ;
  const known = (sq) => typeof sq === "string" && Object.prototype.hasOwnProperty.call(view.columns, sq);
  const centre = (sq) => {
    const [px, py] = parts.pos(...coordOf(files, sq));
    return [px + S / 2, py + S / 2];
  };
  const g = svg("g", { class: "vd-map-diagram" });
  for (const sq of diagram.highlights || []) {
    if (!known(sq)) continue;
    const cell = parts.root.querySelector(`.vd-sq[data-cell="${sq}"]`);
    if (cell) cell.classList.add("highlighted"); // as the other boards mark a lit cell
    const [px, py] = parts.pos(...coordOf(files, sq));
    g.append(svg("rect", { class: "vd-map-highlight", x: px + 2, y: py + 2, width: S - 4, height: S - 4, rx: 2 }));
  }
  for (const pair of diagram.arrows || []) {
    const [from, to] = pair || [];
    if (!known(from) || !known(to)) continue;
    const [x1, y1] = centre(from);
    const [x2, y2] = centre(to);
    g.append(svg("line", { class: "vd-map-arrow", x1, y1, x2, y2, "marker-end": "url(#vd-arrow-head-lit)" }));
  }
  for (const sq of diagram.marks || []) {
    if (!known(sq)) continue;
    const [cx, cy] = centre(sq);
    g.append(svg("path", { class: "vd-map-cross",
      d: `M${cx - 9},${cy - 9} L${cx + 9},${cy + 9} M${cx - 9},${cy + 9} L${cx + 9},${cy - 9}` }));
  }
  parts.root.append(g);
}
