// Voldétour board: the info panel beside the board (board.info): each player's reserve,
// the leave-the-tower deadline, the turn, what is done and the piece in hand.  Part of
// games/voldetour.js.

import { el, svg } from "../ui.js";

/** The side panel: each player's reserve and deadline, the turn and the piece in hand. */
export function infoPanel(v) {
  const box = el("div", { class: "vd-info", "data-testid": "vd-info" });
  if (!v || !v.board) return box;
  const blockSize = new Map(v.board.blocks.map((b) => [b.name, b.size.join("×")]));
  v.players.forEach((name, p) => {
    const res = v.reserves[p];
    const line = el("div", { class: "vd-player", "data-testid": `vd-reserve-${p}` });
    const mark = svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" });
    if (p === 0) mark.append(svg("circle", { cx: 7, cy: 7, r: 6, fill: "var(--side0, #E69F00)", stroke: "#000" }));
    else {
      mark.append(svg("circle", { cx: 7, cy: 7, r: 5, fill: "#fff", stroke: "var(--side1, #0072B2)", "stroke-width": 2 }));
      mark.append(svg("circle", { cx: 7, cy: 7, r: 2, fill: "var(--side1, #0072B2)" }));
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
