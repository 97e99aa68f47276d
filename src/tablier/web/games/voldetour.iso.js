// Voldétour board: the isometric 3D view, the main board, drawn from the board's state
// (voldetour.model.js) at a rotation.  Solids are drawn one unit cell at a time in painter's
// order (docs/web-client.md, "Drawing"); the top of every column (a flat top, a slope, a
// tower's top, the floor) is a surface that carries the square's highlights and takes its
// clicks, drawn in the same order so that what stands in front hides it.  What follows the
// pointer (the ghost of a placement, the Lord's path) is drawn in an overlay over
// everything (drawIsoOverlay), so that hovering never redraws the solids.  Part of
// games/voldetour.js.

import { t } from "../i18n.js";
import { clear, svg } from "../ui.js";
import {
  coordOf,
  cubeFaces,
  labelOf,
  orientNormal,
  orientPoint,
  polyPoints,
  projector,
  shadeOf,
  sideFill,
  visible,
  wedgeFaces,
} from "./voldetour.geometry.js";
import {
  ghost,
  lastSquares,
  previewPath,
  selectedPiece,
  selectedSquares,
  targetSquares,
} from "./voldetour.model.js";

// a Lord figure's screen box around its feet: how far apart two must be not to overlap
const LORD_HALF_WIDTH = 10;
const LORD_HEIGHT = 37;

/**
 * The 3D view's SVG.  `handlers` ({click(square), hover(square | null)}) make it
 * clickable; null draws it read-only (a diagram).  `diagram` ({highlights, arrows, marks})
 * adds a diagram's marks.  → {root, overlay, proj} (the overlay for drawIsoOverlay).
 */
export function drawIso(st, r, handlers = null, diagram = null) {
  const { view, sel, last, coordinates } = st;
  const { width: W, height: H, tower_height: TH, files } = view.board;
  const proj = projector(W, H, r);
  const items = []; // {depth, order, node}
  // a piece of yours chosen to be moved is drawn faded where it stands
  const chosen = sel && sel.type === "piece" && sel.key !== "hand" ? selectedPiece(st) : null;
  const liftedPieceId = chosen && chosen.from ? chosen.id : null;
  // the piece put by the last move (stairs have no lasting id: compare the placement)
  const isLast = (piece) => !!last && last.kind === "put" && last.player === piece.owner
    && last.piece.kind === piece.kind && last.anchor === piece.anchor
    && last.level === piece.level && last.orientation === piece.orientation;
  const targets = handlers ? targetSquares(st) : new Set();
  const selected = handlers ? selectedSquares(st) : new Set();
  const lastFloor = new Set(lastSquares(st));
  const marked = new Set(view.marked || []);
  const lit = new Set(diagram ? diagram.highlights || [] : []);

  // the bounding box of the board and everything above it
  let minX = Infinity; let maxX = -Infinity; let minY = Infinity; let maxY = -Infinity;
  for (const [x, y] of [[0, 0], [W, 0], [0, H], [W, H]]) {
    for (const z of [0, TH + 1.9]) {
      const [sx, sy] = proj.point(x, y, z);
      minX = Math.min(minX, sx); maxX = Math.max(maxX, sx);
      minY = Math.min(minY, sy); maxY = Math.max(maxY, sy);
    }
  }
  const pad = 20;
  const root3d = svg("svg", {
    class: `vd-iso${handlers ? " vd-live" : ""}`,
    "data-testid": "vd-iso",
    "data-rotation": String(r),
    viewBox: `${(minX - pad).toFixed(0)} ${(minY - pad).toFixed(0)} ${(maxX - minX + 2 * pad).toFixed(0)} ${(maxY - minY + 2 * pad + 8).toFixed(0)}`,
    role: "img",
    "aria-label": t("Voldétour board in 3D"),
  });
  root3d.append(defs());

  // the top surface of every square: classes for what it is now, the clicks
  const surfaceClass = (sq, base) => {
    const cls = [base];
    if (targets.has(sq)) cls.push("target");
    if (selected.has(sq)) cls.push("selected");
    if (lastFloor.has(sq)) cls.push("last");
    if (marked.has(sq)) cls.push("marked");
    if (lit.has(sq)) cls.push("diagram-highlight");
    return cls.join(" ");
  };
  const surfaces = new Map(); // square -> {pts, centre, level}
  const floor = svg("g", { class: "vd-floor-layer" });
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const sq = labelOf(files, x, y);
      const top = topSurface(view, proj, x, y, sq);
      surfaces.set(sq, top);
      const floorPts = [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]].map(([a, b]) => proj.point(a, b, 0));
      if (top.level === 0 && !top.slope) {
        floor.append(svg("polygon", { class: surfaceClass(sq, "vd-floor"), "data-square": sq,
          points: polyPoints(floorPts) }));
      } else {
        floor.append(svg("polygon", { class: "vd-floor", "data-square": sq, points: polyPoints(floorPts) }));
        const node = svg("polygon", { class: surfaceClass(sq, "vd-top"), "data-square": sq,
          points: polyPoints(top.pts) });
        items.push({ depth: top.depth, order: top.order, node });
      }
      if (st.heights && (top.level > 0 || top.slope)) {
        const [cx, cy] = top.centre;
        const text = top.slope ? `${top.level}–${top.level + 1}` : String(top.level);
        items.push({ depth: top.depth, order: top.order + 0.1,
          node: svg("text", { class: "vd-height-num", x: cx, y: cy + 4, "text-anchor": "middle",
            "data-square": sq }, text) });
      }
    }
  }
  root3d.append(floor);
  if (coordinates) root3d.append(isoCoordinates(proj, W, H, files));

  // solids: every unit cell carries its square (a click on a column's side is a click on it)
  const pieceCells = new Map(); // id -> Set of "x,y,z"
  for (const piece of view.pieces) {
    pieceCells.set(piece.id, new Set(piece.cells.map((c) => c.join(","))));
  }
  for (const piece of view.pieces) {
    const same = pieceCells.get(piece.id);
    const lastPiece = isLast(piece);
    for (const [x, y, z] of piece.cells) {
      const node = svg("g", {
        class: `vd-cell${piece.id === liftedPieceId ? " vd-lifted" : ""}${lastPiece ? " vd-last-cell" : ""}`,
        "data-piece": piece.id,
        "data-square": labelOf(files, x, y),
      });
      if (piece.kind === "block") {
        drawSolid(node, proj, x, y, z, cubeFaces(), sideFill(piece.owner), piece.owner, same);
      } else {
        const faces = wedgeFaces(piece.upside_down).map((f) => ({
          n: orientNormal(piece.dir, f.n),
          pts: f.pts.map((p) => orientPoint(piece.dir, p)),
          slope: f.slope,
        }));
        drawSolid(node, proj, x, y, z, faces, sideFill(piece.owner), piece.owner, null);
      }
      items.push({ depth: proj.depth(x, y, z), order: piece.kind === "stair" && piece.upside_down ? 2 : 1, node });
    }
  }
  // towers
  for (const tw of view.towers) {
    const same = new Set();
    for (let z = 0; z < tw.height; z++) same.add(`${tw.x},${tw.y},${z}`);
    for (let z = 0; z < tw.height; z++) {
      const node = svg("g", { class: "vd-tower", "data-tower": tw.square, "data-square": tw.square });
      drawSolid(node, proj, tw.x, tw.y, z, cubeFaces(), "var(--vd-tower)", null, same,
        z === tw.height - 1 ? tw.owner : null);
      items.push({ depth: proj.depth(tw.x, tw.y, z), order: 1, node });
    }
  }
  // Lords, set apart when they would be drawn over each other
  const feet = lordFeet(proj, view.lords);
  view.lords.forEach((lord, i) => {
    const node = drawLord(lord, feet[i], view.players);
    node.setAttribute("data-square", lord.square);
    items.push({ depth: proj.depth(lord.x, lord.y, lord.level), order: 4, node });
  });
  items.sort((a, b) => a.depth - b.depth || a.order - b.order);
  const solids = svg("g", { class: "vd-solids" });
  for (const it of items) solids.append(it.node);
  root3d.append(solids);

  // over everything, never hidden by a building: the targets' outlines, the Lords (faint)
  const xray = svg("g", { class: "vd-xray", "pointer-events": "none" });
  for (const sq of targets) {
    xray.append(svg("polygon", { class: "vd-xray-target", points: polyPoints(surfaces.get(sq).pts) }));
  }
  const ghosts = svg("g", { class: "vd-xray-lords", opacity: 0.3 });
  view.lords.forEach((lord, i) => ghosts.append(drawLord(lord, feet[i], view.players)));
  xray.append(ghosts);
  root3d.append(xray);

  // the last Lord move
  if (last && last.kind === "lord" && last.path) {
    root3d.append(pathLine(proj, files, last.path, last.levels, "vd-path"));
  }
  if (diagram) root3d.append(diagramMarks(diagram, surfaces));
  const overlay = svg("g", { class: "vd-iso-overlay", "pointer-events": "none" });
  root3d.append(overlay);
  root3d.append(compassRose(proj, W, H, minX + 10, minY + 12));

  if (handlers) {
    const squareOf = (event) => {
      const node = event.target && event.target.closest ? event.target.closest("[data-square]") : null;
      return node ? node.getAttribute("data-square") : null;
    };
    root3d.addEventListener("click", (event) => {
      const sq = squareOf(event);
      if (sq) handlers.click(sq);
    });
    root3d.addEventListener("pointerover", (event) => handlers.hover(squareOf(event)));
    root3d.addEventListener("pointerleave", () => handlers.hover(null));
  }
  const parts = { root: root3d, overlay, proj, surfaces };
  drawIsoOverlay(st, parts);
  return parts;
}

/** Draw again what follows the pointer: the ghost of the placement previewed, the Lord's
 *  path to the square hovered (`parts`: what drawIso returned). */
export function drawIsoOverlay(st, parts) {
  const { view } = st;
  const { overlay, proj } = parts;
  clear(overlay);
  const g = ghost(st);
  if (g) {
    const files = view.board.files;
    const same = new Set(g.cells.map((c) => c.join(",")));
    const owner = view.turn.player;
    const cells = g.cells.slice().sort((a, b) => proj.depth(...a) - proj.depth(...b));
    for (const [x, y, z] of cells) {
      const node = svg("g", { class: "vd-ghost", "data-testid": "vd-ghost" });
      if (g.piece.kind === "block") {
        drawSolid(node, proj, x, y, z, cubeFaces(), sideFill(owner), owner, same);
      } else {
        const col = view.columns[labelOf(files, x, y)];
        const inverted = g.orientation === "u";
        const dir = inverted ? (col.slope ? col.slope.dir : "n") : g.orientation;
        const faces = wedgeFaces(inverted).map((f) => ({
          n: orientNormal(dir, f.n), pts: f.pts.map((p) => orientPoint(dir, p)), slope: f.slope }));
        drawSolid(node, proj, x, y, z, faces, sideFill(owner), owner, null);
      }
      overlay.append(node);
    }
  }
  const preview = previewPath(st);
  if (preview) {
    overlay.append(pathLine(proj, view.board.files, preview.path, preview.levels, "vd-path preview"));
  }
}

/** A square's top surface: the floor, a flat top, a tower's top or a slope → {pts (screen),
 *  centre, level, slope, depth, order} (depth and order: where it goes in painter's order). */
function topSurface(view, proj, x, y, sq) {
  const col = view.columns[sq];
  if (col && col.slope) {
    const { level, dir } = col.slope;
    const face = wedgeFaces(false)[0];
    const pts = face.pts.map((p) => orientPoint(dir, p)).map(([a, b, c]) => proj.point(x + a, y + b, level + c));
    return { pts, centre: proj.point(x + 0.5, y + 0.5, level + 0.5), level, slope: col.slope,
      depth: proj.depth(x, y, level), order: 1.5 };
  }
  const h = col && col.height ? col.height : 0;
  const pts = [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]].map(([a, b]) => proj.point(a, b, h));
  return { pts, centre: proj.point(x + 0.5, y + 0.5, h), level: h, slope: null,
    depth: proj.depth(x, y, h - 1), order: 2.5 };
}

/** The screen points where the Lords stand, set apart when their figures would overlap
 *  (two Lords on neighbouring squares one behind the other, or one level apart). */
export function lordFeet(proj, lords) {
  const feet = lords.map((lord) => {
    const [x, y] = proj.point(lord.x + 0.5, lord.y + 0.5, lord.level);
    return { x, y, ox: x, oy: y };
  });
  if (feet.length === 2) {
    const [a, b] = feet;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    if (Math.abs(dx) < 2 * LORD_HALF_WIDTH + 4 && Math.abs(dy) < LORD_HEIGHT + 4) {
      const need = (2 * LORD_HALF_WIDTH + 6 - Math.abs(dx)) / 2;
      const sign = dx > 0 || (dx === 0 && lords[0].owner === 0) ? 1 : -1;
      a.x -= sign * need;
      b.x += sign * need;
    }
  }
  return feet;
}

export function defs() {
  const d = svg("defs");
  const stripes = svg("pattern", { id: "vd-stripes", patternUnits: "userSpaceOnUse", width: 6,
    height: 6, patternTransform: "rotate(45)" });
  stripes.append(svg("rect", { x: 0, y: 0, width: 2.2, height: 6, fill: "#fff", "fill-opacity": 0.55 }));
  const hatch = svg("pattern", { id: "vd-ghost-hatch", patternUnits: "userSpaceOnUse", width: 8,
    height: 8, patternTransform: "rotate(-45)" });
  hatch.append(svg("rect", { x: 0, y: 0, width: 3, height: 8, fill: "var(--vd-select)",
    "fill-opacity": 0.5 }));
  const head = svg("marker", { id: "vd-arrow-head", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
  head.append(svg("path", { d: "M0,0 L10,5 L0,10 Z", class: "vd-arrow-head" }));
  const litHead = svg("marker", { id: "vd-arrow-head-lit", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
  litHead.append(svg("path", { d: "M0,0 L10,5 L0,10 Z", class: "vd-arrow-head-lit" }));
  d.append(stripes, hatch, head, litHead);
  return d;
}

export function drawSolid(node, proj, x, y, z, faces, fill, owner, same, topOwner = null) {
  for (const f of faces) {
    const n = proj.normal(...f.n);
    if (!visible(n)) continue;
    const axisFace = f.n.filter((c) => c !== 0).length === 1;
    // a face against another cell of the same piece is hidden
    if (same && axisFace) {
      const nb = `${x + f.n[0]},${y + f.n[1]},${z + f.n[2]}`;
      if (same.has(nb)) continue;
    }
    const pts = f.pts.map(([a, b, c]) => proj.point(x + a, y + b, z + c));
    const points = polyPoints(pts);
    const isTop = f.n[0] === 0 && f.n[1] === 0 && f.n[2] === 1;
    const faceFill = topOwner !== null && isTop ? sideFill(topOwner) : fill;
    node.append(svg("polygon", { class: "vd-face", points, fill: faceFill }));
    const shade = shadeOf(n);
    if (shade > 0.01) {
      node.append(svg("polygon", { class: "vd-face", points, fill: "#000", "fill-opacity": shade.toFixed(2) }));
    }
    if (isTop || f.slope) {
      // the higher, the darker (lighter in dark mode): heights read at a glance
      const level = isTop ? z + 1 : z + 0.5;
      node.append(svg("polygon", { class: "vd-face vd-height-tint", points,
        "fill-opacity": (0.07 * level).toFixed(2) }));
    }
    const stripeOwner = topOwner !== null && isTop ? topOwner : owner;
    if (stripeOwner === 1) node.append(svg("polygon", { class: "vd-face", points, fill: "url(#vd-stripes)" }));
    // outline: skip edges shared with a coplanar face of the same piece; between two levels
    // of the same piece, a faint line, so that its height can be counted
    const path = [];
    const levels = [];
    for (let i = 0; i < f.pts.length; i++) {
      const p1 = f.pts[i];
      const p2 = f.pts[(i + 1) % f.pts.length];
      const a = proj.point(x + p1[0], y + p1[1], z + p1[2]);
      const b = proj.point(x + p2[0], y + p2[1], z + p2[2]);
      const seg = `M${a[0].toFixed(1)},${a[1].toFixed(1)}L${b[0].toFixed(1)},${b[1].toFixed(1)}`;
      if (same && axisFace) {
        // the edge's outward direction: axis where both points sit on the same face of the cell
        let dir = null;
        for (let ax = 0; ax < 3; ax++) {
          if (f.n[ax] !== 0) continue;
          if (p1[ax] === p2[ax]) dir = [0, 0, 0].map((_, k) => (k === ax ? (p1[ax] === 1 ? 1 : -1) : 0));
        }
        if (dir) {
          const nb = [x + dir[0], y + dir[1], z + dir[2]];
          const above = [nb[0] + f.n[0], nb[1] + f.n[1], nb[2] + f.n[2]];
          if (same.has(nb.join(",")) && !same.has(above.join(","))) {
            if (dir[2] === 1) levels.push(seg);
            continue;
          }
        }
      }
      path.push(seg);
    }
    if (path.length) node.append(svg("path", { class: "vd-edge", d: path.join("") }));
    if (levels.length) node.append(svg("path", { class: "vd-level-line", d: levels.join("") }));
    if (f.slope) node.append(slopeArrow(proj, x, y, z, f));
    if (topOwner !== null && isTop) {
      // battlements: a small ring on the tower's top
      const c = proj.point(x + 0.5, y + 0.5, z + 1);
      node.append(svg("ellipse", { cx: c[0], cy: c[1], rx: 9, ry: 4.5, fill: "none",
        stroke: "rgba(0,0,0,.5)", "stroke-width": 1.2 }));
    }
  }
}

/** An arrow on a slope face, pointing uphill. */
function slopeArrow(proj, x, y, z, face) {
  // the face's low edge is where z is 0, its high edge where z is 1 (local coordinates)
  const low = face.pts.filter((p) => p[2] === 0);
  const high = face.pts.filter((p) => p[2] === 1);
  const mid = (ps) => ps.reduce((s, p) => [s[0] + p[0] / ps.length, s[1] + p[1] / ps.length,
    s[2] + p[2] / ps.length], [0, 0, 0]);
  const lo = mid(low);
  const hi = mid(high);
  const at = (k) => proj.point(x + lo[0] + (hi[0] - lo[0]) * k, y + lo[1] + (hi[1] - lo[1]) * k,
    z + lo[2] + (hi[2] - lo[2]) * k);
  const a = at(0.2);
  const b = at(0.8);
  return svg("line", { class: "vd-slope-arrow-3d", x1: a[0], y1: a[1], x2: b[0], y2: b[1],
    "marker-end": "url(#vd-arrow-head)" });
}

function drawLord(lord, foot, players) {
  const cx = foot.x;
  const cy = foot.y;
  const fill = sideFill(lord.owner);
  const g = svg("g", { class: `vd-lord vd-lord-${lord.owner}`, "data-lord": String(lord.owner) });
  g.append(svg("ellipse", { cx: foot.ox, cy: foot.oy, rx: 9, ry: 4.5, fill: "rgba(0,0,0,.35)" }));
  if (foot.ox !== cx) {
    // set apart from the other Lord: a line from its feet to the square's centre
    g.append(svg("line", { class: "vd-lord-leader", x1: cx, y1: cy, x2: foot.ox, y2: foot.oy }));
  }
  const body = `M${cx - 7},${cy} L${cx - 4},${cy - 20} L${cx + 4},${cy - 20} L${cx + 7},${cy} Z`;
  const crown = `M${cx - 6},${cy - 27} L${cx - 6},${cy - 34} L${cx - 3},${cy - 30} L${cx},${cy - 35} L${cx + 3},${cy - 30} L${cx + 6},${cy - 34} L${cx + 6},${cy - 27} Z`;
  const figure = svg("g", { class: "vd-lord-figure" });
  if (lord.owner === 0) {
    // filled figure
    figure.append(svg("path", { d: body, fill, stroke: "#000", "stroke-width": 1.2 }));
    figure.append(svg("circle", { cx, cy: cy - 23, r: 5, fill, stroke: "#000", "stroke-width": 1.2 }));
    figure.append(svg("path", { d: crown, fill, stroke: "#000", "stroke-width": 1 }));
  } else {
    // hollow figure with a dot: the second cue
    figure.append(svg("path", { d: body, fill: "#fff", stroke: fill, "stroke-width": 3 }));
    figure.append(svg("circle", { cx, cy: cy - 10, r: 2.6, fill }));
    figure.append(svg("circle", { cx, cy: cy - 23, r: 5, fill: "#fff", stroke: fill, "stroke-width": 2.5 }));
    figure.append(svg("path", { d: crown, fill: "#fff", stroke: fill, "stroke-width": 2 }));
  }
  g.append(figure);
  g.append(svg("title", {}, t("{player}'s Lord on {square} (level {n})",
    { player: players[lord.owner], square: lord.square, n: lord.level })));
  return g;
}

function pathLine(proj, files, path, levels, cls) {
  const pts = path.map((sq, i) => {
    const [x, y] = coordOf(files, sq);
    return proj.point(x + 0.5, y + 0.5, (levels ? levels[i] || 0 : 0) + 0.05);
  });
  return svg("polyline", { class: cls, points: polyPoints(pts) });
}

/** A diagram's arrows and crosses, over everything, at the tops of their squares. */
function diagramMarks(diagram, surfaces) {
  const g = svg("g", { class: "vd-diagram", "pointer-events": "none" });
  for (const pair of diagram.arrows || []) {
    const [from, to] = pair || [];
    const a = surfaces.get(from);
    const b = surfaces.get(to);
    if (!a || !b) continue;
    g.append(svg("line", { class: "diagram-arrow", "data-from": from, "data-to": to,
      x1: a.centre[0], y1: a.centre[1], x2: b.centre[0], y2: b.centre[1],
      "marker-end": "url(#vd-arrow-head-lit)" }));
  }
  for (const sq of diagram.marks || []) {
    const s = surfaces.get(sq);
    if (!s) continue;
    const [cx, cy] = s.centre;
    g.append(svg("path", { class: "diagram-mark", "data-cell": sq,
      d: `M${cx - 9},${cy - 5} L${cx + 9},${cy + 5} M${cx - 9},${cy + 5} L${cx + 9},${cy - 5}` }));
  }
  return g;
}

function isoCoordinates(proj, W, H, files) {
  // labels along the two edges nearest to the viewer (the far ones would hide behind pieces)
  const g = svg("g", { class: "vd-iso-coords" });
  const yEdge = proj.point(W / 2, -0.45, 0)[1] >= proj.point(W / 2, H + 0.45, 0)[1] ? -0.45 : H + 0.45;
  const xEdge = proj.point(-0.45, H / 2, 0)[1] >= proj.point(W + 0.45, H / 2, 0)[1] ? -0.45 : W + 0.45;
  for (let x = 0; x < W; x++) {
    const [sx, sy] = proj.point(x + 0.5, yEdge, 0);
    g.append(svg("text", { class: "vd-coord", x: sx, y: sy + 4, "text-anchor": "middle" }, files[x]));
  }
  for (let y = 0; y < H; y++) {
    const [sx, sy] = proj.point(xEdge, y + 0.5, 0);
    g.append(svg("text", { class: "vd-coord", x: sx, y: sy + 4, "text-anchor": "middle" }, String(y + 1)));
  }
  return g;
}

function compassRose(proj, W, H, bx, by) {
  // an arrow pointing north, in the top left corner of the view
  const [x0, y0] = proj.point(W / 2, H / 2, 0);
  const [x1, y1] = proj.point(W / 2, H / 2 + 1, 0);
  const len = Math.hypot(x1 - x0, y1 - y0);
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const g = svg("g", { class: "vd-compass-g", "aria-hidden": "true" });
  g.append(svg("line", { x1: bx - ux * 9, y1: by - uy * 9, x2: bx + ux * 9, y2: by + uy * 9,
    stroke: "var(--vd-ink)", "stroke-width": 1.5 }));
  g.append(svg("circle", { cx: bx + ux * 9, cy: by + uy * 9, r: 2.5, fill: "var(--vd-ink)" }));
  g.append(svg("text", { class: "vd-compass", x: bx + ux * 18, y: by + uy * 18 + 4,
    "text-anchor": "middle" }, "N"));
  return g;
}
