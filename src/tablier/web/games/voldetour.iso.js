// Voldétour board: the isometric 3D view (for looking, not clicking), drawn from the
// board's state (voldetour.model.js) at a rotation.  Solids are drawn one unit cell at a
// time in painter's order (docs/web-client.md, "Drawing").  Part of games/voldetour.js.

import { t } from "../i18n.js";
import { svg } from "../ui.js";
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
import { ghost, lastSquares, selectedPiece } from "./voldetour.model.js";

export function drawIso(st, r) {
  const { view, sel, last, coordinates } = st;
  const { width: W, height: H, tower_height: TH, files } = view.board;
  const proj = projector(W, H, r);
  const items = []; // {depth, order, node}
  const g = ghost(st);
  // a piece of yours chosen to be moved is drawn faded where it stands
  const chosen = sel && sel.type === "piece" && sel.key !== "hand" ? selectedPiece(st) : null;
  const liftedPieceId = chosen && chosen.from ? chosen.id : null;
  // the piece put by the last move (stairs have no lasting id: compare the placement)
  const isLast = (piece) => !!last && last.kind === "put" && last.player === piece.owner
    && last.piece.kind === piece.kind && last.anchor === piece.anchor
    && last.level === piece.level && last.orientation === piece.orientation;

  // the bounding box of the board and everything above it
  const corners = [[0, 0], [W, 0], [0, H], [W, H]];
  let minX = Infinity; let maxX = -Infinity; let minY = Infinity; let maxY = -Infinity;
  for (const [x, y] of corners) {
    for (const z of [0, TH + 1.6]) {
      const [sx, sy] = proj.point(x, y, z);
      minX = Math.min(minX, sx); maxX = Math.max(maxX, sx);
      minY = Math.min(minY, sy); maxY = Math.max(maxY, sy);
    }
  }
  const pad = 18;
  const root3d = svg("svg", {
    class: "vd-iso",
    "data-testid": "vd-iso",
    "data-rotation": String(r),
    viewBox: `${(minX - pad).toFixed(0)} ${(minY - pad).toFixed(0)} ${(maxX - minX + 2 * pad).toFixed(0)} ${(maxY - minY + 2 * pad + 8).toFixed(0)}`,
    role: "img",
    "aria-label": t("Voldétour board in 3D"),
  });
  root3d.append(defs());

  // floor
  const floor = svg("g", { class: "vd-floor-layer" });
  const marked = new Set(view.marked || []);
  const lastFloor = new Set(lastSquares(st));
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const pts = [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]].map(([a, b]) => proj.point(a, b, 0));
      const sq = labelOf(files, x, y);
      const cls = `vd-floor${marked.has(sq) ? " marked" : ""}${lastFloor.has(sq) ? " last" : ""}`;
      floor.append(svg("polygon", { class: cls, "data-square": sq,
        points: polyPoints(pts) }));
    }
  }
  root3d.append(floor);
  if (coordinates) root3d.append(isoCoordinates(proj, W, H, files));

  // solids
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
      });
      if (piece.kind === "block") {
        drawSolid(node, proj, x, y, z, cubeFaces(), sideFill(piece.owner), piece.owner, same);
      } else {
        const faces = wedgeFaces(piece.upside_down).map((f) => ({
          n: orientNormal(piece.dir, f.n),
          pts: f.pts.map((p) => orientPoint(piece.dir, p)),
        }));
        drawSolid(node, proj, x, y, z, faces, sideFill(piece.owner), piece.owner, null);
      }
      items.push({ depth: proj.depth(x, y, z), order: piece.kind === "stair" && piece.upside_down ? 2 : 1, node });
    }
  }
  // towers
  for (const t of view.towers) {
    const same = new Set();
    for (let z = 0; z < t.height; z++) same.add(`${t.x},${t.y},${z}`);
    for (let z = 0; z < t.height; z++) {
      const node = svg("g", { class: "vd-tower", "data-tower": t.square });
      drawSolid(node, proj, t.x, t.y, z, cubeFaces(), "var(--vd-tower)", null, same,
        z === t.height - 1 ? t.owner : null);
      items.push({ depth: proj.depth(t.x, t.y, z), order: 1, node });
    }
  }
  // ghost
  if (g) {
    const same = new Set(g.cells.map((c) => c.join(",")));
    const owner = view.turn.player;
    for (const [x, y, z] of g.cells) {
      const node = svg("g", { class: "vd-ghost", "data-testid": "vd-ghost" });
      if (g.piece.kind === "block") {
        drawSolid(node, proj, x, y, z, cubeFaces(), sideFill(owner), owner, same);
      } else {
        const col = view.columns[labelOf(files, x, y)];
        const inverted = g.orientation === "u";
        const dir = inverted ? (col.slope ? col.slope.dir : "n") : g.orientation;
        const faces = wedgeFaces(inverted).map((f) => ({
          n: orientNormal(dir, f.n), pts: f.pts.map((p) => orientPoint(dir, p)) }));
        drawSolid(node, proj, x, y, z, faces, sideFill(owner), owner, null);
      }
      items.push({ depth: proj.depth(x, y, z), order: 3, node });
    }
  }
  // Lords
  for (const lord of view.lords) {
    const node = drawLord(proj, lord, view.players);
    items.push({ depth: proj.depth(lord.x, lord.y, lord.level), order: 4, node });
  }
  items.sort((a, b) => a.depth - b.depth || a.order - b.order);
  const solids = svg("g", { class: "vd-solids" });
  for (const it of items) solids.append(it.node);
  root3d.append(solids);
  // the Lords once more, faintly, over everything: never lost behind a building
  const xray = svg("g", { class: "vd-xray", opacity: 0.3, "pointer-events": "none" });
  for (const lord of view.lords) xray.append(drawLord(proj, lord, view.players));
  root3d.append(xray);

  // the last Lord move, over everything
  if (last && last.kind === "lord" && last.path) {
    const pts = last.path.map((sq, i) => {
      const [x, y] = coordOf(files, sq);
      return proj.point(x + 0.5, y + 0.5, last.levels[i] + 0.05);
    });
    root3d.append(svg("polyline", { class: "vd-path", points: polyPoints(pts) }));
  }
  root3d.append(compassRose(proj, W, H, minX + 10, minY + 12));
  return root3d;
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
  d.append(stripes, hatch);
  return d;
}

function drawSolid(node, proj, x, y, z, faces, fill, owner, same, topOwner = null) {
  for (const f of faces) {
    const n = proj.normal(...f.n);
    if (!visible(n)) continue;
    // a face against another cell of the same piece is hidden
    if (same && f.n.filter((c) => c !== 0).length === 1) {
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
    const stripeOwner = topOwner !== null && isTop ? topOwner : owner;
    if (stripeOwner === 1) node.append(svg("polygon", { class: "vd-face", points, fill: "url(#vd-stripes)" }));
    // outline: skip edges shared with a coplanar face of the same piece
    const path = [];
    for (let i = 0; i < f.pts.length; i++) {
      const p1 = f.pts[i];
      const p2 = f.pts[(i + 1) % f.pts.length];
      if (same && f.n.filter((c) => c !== 0).length === 1) {
        // the edge's outward direction: axis where both points sit on the same face of the cell
        let dir = null;
        for (let ax = 0; ax < 3; ax++) {
          if (f.n[ax] !== 0) continue;
          if (p1[ax] === p2[ax]) dir = [0, 0, 0].map((_, k) => (k === ax ? (p1[ax] === 1 ? 1 : -1) : 0));
        }
        if (dir) {
          const nb = [x + dir[0], y + dir[1], z + dir[2]];
          const above = [nb[0] + f.n[0], nb[1] + f.n[1], nb[2] + f.n[2]];
          if (same.has(nb.join(",")) && !same.has(above.join(","))) continue;
        }
      }
      const a = proj.point(x + p1[0], y + p1[1], z + p1[2]);
      const b = proj.point(x + p2[0], y + p2[1], z + p2[2]);
      path.push(`M${a[0].toFixed(1)},${a[1].toFixed(1)}L${b[0].toFixed(1)},${b[1].toFixed(1)}`);
    }
    if (path.length) node.append(svg("path", { class: "vd-edge", d: path.join("") }));
    if (topOwner !== null && isTop) {
      // battlements: a small ring on the tower's top
      const c = proj.point(x + 0.5, y + 0.5, z + 1);
      node.append(svg("ellipse", { cx: c[0], cy: c[1], rx: 9, ry: 4.5, fill: "none",
        stroke: "rgba(0,0,0,.5)", "stroke-width": 1.2 }));
    }
  }
}

function drawLord(proj, lord, players) {
  const [cx, cy] = proj.point(lord.x + 0.5, lord.y + 0.5, lord.level);
  const fill = sideFill(lord.owner);
  const g = svg("g", { class: `vd-lord vd-lord-${lord.owner}`, "data-lord": String(lord.owner) });
  g.append(svg("ellipse", { cx, cy, rx: 9, ry: 4.5, fill: "rgba(0,0,0,.35)" }));
  const body = `M${cx - 7},${cy} L${cx - 4},${cy - 20} L${cx + 4},${cy - 20} L${cx + 7},${cy} Z`;
  const crown = `M${cx - 6},${cy - 27} L${cx - 6},${cy - 34} L${cx - 3},${cy - 30} L${cx},${cy - 35} L${cx + 3},${cy - 30} L${cx + 6},${cy - 34} L${cx + 6},${cy - 27} Z`;
  if (lord.owner === 0) {
    // filled figure
    g.append(svg("path", { d: body, fill, stroke: "#000", "stroke-width": 1.2 }));
    g.append(svg("circle", { cx, cy: cy - 23, r: 5, fill, stroke: "#000", "stroke-width": 1.2 }));
    g.append(svg("path", { d: crown, fill, stroke: "#000", "stroke-width": 1 }));
  } else {
    // hollow figure with a dot: the second cue
    g.append(svg("path", { d: body, fill: "#fff", stroke: fill, "stroke-width": 3 }));
    g.append(svg("circle", { cx, cy: cy - 10, r: 2.6, fill }));
    g.append(svg("circle", { cx, cy: cy - 23, r: 5, fill: "#fff", stroke: fill, "stroke-width": 2.5 }));
    g.append(svg("path", { d: crown, fill: "#fff", stroke: fill, "stroke-width": 2 }));
  }
  g.append(svg("title", {}, t("{player}'s Lord on {square} (level {n})",
    { player: players[lord.owner], square: lord.square, n: lord.level })));
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
