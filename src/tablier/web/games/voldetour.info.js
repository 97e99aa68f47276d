// Voldétour board: the info panel beside the board (board.info): each player's reserve,
// the leave-the-tower deadline, the turn, what is done and the piece in hand.  Part of
// games/voldetour.js.

import { t, tn } from "../i18n.js";
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
    const side = p === 0 ? t("{player} (plain pieces)", { player: name })
      : t("{player} (striped pieces)", { player: name });
    line.append(el("div", { class: "vd-player-name" }, mark, side));
    const blocks = res.blocks.length ? res.blocks.map((b) => blockSize.get(b) || b).join(", ") : t("none");
    line.append(el("div", {}, t("Reserve: blocks {blocks}; stairs {stairs}", { blocks, stairs: res.stairs })));
    const deadline = (v.turn.deadlines || []).find((d) => d.player === p);
    if (deadline && !v.outcome) {
      line.append(el("div", { class: deadline.own_turns_left <= 1 ? "vd-warn" : "" },
        tn("Lord must leave its tower by the end of turn {turn} ({n} own turn left)",
          "Lord must leave its tower by the end of turn {turn} ({n} own turns left)",
          deadline.own_turns_left, { turn: deadline.turn })));
    }
    box.append(line);
  });
  if (!v.outcome) {
    const turn = v.turn;
    const done = [];
    done.push(t("block") + (turn.done.block ? " ✓" : " –"));
    done.push(t("stair") + (turn.done.stair ? " ✓" : " –"));
    done.push(t("Lord") + " –");
    const values = { n: turn.number, max: turn.max_turns, player: v.players[turn.player] };
    const head = turn.max_turns ? t("Turn {n} of {max}: {player}", values) : t("Turn {n}: {player}", values);
    box.append(el("div", { "data-testid": "vd-turn" }, `${head} — ${done.join(", ")}`));
    if (turn.hand) box.append(el("div", {}, t("In hand: {piece}", { piece: turn.hand.notation })));
  }
  return box;
}
