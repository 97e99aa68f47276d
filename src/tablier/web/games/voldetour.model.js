// Voldétour board: the board's state and what follows from it — the legal decisions
// grouped for input (takes with their placements, puts, Lord moves), the selection, the
// previewed placement (ghost) — as functions of an explicit state object.  No DOM.
// Part of games/voldetour.js (see its header).

import { moveKey } from "../moves.js";
import { coordOf, labelOf } from "./voldetour.geometry.js";

/**
 * The state of a board: the position (`view`), its legal decisions (`legal`, null when
 * the user may not move), the last move, the display settings, and the input:
 * `sel` {type: "piece", key, orientation, anchor} | {type: "lord"} | null, `hover` (the
 * square under the pointer), `focusSq` (the map square with the keyboard focus), `moves`
 * (the legal decisions grouped, see analyse).
 */
export function newState(rotation = 0) {
  return { view: null, legal: null, last: null, coordinates: true, flipped: false, rotation,
    sel: null, hover: null, focusSq: null, moves: emptyMoves() };
}

function emptyMoves() {
  return { takes: [], puts: [], lords: new Map(), end: null, pass: null };
}

/** The rotation of the 3D view, with the half turn of "turn the board round". */
export function viewRotation(st) {
  return (st.rotation + (st.flipped ? 2 : 0)) & 3;
}

/** Take a new position and its options (the shell's render); keeps the selection when the
 *  position is the same. */
export function update(st, view, opts = {}) {
  const samePosition = st.view && view && st.view.position === view.position;
  st.view = view;
  st.legal = opts.legal || null;
  st.last = opts.last || null;
  st.coordinates = opts.coordinates !== false;
  st.flipped = !!opts.flipped;
  analyse(st);
  if (!samePosition) {
    st.sel = null;
    st.hover = null;
  }
  const hand = view.turn && view.turn.hand;
  if (st.legal && hand && st.moves.puts.length && (!st.sel || st.sel.key !== "hand")) {
    st.sel = handSelection(st);
  }
  if (st.sel && st.sel.type === "piece" && !groupsFor(st, st.sel.key).length) st.sel = null;
  if (st.sel && st.sel.type === "lord" && !st.moves.lords.size) st.sel = null;
  if (!st.legal && st.sel) st.sel = null;
}

function analyse(st) {
  const moves = emptyMoves();
  st.moves = moves;
  if (!st.legal) return;
  for (const mv of st.legal) {
    if (mv.kind === "take") moves.takes.push(mv);
    else if (mv.kind === "put") moves.puts.push(mv);
    else if (mv.kind === "lord") moves.lords.set(mv.to, mv);
    else if (mv.kind === "end") moves.end = mv;
    else if (mv.kind === "pass") moves.pass = mv;
  }
}

/** The choices for a piece (a take's notation, or "hand"):
 *  [{orientation, dims, anchors: {sq: {level, notation, cells?}}}]. */
export function groupsFor(st, key) {
  if (key === "hand") {
    const out = new Map();
    for (const mv of st.moves.puts) {
      let g = out.get(mv.orientation);
      if (!g) {
        g = { orientation: mv.orientation, dims: mv.dims || null, anchors: {} };
        out.set(mv.orientation, g);
      }
      g.anchors[mv.anchor] = { level: mv.level, notation: mv.notation, cells: mv.cells };
    }
    return [...out.values()];
  }
  const take = st.moves.takes.find((mv) => mv.notation === key);
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

/** The piece selected (a take's piece, or the piece in hand), or null. */
export function selectedPiece(st) {
  const sel = st.sel;
  if (!sel || sel.type !== "piece") return null;
  if (sel.key === "hand") return st.view.turn.hand;
  const take = st.moves.takes.find((mv) => mv.notation === sel.key);
  return take ? take.piece : null;
}

/** The placements of the selected piece in its chosen orientation, or null. */
export function currentGroup(st) {
  const sel = st.sel;
  if (!sel || sel.type !== "piece") return null;
  const groups = groupsFor(st, sel.key);
  return groups.find((g) => g.orientation === sel.orientation) || groups[0] || null;
}

/** Unit cells of a placement choice (for the ghost). */
function placementCells(view, piece, group, sq, level) {
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

/** The placement previewed: the chosen anchor, else the hovered legal anchor → {piece,
 *  orientation, cells, squares} or null. */
export function ghost(st) {
  const sel = st.sel;
  if (!sel || sel.type !== "piece") return null;
  const group = currentGroup(st);
  const piece = selectedPiece(st);
  if (!group || !piece) return null;
  const hover = st.hover;
  const sq = sel.anchor && group.anchors[sel.anchor] ? sel.anchor
    : hover && group.anchors[hover] ? hover : null;
  if (!sq) return null;
  const choice = group.anchors[sq];
  const cells = choice.cells || placementCells(st.view, piece, group, sq, choice.level);
  return { piece, orientation: group.orientation, cells, squares: squaresOf(st.view, cells) };
}

function squaresOf(view, cells) {
  const files = view.board.files;
  return [...new Set(cells.map(([x, y]) => labelOf(files, x, y)))];
}

/** The squares a click may play now: the selected piece's anchors in its orientation, or
 *  the squares the selected Lord can reach. */
export function targetSquares(st) {
  const { legal, sel, moves } = st;
  const out = new Set();
  if (!legal || !sel) return out;
  if (sel.type === "piece") {
    const group = currentGroup(st);
    if (group) for (const sq of Object.keys(group.anchors)) out.add(sq);
  } else if (sel.type === "lord") {
    for (const sq of moves.lords.keys()) out.add(sq);
  }
  return out;
}

/** The squares of the selection: the selected Lord's, or the lifted piece's and its
 *  chosen anchor. */
export function selectedSquares(st) {
  const { view, sel } = st;
  const out = new Set();
  if (!sel || !view) return out;
  if (sel.type === "lord") out.add(view.lords[view.turn.player].square);
  if (sel.type === "piece") {
    const piece = selectedPiece(st);
    if (piece && piece.from && sel.key !== "hand") for (const sq of piece.from.squares) out.add(sq);
    if (sel.anchor) out.add(sel.anchor);
  }
  return out;
}

/** The squares a click does something on: the targets, your Lord when it can move, your
 *  pieces that may be lifted. */
export function clickableSquares(st) {
  const { view, legal, moves } = st;
  const out = targetSquares(st);
  if (!legal) return out;
  if (moves.lords.size) out.add(view.lords[view.turn.player].square);
  for (const mv of moves.takes) if (mv.piece.from) for (const sq of mv.piece.from.squares) out.add(sq);
  return out;
}

/** The Lord's path previewed (the selected Lord, a reachable square hovered) or null. */
export function previewPath(st) {
  const { sel, hover, moves } = st;
  if (!sel || sel.type !== "lord" || !hover) return null;
  return moves.lords.get(hover) || null;
}

/** The squares the last move touched (the put, the Lord's path, a lifted piece). */
export function lastSquares(st) {
  const last = st.last;
  if (!last) return [];
  if (last.kind === "put") return last.squares || [];
  if (last.kind === "lord") return last.path || [];
  if (last.kind === "take" && last.piece && last.piece.from) return last.piece.from.squares;
  return [];
}

/** Your piece on the board covering `sq` that may be lifted (the topmost), or null. */
export function ownTakeAt(st, sq) {
  let best = null;
  for (const mv of st.moves.takes) {
    const from = mv.piece.from;
    if (!from || !from.squares.includes(sq)) continue;
    const top = Math.max(...from.cells.map((c) => c[2]));
    if (!best || top > best.top) best = { mv, top };
  }
  return best ? best.mv : null;
}

// -- selection changes (each returns nothing; the board draws afterwards) -------------

function handSelection(st) {
  return { type: "piece", key: "hand", orientation: groupsFor(st, "hand")[0].orientation,
    anchor: null };
}

/** Select a piece (keeping the orientation when it has it); false when it has no choice. */
export function selectPiece(st, key) {
  const groups = groupsFor(st, key);
  if (!groups.length) return false;
  const sel = st.sel;
  const keep = sel && sel.type === "piece" && groups.some((g) => g.orientation === sel.orientation);
  st.sel = { type: "piece", key, orientation: keep ? sel.orientation : groups[0].orientation,
    anchor: null };
  return true;
}

/** Turn the selected piece to its next (step 1) or previous (-1) orientation. */
export function nextOrientation(st, step = 1) {
  const sel = st.sel;
  if (!sel || sel.type !== "piece") return false;
  const groups = groupsFor(st, sel.key);
  if (!groups.length) return false;
  const i = groups.findIndex((g) => g.orientation === sel.orientation);
  sel.orientation = groups[(i + step + groups.length) % groups.length].orientation;
  sel.anchor = null;
  return true;
}

/** Choose an orientation of the selected piece. */
export function setOrientation(st, orientation) {
  st.sel.orientation = orientation;
  st.sel.anchor = null;
}

/** Select the Lord, or drop it when selected. */
export function toggleLord(st) {
  st.sel = st.sel && st.sel.type === "lord" ? null : { type: "lord" };
}

/** Drop the selection (a piece in hand stays selected: it must be put). */
export function resetSelection(st) {
  st.sel = null;
  st.hover = null;
  const view = st.view;
  if (view && view.turn && view.turn.hand && st.moves.puts.length) st.sel = handSelection(st);
}

/**
 * A typed decision in a spelling the engine reads but the move list does not write: a put
 * without its level (the level the piece rests at is the only one), a Lord move written
 * with another path (only the destination counts).  → the legal move view, or null.
 */
export function readMove(text, legal) {
  const key = moveKey(text);
  if (!/\+\d/.test(key)) {
    const put = legal.find((m) => m.kind === "put" && moveKey(m.notation).replace(/\+\d+/, "") === key);
    if (put) return put;
  }
  const lord = key.match(/^l([a-z]\d+)(?:-[a-z]\d+)*-([a-z]\d+)$/);
  if (lord) return legal.find((m) => m.kind === "lord" && m.from === lord[1] && m.to === lord[2]) || null;
  return null;
}
