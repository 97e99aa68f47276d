// Voldétour board module: an isometric 3D view (rotatable in quarter turns), the main
// board, on which the player clicks, beside a smaller top-down height map that takes the
// same clicks (and the keyboard).  It reads the views made by
// src/tablier/games/voldetour/view.py; the format and the interaction are described in
// docs/web-client.md, section "Voldétour board".
//
// Input: choose a piece in the tray (a block or stair from the reserve, or one of your
// pieces on the board), choose its orientation, click a highlighted anchor square; the
// board sends the two engine decisions (take, then put) one after the other.  The Lord:
// click it, then a highlighted destination.  "End turn" when the engine offers it.  The
// same module draws the rules' and the tutorial's diagrams (drawDiagram): read-only, with
// highlights, arrows and crosses.
//
// Modules: this one ties them together (the DOM, drawing when something changed, the
// shell's interface); voldetour.model.js holds the state (position, legal decisions
// grouped, selection) and its changes; voldetour.input.js the click flow and keys;
// voldetour.iso.js the 3D view, voldetour.map.js the map, voldetour.tray.js the tray,
// voldetour.info.js the side panel; voldetour.geometry.js the projection and solids.
// Every function is given the state explicitly.

import { t } from "../i18n.js";
import { clear, el } from "../ui.js";
import { infoPanel } from "./voldetour.info.js";
import { clickSquare, keyAction } from "./voldetour.input.js";
import { drawIso, drawIsoOverlay } from "./voldetour.iso.js";
import { drawMap, drawMapDiagram, drawOverlay } from "./voldetour.map.js";
import {
  newState,
  nextOrientation,
  readMove,
  resetSelection,
  selectPiece,
  setOrientation,
  toggleLord,
  update,
  viewRotation,
} from "./voldetour.model.js";
import { drawTray } from "./voldetour.tray.js";

const ROTATION_KEY = "tablier.voldetour.rotation";
const HEIGHTS_KEY = "tablier.voldetour.heights";
/** Where north lies in the 3D view turned `r` quarter turns, in words. */
function compass(r) {
  return [t("north at the back right"), t("north at the back left"),
    t("north at the front left"), t("north at the front right")][r];
}

function storedHeights() {
  try {
    return localStorage.getItem(HEIGHTS_KEY) === "1";
  } catch (_) {
    return false;
  }
}

function storedRotation() {
  try {
    return (parseInt(localStorage.getItem(ROTATION_KEY) || "0", 10) & 3) || 0;
  } catch (_) {
    return 0;
  }
}

/** Create the Voldétour board in `host` (see the board-module interface in docs). */
export function createBoard(host, { submit, choose } = {}) {
  const st = newState(storedRotation());
  st.heights = storedHeights();
  const readOnly = typeof submit !== "function"; // a diagram: nothing can be played
  let frame = 0; // a pending redraw of the overlays (3D view and map)
  let map = null; // the map's parts (drawMap), for the overlay
  let iso = null; // the 3D view's parts (drawIso), for the overlay
  let diagram = null; // the marks of the diagram drawn (drawDiagram), else null

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
  const heightsButton = el("button", { type: "button", "data-testid": "vd-heights",
    title: t("Show the heights in the 3D view (h)"), onclick: () => toggleHeights() }, t("Heights"));
  viewbar.append(
    el("button", { type: "button", "data-testid": "vd-rotate-left", title: t("Turn the 3D view left ([)"),
      "aria-label": t("Turn the 3D view left"), onclick: () => rotate(-1) }, "⟲"),
    el("button", { type: "button", "data-testid": "vd-rotate-right",
      title: t("Turn the 3D view right (])"), "aria-label": t("Turn the 3D view right"),
      onclick: () => rotate(1) }, "⟳"),
    rotLabel,
    heightsButton,
  );

  function toggleHeights() {
    st.heights = !st.heights;
    try {
      localStorage.setItem(HEIGHTS_KEY, st.heights ? "1" : "0");
    } catch (_) {
      /* storage may be unavailable */
    }
    draw();
  }

  function rotate(step) {
    st.rotation = (st.rotation + step + 4) & 3;
    try {
      localStorage.setItem(ROTATION_KEY, String(st.rotation));
    } catch (_) {
      /* storage may be unavailable */
    }
    draw();
  }

  function send(notation) {
    if (typeof submit === "function") submit(notation);
  }

  /** Carry out what an input function answered ({draw, send, rotate}). */
  function perform(todo) {
    if (!todo) return;
    if (todo.rotate) rotate(todo.rotate);
    if (todo.draw) draw();
    if (todo.send) send(todo.send);
  }

  // the tray's buttons
  const actions = {
    reset: () => {
      resetSelection(st);
      draw();
    },
    selectPiece: (key) => {
      if (selectPiece(st, key)) draw();
    },
    toggleLord: () => {
      toggleLord(st);
      draw();
    },
    orient: (orientation) => {
      setOrientation(st, orientation);
      draw();
    },
    nextOrientation: (step) => {
      if (nextOrientation(st, step)) draw();
    },
    send,
  };
  // the map's events, and the 3D view's
  const mapHandlers = {
    click: (sq) => perform(clickSquare(st, sq)),
    pointerMoved: () => scheduleDraw(),
  };
  const isoHandlers = {
    click: (sq) => perform(clickSquare(st, sq)),
    hover: (sq) => {
      if (st.hover === sq) return;
      st.hover = sq;
      if (st.sel) scheduleDraw();
    },
  };

  function onKey(event) {
    if (readOnly) return;
    const todo = keyAction(st, event, root.isConnected);
    if (!todo) return;
    if (todo.heights) toggleHeights();
    perform(todo);
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  function draw() {
    if (!st.view) return;
    const r = viewRotation(st);
    rotLabel.textContent = t("3D view: {north}", { north: compass(r) });
    heightsButton.setAttribute("aria-pressed", st.heights ? "true" : "false");
    const hadFocus = mapPane.contains(document.activeElement);
    iso = drawIso(st, r, diagram ? null : isoHandlers, diagram);
    clear(isoPane).append(iso.root);
    map = drawMap(st, diagram ? null : mapHandlers);
    if (diagram) drawMapDiagram(map, st, diagram);
    clear(mapPane).append(map.root);
    if (diagram) clear(tray);
    else drawTray(st, tray, actions);
    if (hadFocus && st.focusSq) {
      const again = mapPane.querySelector(`[data-cell="${st.focusSq}"][tabindex]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function scheduleDraw() {
    // what the pointer changes: the ghost in 3D and on the map, the previewed Lord path
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (st.view) {
        if (iso) drawIsoOverlay(st, iso);
        if (map) drawOverlay(st, map);
      }
    });
  }

  void choose; // not needed: the tray and the orientation buttons cover every choice
  return {
    render(view, opts = {}) {
      diagram = null;
      root.classList.remove("vd-diagram-board");
      update(st, view, opts);
      draw();
    },

    drawDiagram(view, { highlights = [], arrows = [], marks = [], coordinates = true, flipped = false } = {}) {
      // read-only: no legal moves, no selection, no tray; the marks over both views
      diagram = { highlights, arrows, marks };
      root.classList.add("vd-diagram-board");
      update(st, view, { legal: null, last: null, coordinates, flipped });
      draw();
    },

    info(v) {
      return infoPanel(v || st.view);
    },

    readMove,

    reset() {
      // the shell calls this after every move and when its confirm step is cancelled: the
      // selection is dropped (a piece in hand stays selected, it must be put)
      actions.reset();
    },

    destroy() {
      document.removeEventListener("keydown", onKey);
      if (frame) cancelAnimationFrame(frame);
      st.view = null;
      clear(host);
    },
  };
}
