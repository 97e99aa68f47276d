// Voldétour board: the tray under the views — the pieces you may take, the Lord, "End
// turn", "Pass", the orientations of the selected piece — and the hint line.  The buttons
// call the board's actions (`act`: reset, selectPiece, toggleLord, orient,
// nextOrientation, send).  Part of games/voldetour.js.

import { reasonText, t } from "../i18n.js";
import { clear, el } from "../ui.js";
import { ARROWS, dirWords } from "./voldetour.geometry.js";
import { currentGroup, groupsFor, selectedPiece } from "./voldetour.model.js";

function pieceLabel(view, piece) {
  if (piece.kind === "block") {
    const size = view.board.blocks.find((b) => b.name === piece.name);
    const dims = size ? size.size.join("×") : piece.name;
    return piece.from ? t("Block {size} on {square}", { size: dims, square: piece.from.anchor })
      : t("Block {size}", { size: dims });
  }
  return piece.from ? t("Stair on {square}", { square: piece.from.anchor })
    : t("Stair ({n} left)", { n: view.reserves[view.turn.player].stairs });
}

function orientationLabel(orientation) {
  if (ARROWS[orientation]) return orientation === "u" ? "⇅ " + t("nested") : `${ARROWS[orientation]} ${orientation.toUpperCase()}`;
  return orientation.replace(/x/g, "×");
}

/** While the player's Lord is still on its tower: what to do before the deadline,
 *  {text, last} (last: this is the last own turn), else null. */
export function deadlineText(view) {
  const p = view.turn.player;
  const deadline = (view.turn.deadlines || []).find((d) => d.player === p);
  if (!deadline) return null;
  const n = deadline.own_turns_left;
  if (n <= 1) {
    return { last: true, text: t("Last chance: move your Lord off its tower before this turn ends, or you lose.") };
  }
  const text = t("Your Lord is still on its tower: it must come down within {n} of your turns (by the end of turn {turn}), or you lose. Build a way down with a block or a stair, then move the Lord.",
    { n, turn: deadline.turn });
  return { last: false, text };
}

export function drawTray(st, tray, act) {
  const { view, legal, sel, moves } = st;
  clear(tray);
  const hint = el("div", { class: "vd-hint", "data-testid": "vd-hint", role: "status" });
  if (!legal || !view || view.outcome) {
    hint.textContent = view && view.outcome ? reasonText("voldetour", view.outcome, view.players) : "";
    tray.append(hint);
    return;
  }
  const hand = view.turn.hand;
  const row = el("div", { class: "vd-row vd-pieces" });
  if (hand && moves.puts.length) {
    row.append(el("span", { class: "vd-label" }, t("In hand:")),
      el("button", { type: "button", class: "selected", "data-testid": "vd-hand",
        onclick: () => act.reset() }, pieceLabel(view, hand)));
  } else if (moves.takes.length) {
    row.append(el("span", { class: "vd-label" }, t("Pieces:")));
    for (const mv of moves.takes) {
      const chosen = sel && sel.type === "piece" && sel.key === mv.notation;
      row.append(el("button", {
        type: "button",
        class: chosen ? "selected" : "",
        "data-testid": `vd-take-${mv.notation}`,
        "data-piece": mv.piece.id,
        title: mv.notation,
        onclick: () => (chosen ? act.reset() : act.selectPiece(mv.notation)),
      }, pieceLabel(view, mv.piece)));
    }
  }
  if (moves.lords.size) {
    row.append(el("button", {
      type: "button",
      class: sel && sel.type === "lord" ? "selected" : "",
      "data-testid": "vd-lord",
      onclick: () => act.toggleLord(),
    }, t("Lord")));
  }
  if (moves.end) {
    row.append(el("button", { type: "button", "data-testid": "vd-end", onclick: () => act.send(moves.end.notation) }, t("End turn")));
  }
  if (moves.pass) {
    row.append(el("button", { type: "button", "data-testid": "vd-pass", onclick: () => act.send(moves.pass.notation) }, t("Pass")));
  }
  if (row.childNodes.length) tray.append(row);
  const deadline = deadlineText(view);
  if (deadline) {
    tray.append(el("div", { class: `vd-deadline${deadline.last ? " vd-warn" : ""}`,
      "data-testid": "vd-deadline", role: "note" }, deadline.text));
  }
  if (sel && sel.type === "piece") {
    const groups = groupsFor(st, sel.key);
    const orow = el("div", { class: "vd-row vd-orients" }, el("span", { class: "vd-label" }, t("Orientation:")));
    for (const g of groups) {
      orow.append(el("button", {
        type: "button",
        class: g.orientation === sel.orientation ? "selected" : "",
        "data-testid": `vd-orient-${g.orientation}`,
        title: ARROWS[g.orientation] ? dirWords(g.orientation)
          : t("{size} (columns × rows × levels)", { size: g.orientation }),
        onclick: () => act.orient(g.orientation),
      }, orientationLabel(g.orientation)));
    }
    if (groups.length > 1) {
      orow.append(el("button", { type: "button", "data-testid": "vd-orient-next", title: t("Next orientation (o)"),
        onclick: () => act.nextOrientation(1) }, "⟳ " + t("turn piece")));
    }
    if (sel.key !== "hand") {
      orow.append(el("button", { type: "button", "data-testid": "vd-cancel", onclick: () => act.reset() }, t("Cancel")));
    }
    tray.append(orow);
    const g = currentGroup(st);
    const n = g ? Object.keys(g.anchors).length : 0;
    const corner = t("the square is its corner with the lowest column and row.");
    hint.textContent = selectedPiece(st).kind === "block"
      ? t("Click a highlighted square ({n}) to place the block;", { n }) + " " + corner
      : t("Click a highlighted square ({n}) to place the stair;", { n }) + " " + corner;
  } else if (sel && sel.type === "lord") {
    hint.textContent = t("Click a highlighted square to move your Lord ({n} reachable).",
      { n: moves.lords.size });
  } else if (hand) {
    hint.textContent = t("Place the piece in hand.");
  } else {
    const parts = [];
    if (moves.takes.length) parts.push(t("choose a piece"));
    if (moves.lords.size) parts.push(t("click your Lord"));
    if (moves.end) parts.push(t("end your turn"));
    const actions = parts.join(t(", or "));
    hint.textContent = parts.length ? t("Your move: {actions}.", { actions }) : "";
  }
  tray.append(hint);
}
