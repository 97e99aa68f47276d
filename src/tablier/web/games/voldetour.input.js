// Voldétour board: the click flow (on the 3D view and on the map, alike) and the keys of the board, as changes of the
// board's state (voldetour.model.js).  Each function answers what the board must do next:
// {draw: true} to draw again, {send: notation} to submit (a decision, or a take and its
// put as one action), {rotate: ±1} to turn the 3D view, {heights: true} to show or hide
// the heights in it.  Part of games/voldetour.js.

import {
  currentGroup,
  nextOrientation,
  ownTakeAt,
  resetSelection,
  selectPiece,
  toggleLord,
} from "./voldetour.model.js";

/**
 * A click on the square `sq` (its column in 3D, the map square, or Enter/Space on it): a
 * target of the selection is played; your Lord selects the Lord (or drops it); one of your
 * pieces on the board selects it; anything else drops the selection (a piece in hand stays
 * selected).
 */
export function clickSquare(st, sq) {
  const { view, legal, moves } = st;
  if (!view || !legal) return {};
  const sel = st.sel;
  const p = view.turn.player;
  if (sel && sel.type === "lord") {
    const mv = moves.lords.get(sq);
    if (mv) {
      st.sel = null;
      return { draw: true, send: mv.notation };
    }
  }
  if (sel && sel.type === "piece") {
    const group = currentGroup(st);
    const choice = group && group.anchors[sq];
    if (choice) {
      sel.anchor = sq;
      // a piece in hand is put; otherwise the take and the put go as one action
      return { draw: true, send: sel.key === "hand" ? choice.notation : [sel.key, choice.notation] };
    }
  }
  if (view.lords[p].square === sq && moves.lords.size) {
    toggleLord(st);
    return { draw: true };
  }
  if (!view.turn.hand) {
    const take = ownTakeAt(st, sq);
    if (take) return { draw: selectPiece(st, take.notation) };
  }
  if (sel && sel.key !== "hand") {
    st.sel = null;
    return { draw: true };
  }
  return {};
}

/**
 * A key pressed anywhere on the page: "[" and "]" turn the 3D view, "h" shows or hides
 * the heights in it, "o"/"O" turns the selected piece, Escape drops the selection.  Keys typed into a field or under a dialog, or while
 * the board is not on the page (`connected` false), are left alone.  → null when the key
 * is not the board's, else what to do (the caller prevents the key's default).
 */
export function keyAction(st, event, connected) {
  if (!st.view || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return null;
  const t = event.target;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return null;
  if (document.querySelector("[data-testid=dialog]")) return null;
  if (!connected) return null;
  if (event.key === "[") return { rotate: -1 };
  if (event.key === "]") return { rotate: 1 };
  if (event.key === "h" || event.key === "H") return { heights: true };
  if (event.key === "o" || event.key === "O") {
    return { draw: nextOrientation(st, event.key === "O" ? -1 : 1) };
  }
  if (event.key === "Escape" && st.sel) {
    resetSelection(st);
    return { draw: true };
  }
  return null;
}
