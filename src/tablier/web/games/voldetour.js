// Voldétour board module: an isometric 3D view (rotatable in quarter turns) beside a
// top-down height map on which the player clicks.  It reads the views made by
// src/tablier/games/voldetour/view.py; the format and the interaction are described in
// docs/web-client.md, section "Voldétour board".
//
// Input: choose a piece in the tray (a block or stair from the reserve, or one of your
// pieces on the board), choose its orientation, click a highlighted anchor square; the
// board sends the two engine decisions (take, then put) one after the other.  The Lord:
// click it, then a highlighted destination.  "End turn" when the engine offers it.

import { moveKey } from "../moves.js";
import { clear, el, svg } from "../ui.js";

const ROTATION_KEY = "tablier.voldetour.rotation";
// isometric projection: screen x = (u - v) * A, screen y = (u + v) * B - z * C
const A = 24;
const B = 12;
const C = 20;
// direction of projection (towards the viewer) in view coordinates (u, v, z)
const K = [1, 1, (2 * B) / C];
// light direction in view coordinates, normalised
const LIGHT = (() => {
  const l = [0.25, 0.5, 0.83];
  const n = Math.hypot(...l);
  return l.map((x) => x / n);
})();
const DIRS = { n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0] };
const ARROWS = { n: "↑", e: "→", s: "↓", w: "←", u: "⇅" };
const DIR_WORDS = { n: "rises north", e: "rises east", s: "rises south", w: "rises west",
  u: "upside down, nested on a slope" };
const MAP_SQ = 34;
// how long the put chosen with a take waits for the take to be played (a confirm step)

// -- small geometry helpers -------------------------------------------------------------

function labelOf(files, x, y) {
  return `${files[x]}${y + 1}`;
}

function coordOf(files, label) {
  return [files.indexOf(label[0]), parseInt(label.slice(1), 10) - 1];
}

function sideFill(owner) {
  return owner === 0 ? "var(--vd-side0)" : "var(--vd-side1)";
}

/** Rotate a horizontal vector by r quarter turns counterclockwise. */
function rotVec(r, dx, dy) {
  switch (r & 3) {
    case 1: return [-dy, dx];
    case 2: return [-dx, -dy];
    case 3: return [dy, -dx];
    default: return [dx, dy];
  }
}

/** The projector of a board W x H seen with rotation r. */
function projector(W, H, r) {
  const toView = (x, y, z) => {
    const [rx, ry] = rotVec(r, x - W / 2, y - H / 2);
    return [rx, -ry, z];
  };
  return {
    point(x, y, z) {
      const [u, v] = toView(x, y, z);
      return [(u - v) * A, (u + v) * B - z * C];
    },
    depth(x, y, z) {
      // the cell's centre: sorting by u + v + z is a valid painter's order for unit cells
      const [u, v] = toView(x + 0.5, y + 0.5, 0);
      return u + v + z;
    },
    normal(nx, ny, nz) {
      const [rx, ry] = rotVec(r, nx, ny);
      return [rx, -ry, nz];
    },
  };
}

function visible(n) {
  return n[0] * K[0] + n[1] * K[1] + n[2] * K[2] > 1e-9;
}

function shadeOf(n) {
  // how much darker than its colour a face is drawn: lit from above, a little from the left
  const len = Math.hypot(...n) || 1;
  const d = (n[0] * LIGHT[0] + n[1] * LIGHT[1] + n[2] * LIGHT[2]) / len;
  return (1 - (0.5 + 0.5 * d)) * 0.8;
}

// The faces of a unit cell's solids, in local coordinates ([0,1]^3 relative to the cell),
// each {pts, n (outward normal), edges (neighbour direction of each edge or null)}.
function cubeFaces() {
  return [
    { n: [0, 0, 1], pts: [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]] },
    { n: [0, 0, -1], pts: [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]] },
    { n: [1, 0, 0], pts: [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]] },
    { n: [-1, 0, 0], pts: [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]] },
    { n: [0, 1, 0], pts: [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]] },
    { n: [0, -1, 0], pts: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]] },
  ];
}

// A wedge rising towards +y (local "north"); `inverted` is the upper half (nested stair).
function wedgeFaces(inverted) {
  if (!inverted) {
    return [
      { n: [0, -1, 1], pts: [[0, 0, 0], [1, 0, 0], [1, 1, 1], [0, 1, 1]], slope: true },
      { n: [0, 1, 0], pts: [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]] },
      { n: [1, 0, 0], pts: [[1, 0, 0], [1, 1, 0], [1, 1, 1]] },
      { n: [-1, 0, 0], pts: [[0, 0, 0], [0, 1, 1], [0, 1, 0]] },
      { n: [0, 0, -1], pts: [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]] },
    ];
  }
  return [
    { n: [0, 0, 1], pts: [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]] },
    { n: [0, -1, 0], pts: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]] },
    { n: [1, 0, 0], pts: [[1, 0, 0], [1, 0, 1], [1, 1, 1]] },
    { n: [-1, 0, 0], pts: [[0, 0, 0], [0, 1, 1], [0, 0, 1]] },
    { n: [0, 1, -1], pts: [[0, 0, 0], [0, 1, 1], [1, 1, 1], [1, 0, 0]] },
  ];
}

// Turn local wedge coordinates (rising north) to rise towards `dir`.
function orientPoint(dir, [a, b, c]) {
  switch (dir) {
    case "e": return [b, 1 - a, c];
    case "s": return [1 - a, 1 - b, c];
    case "w": return [1 - b, a, c];
    default: return [a, b, c];
  }
}

function orientNormal(dir, [a, b, c]) {
  switch (dir) {
    case "e": return [b, -a, c];
    case "s": return [-a, -b, c];
    case "w": return [-b, a, c];
    default: return [a, b, c];
  }
}

function polyPoints(pts) {
  return pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

// -- the board --------------------------------------------------------------------------

/** Create the Voldétour board in `host` (see the board-module interface in docs). */
export function createBoard(host, { submit, choose } = {}) {
  let rotation = 0;
  try {
    rotation = (parseInt(localStorage.getItem(ROTATION_KEY) || "0", 10) & 3) || 0;
  } catch (_) {
    rotation = 0;
  }
  let view = null;
  let legal = null;
  let last = null;
  let coordinates = true;
  let flipped = false;
  let sel = null; // {type: "piece", key, orientation, anchor} | {type: "lord"}
  let hover = null; // square label under the pointer
  let moves = emptyMoves();
  let frame = 0;
  let mapOverlay = null;
  let focusSq = null; // the map square with the keyboard focus
  let mapPos = null;
  let mapPathLine = null;

  const root = el("div", { class: "vd-board", "data-testid": "voldetour-board" });
  const viewbar = el("div", { class: "vd-viewbar" });
  const isoPane = el("div", { class: "vd-pane vd-iso-pane" });
  const mapPane = el("div", { class: "vd-pane vd-map-pane" });
  const panes = el("div", { class: "vd-panes" }, isoPane, mapPane);
  const tray = el("div", { class: "vd-tray", "data-testid": "vd-tray" });
  root.append(viewbar, panes, tray);
  clear(host);
  host.append(root);

  const rotLabel = el("span", { class: "vd-rot-label", "data-testid": "vd-rotation" });
  viewbar.append(
    el("button", { type: "button", "data-testid": "vd-rotate-left", title: "Turn the 3D view left ([)",
      "aria-label": "Turn the 3D view left", onclick: () => rotate(-1) }, "⟲"),
    el("button", { type: "button", "data-testid": "vd-rotate-right",
      title: "Turn the 3D view right (])", "aria-label": "Turn the 3D view right",
      onclick: () => rotate(1) }, "⟳"),
    rotLabel,
  );

  function emptyMoves() {
    return { takes: [], puts: [], lords: new Map(), end: null, pass: null };
  }

  function rotate(step) {
    rotation = (rotation + step + 4) & 3;
    try {
      localStorage.setItem(ROTATION_KEY, String(rotation));
    } catch (_) {
      /* storage may be unavailable */
    }
    draw();
  }

  function onKey(event) {
    if (!view || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (document.querySelector("[data-testid=dialog]")) return;
    if (!root.isConnected) return;
    if (event.key === "[") rotate(-1);
    else if (event.key === "]") rotate(1);
    else if (event.key === "o" || event.key === "O") nextOrientation(event.key === "O" ? -1 : 1);
    else if (event.key === "Escape" && sel) reset();
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  // -- legal moves, grouped for input ---------------------------------------------------

  function analyse() {
    moves = emptyMoves();
    if (!legal) return;
    for (const mv of legal) {
      if (mv.kind === "take") moves.takes.push(mv);
      else if (mv.kind === "put") moves.puts.push(mv);
      else if (mv.kind === "lord") moves.lords.set(mv.to, mv);
      else if (mv.kind === "end") moves.end = mv;
      else if (mv.kind === "pass") moves.pass = mv;
    }
  }

  /** The choices for the selected piece: [{orientation, dims, anchors: {sq: {level, notation}}}]. */
  function groupsFor(key) {
    if (key === "hand") {
      const out = new Map();
      for (const mv of moves.puts) {
        let g = out.get(mv.orientation);
        if (!g) {
          g = { orientation: mv.orientation, dims: mv.dims || null, anchors: {} };
          out.set(mv.orientation, g);
        }
        g.anchors[mv.anchor] = { level: mv.level, notation: mv.notation, cells: mv.cells };
      }
      return [...out.values()];
    }
    const take = moves.takes.find((mv) => mv.notation === key);
    if (!take) return [];
    return take.placements.map((g) => {
      const anchors = {};
      for (const [sq, level] of Object.entries(g.anchors)) {
        anchors[sq] = { level, notation: putNotation(take.piece, sq, level, g.orientation) };
      }
      return { orientation: g.orientation, dims: g.dims || null, anchors };
    });
  }

  function putNotation(piece, sq, level, orientation) {
    const lev = level ? `+${level}` : "";
    if (piece.kind === "block") return `B${piece.name}@${sq}${lev}:${orientation}`;
    return `S@${sq}${lev}:${orientation}`;
  }

  function selectedPiece() {
    if (!sel || sel.type !== "piece") return null;
    if (sel.key === "hand") return view.turn.hand;
    const take = moves.takes.find((mv) => mv.notation === sel.key);
    return take ? take.piece : null;
  }

  function currentGroup() {
    if (!sel || sel.type !== "piece") return null;
    const groups = groupsFor(sel.key);
    return groups.find((g) => g.orientation === sel.orientation) || groups[0] || null;
  }

  /** Unit cells and kind of a placement choice (for the ghost). */
  function placementCells(piece, group, sq, level) {
    const [x0, y0] = coordOf(view.board.files, sq);
    if (piece.kind === "block") {
      const [dx, dy, dz] = group.dims;
      const cells = [];
      for (let z = level; z < level + dz; z++) {
        for (let y = y0; y < y0 + dy; y++) for (let x = x0; x < x0 + dx; x++) cells.push([x, y, z]);
      }
      return cells;
    }
    return [[x0, y0, level]];
  }

  // -- selection ------------------------------------------------------------------------

  function selectPiece(key) {
    const groups = groupsFor(key);
    if (!groups.length) return;
    const keep = sel && sel.type === "piece" && groups.some((g) => g.orientation === sel.orientation);
    sel = { type: "piece", key, orientation: keep ? sel.orientation : groups[0].orientation,
      anchor: null };
    draw();
  }

  function nextOrientation(step = 1) {
    if (!sel || sel.type !== "piece") return;
    const groups = groupsFor(sel.key);
    if (!groups.length) return;
    const i = groups.findIndex((g) => g.orientation === sel.orientation);
    sel.orientation = groups[(i + step + groups.length) % groups.length].orientation;
    sel.anchor = null;
    draw();
  }

  function reset() {
    sel = null;
    hover = null;
    if (view && view.turn && view.turn.hand && moves.puts.length) {
      sel = { type: "piece", key: "hand", orientation: groupsFor("hand")[0].orientation, anchor: null };
    }
    draw();
  }

  function ownTakeAt(sq) {
    // your piece on the board covering `sq` that may be lifted (the topmost if several)
    let best = null;
    for (const mv of moves.takes) {
      const from = mv.piece.from;
      if (!from || !from.squares.includes(sq)) continue;
      const top = Math.max(...from.cells.map((c) => c[2]));
      if (!best || top > best.top) best = { mv, top };
    }
    return best ? best.mv : null;
  }

  function clickSquare(sq) {
    if (!view || !legal) return;
    const p = view.turn.player;
    if (sel && sel.type === "lord") {
      const mv = moves.lords.get(sq);
      if (mv) {
        sel = null;
        draw();
        send(mv.notation);
        return;
      }
    }
    if (sel && sel.type === "piece") {
      const group = currentGroup();
      const choice = group && group.anchors[sq];
      if (choice) {
        sel.anchor = sq;
        draw();
        // a piece in hand is put; otherwise the take and the put go as one action
        send(sel.key === "hand" ? choice.notation : [sel.key, choice.notation]);
        return;
      }
    }
    if (view.lords[p].square === sq && moves.lords.size) {
      sel = sel && sel.type === "lord" ? null : { type: "lord" };
      draw();
      return;
    }
    if (!view.turn.hand) {
      const take = ownTakeAt(sq);
      if (take) {
        selectPiece(take.notation);
        return;
      }
    }
    if (sel && sel.key !== "hand") {
      sel = null;
      draw();
    }
  }

  function send(notation) {
    if (typeof submit === "function") submit(notation);
  }

  // -- rendering ------------------------------------------------------------------------

  function draw() {
    if (!view) return;
    const r = (rotation + (flipped ? 2 : 0)) & 3;
    const compass = ["north at the back right", "north at the back left",
      "north at the front left", "north at the front right"][r];
    rotLabel.textContent = `3D view: ${compass}`;
    const hadFocus = mapPane.contains(document.activeElement);
    clear(isoPane).append(drawIso(r));
    clear(mapPane).append(drawMap());
    drawTray();
    if (hadFocus && focusSq) {
      const again = mapPane.querySelector(`[data-cell="${focusSq}"][tabindex]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function scheduleDraw() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (view) {
        const r = (rotation + (flipped ? 2 : 0)) & 3;
        clear(isoPane).append(drawIso(r));
        drawOverlay();
      }
    });
  }

  function ghost() {
    // the placement previewed: the chosen anchor, else the hovered legal anchor
    if (!sel || sel.type !== "piece") return null;
    const group = currentGroup();
    const piece = selectedPiece();
    if (!group || !piece) return null;
    const sq = sel.anchor && group.anchors[sel.anchor] ? sel.anchor
      : hover && group.anchors[hover] ? hover : null;
    if (!sq) return null;
    const choice = group.anchors[sq];
    return {
      piece,
      orientation: group.orientation,
      cells: choice.cells || placementCells(piece, group, sq, choice.level),
      squares: squaresOf(choice.cells || placementCells(piece, group, sq, choice.level)),
    };
  }

  function squaresOf(cells) {
    const files = view.board.files;
    return [...new Set(cells.map(([x, y]) => labelOf(files, x, y)))];
  }

  function lastSquares() {
    if (!last) return [];
    if (last.kind === "put") return last.squares || [];
    if (last.kind === "lord") return last.path || [];
    if (last.kind === "take" && last.piece && last.piece.from) return last.piece.from.squares;
    return [];
  }

  function drawIso(r) {
    const { width: W, height: H, tower_height: TH, files } = view.board;
    const proj = projector(W, H, r);
    const items = []; // {depth, order, node}
    const g = ghost();
    // a piece of yours chosen to be moved is drawn faded where it stands
    const chosen = sel && sel.type === "piece" && sel.key !== "hand" ? selectedPiece() : null;
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
      "aria-label": "Voldétour board in 3D",
    });
    root3d.append(defs());

    // floor
    const floor = svg("g", { class: "vd-floor-layer" });
    const marked = new Set(view.marked || []);
    const lastFloor = new Set(lastSquares());
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
      const node = drawLord(proj, lord);
      items.push({ depth: proj.depth(lord.x, lord.y, lord.level), order: 4, node });
    }
    items.sort((a, b) => a.depth - b.depth || a.order - b.order);
    const solids = svg("g", { class: "vd-solids" });
    for (const it of items) solids.append(it.node);
    root3d.append(solids);
    // the Lords once more, faintly, over everything: never lost behind a building
    const xray = svg("g", { class: "vd-xray", opacity: 0.3, "pointer-events": "none" });
    for (const lord of view.lords) xray.append(drawLord(proj, lord));
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

  function defs() {
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

  function drawLord(proj, lord) {
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
    g.append(svg("title", {}, `${view.players[lord.owner]}'s Lord on ${lord.square} (level ${lord.level})`));
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

  function drawMap() {
    const { width: W, height: H, tower_height: TH, files } = view.board;
    const m = coordinates ? 18 : 4;
    const S = MAP_SQ;
    const root2d = svg("svg", {
      class: "vd-map",
      "data-testid": "vd-map",
      viewBox: `0 0 ${W * S + 2 * m} ${H * S + 2 * m}`,
      role: "group",
      "aria-label": "Voldétour height map",
    });
    root2d.append(defs());
    const pos = (x, y) => (flipped ? [m + (W - 1 - x) * S, m + y * S] : [m + x * S, m + (H - 1 - y) * S]);
    const p = view.turn.player;
    const group = currentGroup();
    const targets = new Set();
    if (legal) {
      if (sel && sel.type === "piece" && group) for (const sq of Object.keys(group.anchors)) targets.add(sq);
      if (sel && sel.type === "lord") for (const sq of moves.lords.keys()) targets.add(sq);
    }
    const lastSq = new Set(lastSquares());
    const selected = new Set();
    if (sel && sel.type === "lord") selected.add(view.lords[p].square);
    if (sel && sel.type === "piece") {
      const piece = selectedPiece();
      if (piece && piece.from && sel.key !== "hand") for (const sq of piece.from.squares) selected.add(sq);
      if (sel.anchor) selected.add(sel.anchor);
    }
    const lordAt = new Map(view.lords.map((l) => [l.square, l]));
    const towerAt = new Map(view.towers.map((t) => [t.square, t]));
    const clickable = new Set([...targets]);
    if (legal) {
      if (moves.lords.size) clickable.add(view.lords[p].square);
      for (const mv of moves.takes) if (mv.piece.from) for (const sq of mv.piece.from.squares) clickable.add(sq);
    }
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
          "aria-label": squareDescription(sq, col, lordAt.get(sq), towerAt.get(sq)),
        });
        rect.addEventListener("click", () => clickSquare(sq));
        if (clickable.has(sq)) {
          // keyboard: Tab between the squares that do something, Enter or Space to click
          rect.setAttribute("tabindex", "0");
          rect.addEventListener("keydown", (event) => {
            if (event.key !== "Enter" && event.key !== " ") return;
            event.preventDefault();
            focusSq = sq;
            clickSquare(sq);
          });
          rect.addEventListener("focus", () => {
            focusSq = sq;
            if (hover !== sq) {
              hover = sq;
              if (sel) scheduleDraw();
            }
          });
        }
        rect.addEventListener("pointerenter", () => {
          if (hover !== sq) {
            hover = sq;
            if (sel) scheduleDraw();
          }
        });
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
        if (tower) cell.append(mapTower(px, py, S, tower));
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
        if (lord) cell.append(mapLord(px, py, S, lord, !!tower));
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
    mapOverlay = svg("g", { class: "vd-map-overlay" });
    mapPathLine = pathLine;
    mapPos = pos;
    root2d.append(mapOverlay);
    drawOverlay();
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
    root2d.addEventListener("pointerleave", () => {
      if (hover !== null) {
        hover = null;
        if (sel) scheduleDraw();
      }
    });
    return root2d;
  }

  function drawOverlay() {
    // what changes with the pointer: the ghost's squares and the previewed Lord path
    if (!mapOverlay) return;
    clear(mapOverlay);
    const S = MAP_SQ;
    const g = ghost();
    if (g) {
      for (const sq of g.squares) {
        const [px, py] = mapPos(...coordOf(view.board.files, sq));
        mapOverlay.append(svg("rect", { class: "vd-ghost-sq", "data-testid": "vd-ghost-square",
          x: px + 2, y: py + 2, width: S - 4, height: S - 4 }));
      }
    }
    if (sel && sel.type === "lord" && hover && moves.lords.get(hover)) {
      mapOverlay.append(mapPathLine(moves.lords.get(hover).path, "vd-path preview"));
    }
  }

  function squareDescription(sq, col, lord, tower) {
    let text = sq;
    if (tower) text += `, ${view.players[tower.owner]}'s tower`;
    else if (col.slope) text += `, slope from level ${col.slope.level}, ${DIR_WORDS[col.slope.dir]}`;
    else text += `, height ${col.height}`;
    if (lord) text += `, ${view.players[lord.owner]}'s Lord`;
    return text;
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

  function mapTower(px, py, S, tower) {
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
    g.append(svg("title", {}, `${view.players[tower.owner]}'s tower (height ${tower.height})`));
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

  function mapLord(px, py, S, lord, onTower) {
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
    g.append(svg("title", {}, `${view.players[lord.owner]}'s Lord (level ${lord.level})`));
    return g;
  }

  // -- the tray of pieces and buttons ---------------------------------------------------

  function pieceLabel(piece) {
    if (piece.kind === "block") {
      const size = view.board.blocks.find((b) => b.name === piece.name);
      const dims = size ? size.size.join("×") : piece.name;
      return piece.from ? `Block ${dims} on ${piece.from.anchor}` : `Block ${dims}`;
    }
    return piece.from ? `Stair on ${piece.from.anchor}` : `Stair (${view.reserves[view.turn.player].stairs} left)`;
  }

  function orientationLabel(orientation) {
    if (ARROWS[orientation]) return orientation === "u" ? "⇅ nested" : `${ARROWS[orientation]} ${orientation.toUpperCase()}`;
    return orientation.replace(/x/g, "×");
  }

  function drawTray() {
    clear(tray);
    const hint = el("div", { class: "vd-hint", "data-testid": "vd-hint", role: "status" });
    if (!legal || !view || view.outcome) {
      hint.textContent = view && view.outcome ? view.outcome.message || "" : "";
      tray.append(hint);
      return;
    }
    const hand = view.turn.hand;
    const row = el("div", { class: "vd-row vd-pieces" });
    if (hand && moves.puts.length) {
      row.append(el("span", { class: "vd-label" }, "In hand:"),
        el("button", { type: "button", class: "selected", "data-testid": "vd-hand",
          onclick: () => reset() }, pieceLabel(hand)));
    } else if (moves.takes.length) {
      row.append(el("span", { class: "vd-label" }, "Pieces:"));
      for (const mv of moves.takes) {
        const chosen = sel && sel.type === "piece" && sel.key === mv.notation;
        row.append(el("button", {
          type: "button",
          class: chosen ? "selected" : "",
          "data-testid": `vd-take-${mv.notation}`,
          "data-piece": mv.piece.id,
          title: mv.notation,
          onclick: () => (chosen ? reset() : selectPiece(mv.notation)),
        }, pieceLabel(mv.piece)));
      }
    }
    if (moves.lords.size) {
      row.append(el("button", {
        type: "button",
        class: sel && sel.type === "lord" ? "selected" : "",
        "data-testid": "vd-lord",
        onclick: () => {
          sel = sel && sel.type === "lord" ? null : { type: "lord" };
          draw();
        },
      }, "Lord"));
    }
    if (moves.end) {
      row.append(el("button", { type: "button", "data-testid": "vd-end", onclick: () => send(moves.end.notation) }, "End turn"));
    }
    if (moves.pass) {
      row.append(el("button", { type: "button", "data-testid": "vd-pass", onclick: () => send(moves.pass.notation) }, "Pass"));
    }
    if (row.childNodes.length) tray.append(row);
    if (sel && sel.type === "piece") {
      const groups = groupsFor(sel.key);
      const orow = el("div", { class: "vd-row vd-orients" }, el("span", { class: "vd-label" }, "Orientation:"));
      for (const g of groups) {
        orow.append(el("button", {
          type: "button",
          class: g.orientation === sel.orientation ? "selected" : "",
          "data-testid": `vd-orient-${g.orientation}`,
          title: ARROWS[g.orientation] ? DIR_WORDS[g.orientation] : `${g.orientation} (columns × rows × levels)`,
          onclick: () => {
            sel.orientation = g.orientation;
            sel.anchor = null;
            draw();
          },
        }, orientationLabel(g.orientation)));
      }
      if (groups.length > 1) {
        orow.append(el("button", { type: "button", "data-testid": "vd-orient-next", title: "Next orientation (o)",
          onclick: () => nextOrientation(1) }, "⟳ turn piece"));
      }
      if (sel.key !== "hand") {
        orow.append(el("button", { type: "button", "data-testid": "vd-cancel", onclick: () => reset() }, "Cancel"));
      }
      tray.append(orow);
      const g = currentGroup();
      const n = g ? Object.keys(g.anchors).length : 0;
      hint.textContent = `Click a highlighted square (${n}) to place the ${selectedPiece().kind}; `
        + "the square is its corner with the lowest column and row.";
    } else if (sel && sel.type === "lord") {
      hint.textContent = `Click a highlighted square to move your Lord (${moves.lords.size} reachable).`;
    } else if (hand) {
      hint.textContent = "Place the piece in hand.";
    } else {
      const parts = [];
      if (moves.takes.length) parts.push("choose a piece");
      if (moves.lords.size) parts.push("click your Lord");
      if (moves.end) parts.push("end your turn");
      hint.textContent = parts.length ? `Your move: ${parts.join(", or ")}.` : "";
    }
    tray.append(hint);
  }

  // -- the interface ----------------------------------------------------------------------

  const board = {
    render(newView, opts = {}) {
      const samePosition = view && newView && view.position === newView.position;
      view = newView;
      legal = opts.legal || null;
      last = opts.last || null;
      coordinates = opts.coordinates !== false;
      flipped = !!opts.flipped;
      analyse();
      if (!samePosition) {
        sel = null;
        hover = null;
      }
      const hand = view.turn && view.turn.hand;
      if (legal && hand && moves.puts.length && (!sel || sel.key !== "hand")) {
        sel = { type: "piece", key: "hand", orientation: groupsFor("hand")[0].orientation, anchor: null };
      }
      if (sel && sel.type === "piece" && !groupsFor(sel.key).length) sel = null;
      if (sel && sel.type === "lord" && !moves.lords.size) sel = null;
      if (!legal && sel) sel = null;
      draw();
    },

    info(v) {
      return infoPanel(v || view);
    },

    readMove,

    reset() {
      // the shell calls this after every move and when its confirm step is cancelled; a
      // put waiting for its take survives (it expires, and fires only right after the take)
      reset();
    },

    destroy() {
      document.removeEventListener("keydown", onKey);
      if (frame) cancelAnimationFrame(frame);
      view = null;
      clear(host);
    },
  };
  void choose; // not needed: the tray and the orientation buttons cover every choice
  return board;
}

/**
 * A typed decision in a spelling the engine reads but the move list does not write: a put
 * without its level (the level the piece rests at is the only one), a Lord move written
 * with another path (only the destination counts).  → the legal move view, or null.
 */
function readMove(text, legal) {
  const key = moveKey(text);
  if (!/\+\d/.test(key)) {
    const put = legal.find((m) => m.kind === "put" && moveKey(m.notation).replace(/\+\d+/, "") === key);
    if (put) return put;
  }
  const lord = key.match(/^l([a-z]\d+)(?:-[a-z]\d+)*-([a-z]\d+)$/);
  if (lord) return legal.find((m) => m.kind === "lord" && m.from === lord[1] && m.to === lord[2]) || null;
  return null;
}

function infoPanel(v) {
  const box = el("div", { class: "vd-info", "data-testid": "vd-info" });
  if (!v || !v.board) return box;
  const blockSize = new Map(v.board.blocks.map((b) => [b.name, b.size.join("×")]));
  v.players.forEach((name, p) => {
    const res = v.reserves[p];
    const line = el("div", { class: "vd-player", "data-testid": `vd-reserve-${p}` });
    const mark = svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" });
    if (p === 0) mark.append(svg("circle", { cx: 7, cy: 7, r: 6, fill: "var(--side-0, #E69F00)", stroke: "#000" }));
    else {
      mark.append(svg("circle", { cx: 7, cy: 7, r: 5, fill: "#fff", stroke: "var(--side-1, #0072B2)", "stroke-width": 2 }));
      mark.append(svg("circle", { cx: 7, cy: 7, r: 2, fill: "var(--side-1, #0072B2)" }));
    }
    const pattern = p === 0 ? "plain" : "striped";
    line.append(el("div", { class: "vd-player-name" }, mark, `${name} (${pattern} pieces)`));
    const blocks = res.blocks.length ? res.blocks.map((b) => blockSize.get(b) || b).join(", ") : "none";
    line.append(el("div", {}, `Reserve: blocks ${blocks}; stairs ${res.stairs}`));
    const deadline = (v.turn.deadlines || []).find((d) => d.player === p);
    if (deadline && !v.outcome) {
      line.append(el("div", { class: deadline.own_turns_left <= 1 ? "vd-warn" : "" },
        `Lord must leave its tower by the end of turn ${deadline.turn} (${deadline.own_turns_left} own turn${deadline.own_turns_left === 1 ? "" : "s"} left)`));
    }
    box.append(line);
  });
  if (!v.outcome) {
    const t = v.turn;
    const done = [];
    done.push(t.done.block ? "block ✓" : "block –");
    done.push(t.done.stair ? "stair ✓" : "stair –");
    done.push("Lord –");
    box.append(el("div", { "data-testid": "vd-turn" },
      `Turn ${t.number}${v.turn.max_turns ? ` of ${v.turn.max_turns}` : ""}: ${v.players[t.player]} — ${done.join(", ")}`));
    if (t.hand) box.append(el("div", {}, `In hand: ${t.hand.notation}`));
  }
  return box;
}
