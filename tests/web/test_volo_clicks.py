"""Every flight of some Volo positions played by clicks on the board module alone.

The module (``src/tablier/web/games/volo.js``) is loaded in Chromium from a small page
served by Playwright's router (no server): the views come straight from
``Volo.state_view`` and ``Volo.move_view``.  For each flight the test clicks the line's
ends (the anchor first, then the other end), finds the target whose preview covers the
flight's landing cells, clicks it, and, when the flight divides the opponent, clicks a
bird of the region to keep (the board's own region choice, without the shell's dialog);
the notation submitted must be the flight's (every flight of small positions, every fifth
of a crowded one).  The adds, the pass button and hidden coordinates are checked too.
"""

from __future__ import annotations

import random
from pathlib import Path

from tablier.games import get

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "tablier" / "web"
ORIGIN = "http://volo.test"
PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body><div id="host"></div>
<script type="module">
import { createBoard } from "/static/games/volo.js";
window.submitted = [];
window.board = createBoard(document.getElementById("host"), {
  submit: (n) => window.submitted.push(n),
});
window.ready = true;
</script></body></html>"""

# Click every flight; returns the problems found (an empty list when all is well).
PLAY_FLIGHTS = """([view, legal, stride]) => {
  const board = window.board;
  board.render(view, { legal, last: null, coordinates: true, flipped: false });
  const cell = (c) => document.querySelector(`.volo-sky [data-cell="${c}"]`);
  const click = (c) => cell(c).dispatchEvent(new MouseEvent("click", { bubbles: true }));
  const listed = (sel) => [...document.querySelectorAll(sel)].map((e) => e.dataset.cell).sort();
  const problems = [];
  let played = 0;
  let regions = 0;
  legal.forEach((m, k) => {
    if (m.kind !== "fly" || k % stride) return;
    board.reset();
    const before = window.submitted.length;
    const ends = k % 2 ? [m.from[0], m.from.at(-1)] : [m.from.at(-1), m.from[0]];
    click(ends[0]);
    if (m.from.length > 1) click(ends[1]);
    if (JSON.stringify(listed(".volo-sky .cell.selected")) !== JSON.stringify([...m.from].sort())) {
      problems.push(["selection", m.notation, listed(".volo-sky .cell.selected")]);
      return;
    }
    const want = JSON.stringify([...m.to].sort());
    const target = listed(".volo-sky .cell.target").find((t) => {
      cell(t).dispatchEvent(new MouseEvent("mouseenter"));
      return JSON.stringify(listed(".volo-sky .cell.ghost")) === want;
    });
    if (!target) {
      problems.push(["no target", m.notation]);
      return;
    }
    click(target);
    if (m.keep) {
      const marked = listed(".volo-sky .cell.region");
      if (marked.length !== m.kept.length + m.removed.length) {
        problems.push(["regions", m.notation, marked]);
      }
      click(m.kept.at(-1));
      regions++;
    }
    const got = window.submitted.slice(before);
    if (got.length !== 1 || got[0] !== m.notation) problems.push(["submitted", m.notation, got]);
    played++;
  });
  return { played, regions, problems };
}"""

PLAY_ADDS = """([view, legal]) => {
  const board = window.board;
  board.render(view, { legal, last: null, coordinates: false, flipped: true });
  const problems = [];
  const adds = legal.filter((m) => m.kind === "add").map((m) => m.to[0]).sort();
  const targets = [...document.querySelectorAll(".volo-sky .cell.target")]
    .map((e) => e.dataset.cell).sort();
  if (JSON.stringify(adds) !== JSON.stringify(targets)) problems.push(["targets", adds, targets]);
  for (const c of adds) {
    board.reset();
    const before = window.submitted.length;
    document.querySelector(`.volo-sky [data-cell="${c}"]`)
      .dispatchEvent(new MouseEvent("click", { bubbles: true }));
    const got = window.submitted.slice(before);
    if (got.length !== 1 || got[0] !== c) problems.push(["add", c, got]);
  }
  const pass = document.querySelector("[data-testid=volo-pass]");
  const canPass = legal.some((m) => m.kind === "pass");
  const shown = getComputedStyle(pass).display !== "none";
  if (shown !== canPass) problems.push(["pass button", canPass]);
  if (document.querySelectorAll(".volo-sky .coord").length) problems.push(["coordinates"]);
  return { played: adds.length, problems };
}"""

CROWDED = (
    "volo:board=standard,edition=current,setup=nests,supply=200 1o2o/bo2o3/o2o2o1o/5o2oo/"
    "1o1o3o1ob/o1o2o3o1o/1ooo1o1o1o/o1ooo1o1o1ob/o1ooo2o3/b1ooooo1oo/o1ooooo2/3oo2o/o3o "
    "o 144 196 0"
)


def _positions():
    """(game, state, stride): the crowded position (every 5th flight, 568 moves), the mini
    position where d3-b3 divides Blue, random ones (every flight)."""
    out = []
    game = get("volo", board="standard", supply=200)
    out.append((game, game.parse_position(CROWDED), 5))
    mini = get("volo", board="mini")
    state = mini.initial_state()
    for text in ("a3", "a2", "d3", "h8"):
        state = state.apply(mini.parse_move(state, text))
    out.append((mini, state, 1))
    rng = random.Random(4)
    for options in ({"board": "mini"}, {"board": "standard", "edition": "2010"}):
        game = get("volo", **options)
        for _ in range(3):
            state = game.initial_state()
            for _ in range(rng.randint(20, 60)):
                if state.outcome is not None:
                    break
                moves = state.legal_moves()
                flights = [m for m in moves if m.kind == "fly"]
                state = state.apply_unchecked(
                    rng.choice(flights if flights and rng.random() < 0.5 else moves)
                )
            if state.outcome is None:
                out.append((game, state, 1))
    return out


def _open(new_page):
    page = new_page()
    # the module and the shell modules it imports (ui.js, moves.js), from the web folder
    page.route(
        f"{ORIGIN}/static/**/*.js",
        lambda route: route.fulfill(
            body=(WEB / route.request.url.split("/static/", 1)[1]).read_text(encoding="utf-8"),
            content_type="text/javascript",
        ),
    )
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    page.goto(f"{ORIGIN}/")
    page.wait_for_function("window.ready === true")
    return page


def test_every_flight_and_add_by_clicks(new_page):
    page = _open(new_page)
    flights = divisions = 0
    for game, state, stride in _positions():
        view = game.state_view(state)
        legal = [game.move_view(state, m) for m in state.legal_moves()]
        result = page.evaluate(PLAY_FLIGHTS, [view, legal, stride])
        assert result["problems"] == [], (state.to_text(), result["problems"][:5])
        flights += result["played"]
        divisions += result["regions"]
        result = page.evaluate(PLAY_ADDS, [view, legal])
        assert result["problems"] == [], (state.to_text(), result["problems"][:5])
    assert flights > 100 and divisions > 10
