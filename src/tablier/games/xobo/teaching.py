"""XoBo's rules page and tutorial (see :mod:`tablier.core.teaching`).

Written from the seed ``001_b7ddde360ec5137e.txt`` (French: the XoBo rules, then the
story and the ten-point rules of Kholodnaya Voyna) and ``docs/rules/xobo.md``, in the
project's own words.  The seed's figures were lost; the diagrams recreate the situations
their captions name (illustration 1 the winning chain, 2a-2b stacking against a voyna
with four aligned cubes, 3a-3b a stack of four distributed with captures, 4 the blocus,
the double attack, and the two annotated attacks ``1. g9 (v) ; c7->e9 …`` and
``1. e5 (v) ; a4->c4 …`` as positions where those very lines are played).  Every position
is a real one, checked by ``tests/games/xobo/test_teaching.py``.
"""

from __future__ import annotations

from ...core.teaching import (
    N_,
    Diagram,
    Lesson,
    LessonStep,
    RulesPage,
    Section,
    Step,
    Teaching,
)

__all__ = ["TEACHING"]

_XOBO = "xobo:stack=any,exhaustion=moves,voyna=placement"
_ANY_MOVE = "xobo:stack=any,exhaustion=moves,voyna=any-move"
_TEN = "xobo:stack=three,exhaustion=cubes,voyna=any-move"
_SEED = "Seed 001 (XoBo / Kholodnaya Voyna, French)"
_DOC = "docs/rules/xobo.md"


def _pos(rows: str, rest: str, spec: str = _XOBO) -> str:
    """A full position string: the game spec, the rows (9 to 1), the side, the reserves."""
    return f"{spec} {rows} {rest}"


# -- positions -------------------------------------------------------------------------

_EMPTY = _pos(
    "........./........./........./........./........./........./........./........./.........",
    "ns 36/0/0 -",
)
_CHAIN = _pos(
    "...1...../..1....../...1...../..13...../..1....../...1...../....1..../........./....1....",
    "ns 25/0/0 -",
)
_AROUND = _pos(
    "...1...../..1....../...1...../...3...../..1....../...1...../....1..../....1..../....1....",
    "ns 25/0/0 -",
)
_FOUR_EDGES = _pos(
    ".1......./..1....../.1......./..1.11111/........./..1....../.1......./1.1....../.1.......",
    "ns 22/0/0 -",
)
_BUILD = _pos(
    "...1...../..1....../...1...../........./..1....../...1...../....1..../........./....1....",
    "ns 29/0/0 -",
)
_FIRST = _pos(
    "........./........./........./........./....1..../........./........./.......1./.........",
    "ns 34/0/0 -",
)
_FOUR = _pos(
    "........./........./........./......111/........./1111...../........./........./.........",
    "ew 29/0/0 -",
)
_FOUR_V = _pos(
    "........./........./........./......111/....1..../1111...../........./........./.........",
    "ns 28/0/0 v",
)
_FOUR_TEN = _pos(
    "........./........./........./......111/........./1111...../........./........./.........",
    "ew 29/0/0 -",
    _TEN,
)
_FIVE = _pos(
    "........./........./........./......111/11111..../........./........./........./.........",
    "ns 28/0/0 v",
)
_STACK4 = _pos(
    "........./........./.....4.../........./...1.1.../........./.....1.../........./.........",
    "ns 29/0/0 -",
)
_RESERVES = _pos(
    ".1......./.....1.../..1....1./1...1..../......1../.1......./...1...1./.....1.../.1.......",
    "ns 1/3/20 -",
)
_BLOCUS = _pos(
    ".......1./1.11.11../.1......./...1...../........./...1...../....1..../...1...../....1....",
    "ns 24/0/0 -",
)
_BLOCUS_V = _pos(
    ".......1./1.11.11../.1......./...1...../....1..../...1...../....1..../...1...../....1....",
    "ew 23/0/0 v",
)
_EXHAUST = _pos(
    ".1......./.....1.../..1....1./1...1..../......1../.1......./...1...1./.....1.../.1.......",
    "ew 1/0/23 -",
)
_EXHAUST_STACK = (
    ".1......./.....1.../..1....1./1...1..../......1../.1......./...1...1./...3.1.../.1.......",
    "ew 1/0/20 -",
)
_DOUBLE = _pos(
    "........./........./........./.1....111/1.1..1.../.....111./........1/........./.........",
    "ew 25/0/0 -",
)
_FORCING = _pos(
    "....1..1./...1....1/.11....../1...11.../....1.11./.....1..1/.....1.../.....1.../.....1...",
    "ew 19/0/0 -",
)
_FORCED = _pos(
    "....3.11./........1/.1......./1...11.../....1.11./.....1..1/.....1.../.....1.../.....1...",
    "ew 18/0/0 -",
)
_FOLLOW = _pos(
    "........./........./11......./......111/.....1.../111....../.......11/........./.........",
    "ew 25/0/0 -",
)
_FOLLOW_3 = _pos(
    "........./........./11......./..1...3../....11.../..3...1../.......11/........./.........",
    "ns 22/0/0 v",
)
_FOLLOW_4 = _pos(
    "........./........./11......./..1....../....1..../..3.1.1../...1...11/........./.........",
    "ew 22/2/0 -",
)
_SILENT = (
    "........./....3..../....1..../......111/........./1111...../........./........./.........",
    "ew 25/0/0 -",
)

_CHAIN_CELLS = ("d9", "c8", "d7", "c6", "c5", "d4", "e3", "e2", "e1")

# -- the rules page --------------------------------------------------------------------

_SECTIONS = (
    Section(
        key="material",
        title=N_("Material and set-up"),
        paragraphs=(
            N_(
                "A square board of 9 × 9 cells, columns a to i from West to East and rows 1 "
                "to 9 from South to North, and 36 small cubes, all of one colour."
            ),
            N_(
                "The cubes belong to nobody. At the start the board is empty and all 36 "
                "cubes wait beside it in the common reserve; each player also has a personal "
                "reserve, empty at first, for the cubes they will capture."
            ),
            N_(
                "North-South plays first and must join row 9 to row 1; East-West must join "
                "column a to column i. A corner cell lies on both edges it touches."
            ),
        ),
        diagrams=(
            Diagram(
                position=_EMPTY,
                caption=N_(
                    "The empty board. The corners a1, a9, i1 and i9 belong to two edges each."
                ),
                highlights=("a1", "a9", "i1", "i9"),
            ),
        ),
        source=f"{_SEED}: XoBo, « Matériel », « Préparation »; ten points §1; {_DOC} §1-2",
    ),
    Section(
        key="turn",
        title=N_("A turn"),
        paragraphs=(
            N_(
                "Players take turns. On your turn you do exactly one of three things: place "
                "a cube, gather three or more aligned cubes into a stack (only when your "
                "opponent has just announced voyna), or distribute a stack."
            ),
            N_(
                "To place, put one cube on an empty cell. It comes from the common reserve; "
                "once that reserve is empty, from your own reserve. A cell holding a stack is "
                "not empty."
            ),
        ),
        diagrams=(
            Diagram(
                position=_EMPTY,
                caption=N_("The first moves: each player places a cube on an empty cell."),
                steps=(
                    Step(N_("North-South places a cube on e5."), move="e5", highlights=("e5",)),
                    Step(N_("East-West answers on d4."), move="d4", highlights=("d4",)),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « Déroulement », « Poser un cube »; {_DOC} §4, §4.1",
    ),
    Section(
        key="winning-chain",
        title=N_("The winning chain"),
        paragraphs=(
            N_(
                "You win when a chain of cells, each holding exactly one cube and each "
                "touching the next by a side or a corner, joins your two edges. The chain may "
                "be completed by a placement or by a distribution."
            ),
            N_(
                "A stack is not part of a chain, and neither is an empty cell: a chain must go "
                "around them. Since the cubes belong to nobody, the same cubes can serve both "
                "players' chains."
            ),
        ),
        diagrams=(
            Diagram(
                position=_CHAIN,
                caption=N_(
                    "North-South's chain runs from d9 down to e3, bending around the stack on "
                    "d6. One cube is missing to reach row 1."
                ),
                highlights=(*_CHAIN_CELLS[:7], "e1"),
                marks=("d6",),
                steps=(
                    Step(
                        N_("e2 completes the chain from row 9 to row 1: North-South wins."),
                        move="e2",
                        highlights=_CHAIN_CELLS,
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « But du jeu », « Fin de la partie »; ten points §8, ill. 1; "
        f"{_DOC} §3",
    ),
    Section(
        key="four-edges",
        title=N_("Never join the four edges"),
        paragraphs=(
            N_(
                "A player who joins the opponent's two edges loses at once, even if the same "
                "move also joins their own edges. Every cube serves both players, so a cell "
                "can complete both chains at the same time: whoever fills it loses."
            ),
            N_(
                "When such a cell is the only way to finish a chain, nobody can play it: this "
                "is a blocus. A blocus threatens no one, so it does not count as a voyna and "
                "allows no stacking."
            ),
        ),
        diagrams=(
            Diagram(
                position=_FORCING,
                caption=N_(
                    "A blocus. A cube on d6, d7 or e7 would join North to South and West to "
                    "East at once: whoever places it loses, so nobody does."
                ),
                marks=("d6", "d7", "e7"),
            ),
        ),
        source=f"{_SEED}: XoBo, « But du jeu », « Forçage de blocus »; ten points §10, ill. 4; "
        f"{_DOC} §5, interpretation 6",
    ),
    Section(
        key="voyna",
        title=N_("Voyna!"),
        paragraphs=(
            N_(
                "When a player, by placing a cube, threatens to win on their next turn (one "
                "more cube on an empty cell would join their edges), they announce "
                "“Voyna!” (war). The notation writes the move with (v): e5 (v)."
            ),
            N_(
                "Tablier announces it for you. A cell that would also join the opponent's "
                "edges is no threat, and a player with no cube left to place threatens "
                "nothing."
            ),
        ),
        diagrams=(
            Diagram(
                position=_FOUR,
                caption=N_("East-West to move: its cubes run from a4 to d4 and from g6 to i6."),
                steps=(
                    Step(
                        N_("Now f5 or f6 would join West to East. Voyna!"),
                        move="e5",
                        highlights=("a4", "b4", "c4", "d4", "e5", "g6", "h6", "i6"),
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « Voïna »; Kholodnaya Voyna, « Porter une attaque »; {_DOC} §4.2",
    ),
    Section(
        key="stacking",
        title=N_("Stacking against a voyna"),
        paragraphs=(
            N_(
                "Only the player who has just heard “Voyna!”, and only on that turn, may "
                "stack: choose a run of three or more single cubes side by side in a row, a "
                "column or a diagonal, and gather them all onto one end of the run. The "
                "cells left behind are empty."
            ),
            N_(
                "When more than three cubes are aligned, you may stop anywhere as long as the "
                "stack holds at least three cubes. Any run will do, but only one that cuts "
                "the attacking chain saves you: plan alignments inside your opponent's lines."
            ),
            N_(
                "A stack must be able to be distributed one day: it may not hold more cubes "
                "than its cell has cells up to the edge in its longest direction."
            ),
        ),
        diagrams=(
            Diagram(
                position=_FOUR,
                caption=N_("Four cubes aligned on row 4, inside East-West's line."),
                highlights=("a4", "b4", "c4", "d4"),
                steps=(
                    Step(N_("East-West announces voyna."), move="e5"),
                    Step(
                        N_(
                            "North-South stacks three of the four cubes onto d4: b4 and c4 "
                            "empty, the chain is cut and f5 or f6 no longer wins."
                        ),
                        move="b4->d4",
                        arrows=(("b4", "d4"),),
                        highlights=("d4",),
                    ),
                ),
            ),
            Diagram(
                position=_FIVE,
                caption=N_(
                    "Five aligned cubes under voyna. Gathered onto a5 they make a stack of "
                    "five that can still spread eastwards; onto e5 they cannot: from e5 no "
                    "direction has five cells, so that stack is forbidden."
                ),
                arrows=(("e5", "a5"),),
                marks=("e5",),
            ),
        ),
        source=f"{_SEED}: XoBo, « Regrouper trois cubes ou plus »; Kholodnaya Voyna, « Armer un "
        f"pays aligné »; ten points §5, §7, ill. 2a-2b; {_DOC} §4.3",
    ),
    Section(
        key="distribution",
        title=N_("Distributing a stack and capturing"),
        paragraphs=(
            N_(
                "Instead of placing, either player may take any stack, on any turn, and "
                "drop its cubes one by one on the following cells in a straight line (row, "
                "column or diagonal), leaving its own cell empty. Cells reached may be empty "
                "or hold cubes or stacks."
            ),
            N_(
                "The distribution must be complete (no cube may be left in hand at the "
                "edge), must not grow a stack beyond what it could ever distribute, and must "
                "make at least one capture: each cell that held a single cube now holds two, "
                "and those pairs go to the distributing player's reserve."
            ),
        ),
        diagrams=(
            Diagram(
                position=_STACK4,
                caption=N_(
                    "A stack of four on f7. Southwards it captures two cubes (f5 and f3), "
                    "south-westwards one (d5). North-eastwards it would run off the board."
                ),
                arrows=(("f7", "f6"), ("f7", "e6")),
                marks=("g8",),
                steps=(
                    Step(
                        N_(
                            "Distributed south-west: e6, d5, c4 and b3 get a cube each; the "
                            "pair on d5 goes to North-South's reserve."
                        ),
                        move="f7xe6",
                        highlights=("e6", "c4", "b3"),
                        marks=("d5",),
                    ),
                ),
            ),
            Diagram(
                position=_STACK4,
                caption=N_("The same stack distributed south: two captures."),
                steps=(
                    Step(
                        N_("f6, f5, f4, f3: the pairs on f5 and f3 are captured, four cubes."),
                        move="f7xf6",
                        highlights=("f6", "f4"),
                        marks=("f5", "f3"),
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « Distribuer les cubes d'un groupe »; Kholodnaya Voyna, « Créer "
        f"des troubles »; ten points §6, ill. 3a-3b; {_DOC} §4.4",
    ),
    Section(
        key="reserves",
        title=N_("Personal reserves"),
        paragraphs=(
            N_(
                "Captured cubes wait in the capturer's personal reserve. As long as the common "
                "reserve has cubes, every placement takes from it; once it is empty, each "
                "player places only cubes from their own reserve."
            ),
        ),
        diagrams=(
            Diagram(
                position=_RESERVES,
                caption=N_(
                    "One cube left in the common reserve; North-South holds 3 captured cubes, "
                    "East-West 20."
                ),
                steps=(
                    Step(N_("North-South places the last common cube."), move="e5"),
                    Step(N_("East-West now places from its own reserve."), move="d5"),
                    Step(N_("And North-South from its own."), move="c5"),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « Mettre des cubes en réserve »; ten points §6, §9; "
        f"{_DOC} §4.1, interpretation 4",
    ),
    Section(
        key="defences",
        title=N_("Three answers to a voyna"),
        paragraphs=(
            N_(
                "Under voyna you may defend by stacking a run of the attacking chain, by "
                "distributing a stack so that a capture cuts the chain, or by a blocus: a "
                "cube that makes the threatened cell join all four edges, so that the "
                "attacker can no longer fill it."
            ),
            N_(
                "Placing a cube on the threatened cell yourself is no defence: it joins your "
                "opponent's edges and you lose."
            ),
        ),
        diagrams=(
            Diagram(
                position=_BLOCUS,
                caption=N_("North-South to move. Its chain reaches from row 1 to d6."),
                steps=(
                    Step(
                        N_(
                            "Voyna: e7 would now carry North-South's chain up through f8, g8 and h9"
                            " to row 9. No three of those cubes are aligned."
                        ),
                        move="e5",
                    ),
                    Step(
                        N_(
                            "East-West places i8: now e7 would also join West to East. A "
                            "blocus: North-South can no longer play e7. Here i8 even "
                            "threatens e8 and e9 in turn."
                        ),
                        move="i8",
                        highlights=("i8",),
                        marks=("e7",),
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: Kholodnaya Voyna, « Former un blocus », « Créer des troubles »; "
        f"{_DOC} §4.2-4.4",
    ),
    Section(
        key="end",
        title=N_("End of the game"),
        paragraphs=(
            N_(
                "After each move: if the mover joined the opponent's edges, the mover loses; "
                "otherwise, if the mover joined their own edges, the mover wins."
            ),
            N_(
                "A player who cannot play at all (no cube to place, no voyna to answer, no "
                "stack to distribute) loses by exhaustion. There is no draw."
            ),
        ),
        diagrams=(
            Diagram(
                position=_EXHAUST,
                caption=N_(
                    "The common reserve holds its last cube and North-South has captured nothing."
                ),
                steps=(
                    Step(
                        N_(
                            "East-West places that cube: North-South has no cube and no stack "
                            "left, and loses by exhaustion."
                        ),
                        move="e2",
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « Fin de la partie »; {_DOC} §5",
    ),
    Section(
        key="double-attack",
        title=N_("The double attack"),
        paragraphs=(
            N_(
                "One threatened chain is easy to answer; two are not. If the last gap can be "
                "finished along two branches, each of which could be cut, the defender can "
                "only cut one per turn."
            ),
        ),
        diagrams=(
            Diagram(
                position=_DOUBLE,
                caption=N_(
                    "From f5, East-West's line splits into two chains on the right, along rows "
                    "6 and 4; each holds three aligned cubes that could be stacked."
                ),
                highlights=("f5", "g6", "h6", "i6", "f4", "g4", "h4", "i3"),
                steps=(
                    Step(
                        N_("Voyna: e5 or e6 now finishes the chain, through either branch."),
                        move="d6",
                    ),
                    Step(
                        N_("North-South cuts the lower branch by stacking f4->h4 …"),
                        move="f4->h4",
                        arrows=(("f4", "h4"),),
                    ),
                    Step(
                        N_("… and e6 wins through the upper one. The attack was unstoppable."),
                        move="e6",
                        highlights=("a5", "b6", "c5", "d6", "e6", "f5", "g6", "h6", "i6"),
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « Attaque double »; Kholodnaya Voyna, « L'attaque double »; "
        f"{_DOC} §4.2 (two threatened cells)",
    ),
    Section(
        key="forcing-blocus",
        title=N_("Forcing the blocus open"),
        paragraphs=(
            N_(
                "Because of a blocus and an alignment on its line of attack, East-West seems "
                "unable to win. But a voyna can force North-South to break the blocus "
                "itself, after which the attack is simple. The rules' example: 1. g9 (v) ; "
                "c7->e9 2. d7 (v) and North-South has no defence left."
            ),
        ),
        diagrams=(
            Diagram(
                position=_FORCING,
                caption=N_(
                    "Blocus on d6, d7 and e7; c7, d8 and e9 are aligned on East-West's upper "
                    "line, and they also carry North-South's chain."
                ),
                highlights=("c7", "d8", "e9"),
                marks=("d6", "d7", "e7"),
                steps=(
                    Step(
                        N_("Move 1: f8 or f9 would finish the upper line."),
                        move="g9",
                    ),
                    Step(
                        N_(
                            "The only defence is to stack c7->e9, which cuts North-South's "
                            "own chain: the blocus is gone."
                        ),
                        move="c7->e9",
                        arrows=(("c7", "e9"),),
                    ),
                    Step(
                        N_(
                            "Move 2: c6, c7 or c8 now wins, with no aligned cubes to stack and no "
                            "capture that helps. North-South has no defence."
                        ),
                        move="d7",
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « Forçage de blocus »; Kholodnaya Voyna, « Le forçage de blocus »; "
        f"{_DOC} §6-7 (the seed's record lines)",
    ),
    Section(
        key="follow-up-attack",
        title=N_("The follow-up attack"),
        paragraphs=(
            N_(
                "Without a double attack a threat is often an illusion, yet with preparation "
                "a line undermined by alignments can still win, voyna after voyna. The "
                "main line of the rules' example: 1. e5 (v) ; a4->c4 2. c6 (v) ; i6->g6 "
                "3. g4 (v) ; g6xf5 4. f3 (v) and the attack can no longer be stopped."
            ),
        ),
        diagrams=(
            Diagram(
                position=_FOLLOW,
                caption=N_(
                    "North-South looks safe: East-West's line holds two runs of three, a4-c4 "
                    "and g6-i6."
                ),
                highlights=("a4", "b4", "c4", "g6", "h6", "i6"),
                steps=(
                    Step(N_("Move 1: d4 or d5 would win."), move="e5"),
                    Step(
                        N_("North-South answers by stacking."),
                        move="a4->c4",
                        arrows=(("a4", "c4"),),
                    ),
                    Step(
                        N_("Move 2: a new way round, through a7 and b7."),
                        move="c6",
                    ),
                    Step(
                        N_("North-South stacks again and cuts the eastern end."),
                        move="i6->g6",
                        arrows=(("i6", "g6"),),
                    ),
                    Step(
                        N_("Move 3: the line now reaches the east through h3 and i3."),
                        move="g4",
                    ),
                    Step(
                        N_(
                            "North-South distributes g6 towards f5, capturing the cube on f5 "
                            "but dropping new ones on e4 and d3."
                        ),
                        move="g6xf5",
                        arrows=(("g6", "f5"),),
                        highlights=("e4", "d3"),
                    ),
                    Step(
                        N_("Move 4: e4, f3, g4 rebuild the line; no answer remains."),
                        move="f3",
                        highlights=("e4", "f3", "g4"),
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « L'attaque suivie »; Kholodnaya Voyna, « L'attaque suivie »; "
        f"{_DOC} §6-7 (the seed's record lines)",
    ),
    Section(
        key="ten-point",
        title=N_("What the ten-point rules change"),
        variant=N_("Kholodnaya Voyna ten-point rules"),
        paragraphs=(
            N_(
                "The French rule text's second write-up tells the game's story and gives it in ten "
                "points. It differs from the XoBo rules in three ways, and Tablier plays it "
                "as xobo:stack=three,exhaustion=cubes."
            ),
            N_(
                "A stack gathers exactly three aligned cubes, never more. A player left "
                "without any cube to place loses at once, even with a stack on the board to "
                "distribute. And any move that threatens to win announces voyna, not only a "
                "placement."
            ),
        ),
        diagrams=(
            Diagram(
                position=_FOUR_TEN,
                caption=N_("The four aligned cubes again, under the ten-point rules."),
                steps=(
                    Step(N_("East-West announces voyna."), move="e5"),
                    Step(
                        N_(
                            "Three of the four may be stacked, as b4->d4; all four (a4->d4) "
                            "may not."
                        ),
                        move="b4->d4",
                        arrows=(("b4", "d4"),),
                        marks=("a4",),
                    ),
                ),
            ),
            Diagram(
                position=_pos(*_EXHAUST_STACK, _TEN),
                caption=N_("Last common cube; North-South has no reserve but a stack on d2."),
                highlights=("d2",),
                steps=(
                    Step(
                        N_(
                            "East-West places it: North-South has no cube left and loses at "
                            "once. Under the XoBo rules it could still distribute d2."
                        ),
                        move="h4",
                    ),
                ),
            ),
        ),
        source=f"{_SEED}: les règles de Kholodnaya Voyna en dix points, §5, §9; {_DOC}, "
        f"options stack and exhaustion",
    ),
    Section(
        key="voyna-option",
        title=N_("Which moves announce voyna"),
        variant=N_("Rules option: voyna"),
        paragraphs=(
            N_(
                "The XoBo rules say a player announces voyna when, by placing a cube, they "
                "threaten to win; the ten-point rules, when they threaten by their last "
                "move, whatever it was. Tablier offers both readings as the option voyna: "
                "placement (the XoBo default) or any-move (the ten-point default)."
            ),
            N_(
                "Under placement, a stacking or a distribution that leaves its player "
                "threatening announces nothing: the threat is silent. It is still real (one "
                "more cube wins), but the opponent may not stack against it; they can only "
                "distribute a stack or make a blocus."
            ),
        ),
        diagrams=(
            Diagram(
                position=_pos(*_SILENT),
                caption=N_("XoBo, voyna=placement: East-West distributes the stack on e8."),
                steps=(
                    Step(
                        N_(
                            "The distribution captures e7 and drops cubes on e6 and e5: East-West "
                            "now threatens f5, f6 and f7, silently. North-South may not stack "
                            "a4->c4 and has no defence."
                        ),
                        move="e8xe7",
                    ),
                ),
            ),
            Diagram(
                position=_pos(*_SILENT, _ANY_MOVE),
                caption=N_("The same position with voyna=any-move."),
                steps=(
                    Step(
                        N_(
                            "This time the distribution announces voyna, and North-South may answer"
                            " by stacking a4->c4."
                        ),
                        move="e8xe7",
                    ),
                    Step(N_("a4->c4 cuts the line."), move="a4->c4", arrows=(("a4", "c4"),)),
                ),
            ),
        ),
        source=f"{_SEED}: XoBo, « Voïna »; Kholodnaya Voyna, « Porter une attaque »; {_DOC} "
        f"§4.2, interpretation 13",
    ),
)

RULES = RulesPage(
    title=N_("XoBo / Kholodnaya Voyna"),
    intro=(
        N_(
            "XoBo (Vincent Everaert, 2000) is a connection game in a state of permanent "
            "crisis: its name is Холодная Война, Kholodnaya Voyna, the Cold War. Two players "
            "share 36 neutral cubes; each tries to join two opposite edges of the board."
        ),
        N_(
            "As in chess, a direct attack is easy to parry: three aligned cubes inside the "
            "attacking line are enough. Winning takes preparation."
        ),
    ),
    sections=_SECTIONS,
)

# -- the tutorial ----------------------------------------------------------------------

_STEPS = (
    LessonStep(
        key="first-cube",
        title=N_("Place a cube"),
        text=N_(
            "A turn is usually one cube placed on an empty cell. Cubes link when they touch "
            "by a side or a corner."
        ),
        position=_FIRST,
        task=N_("Place a cube touching the cube on e5."),
        accept=("d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"),
        hint=N_("Any of the eight cells around e5 will do, diagonals included."),
        hint_cells=("e5",),
        wrong=N_("That cube does not touch e5, not even by a corner."),
        success=N_("Linked. A chain is made of such links."),
    ),
    LessonStep(
        key="connect",
        title=N_("Join your edges"),
        text=N_(
            "You play North-South: a chain of single cubes from row 9 to row 1 wins. Your "
            "chain reaches from d9 down to e3."
        ),
        position=_CHAIN,
        task=N_("Win: complete the chain down to row 1."),
        accept=("d2", "e2", "f2"),
        hint=N_("Fill the gap between e3 and e1."),
        hint_cells=("e3", "e1"),
        wrong=N_("The chain is still broken on row 2."),
        success=N_("Row 9 to row 1: North-South wins."),
    ),
    LessonStep(
        key="around-stack",
        title=N_("Stacks break chains"),
        text=N_(
            "Only cells holding exactly one cube make a chain. The stack on d6 blocks your "
            "way down."
        ),
        position=_AROUND,
        task=N_("Win by going around the stack."),
        accept=("c6",),
        hint=N_("Find the cell that touches both d7 and c5."),
        hint_cells=("d7", "c5"),
        wrong=N_("The chain still stops at d7: a stack is not a link."),
        success=N_("Around the stack and down to row 1: you win."),
    ),
    LessonStep(
        key="four-edges",
        title=N_("Mind the four edges"),
        text=N_(
            "Three cells would finish your chain between c6 and c4, but one of them would "
            "also join West to East through a2, b3, c4 and the cubes on row 6. Joining your "
            "opponent's edges loses, even if you join yours."
        ),
        position=_FOUR_EDGES,
        task=N_("Win without joining West to East."),
        accept=("b5", "c5"),
        hint=N_("Stay away from the cell next to e6."),
        hint_cells=("b5", "c5"),
        wrong=N_("That cube joins all four edges: East-West wins. Choose another cell."),
        success=N_("Your chain alone is complete: you win."),
    ),
    LessonStep(
        key="voyna",
        title=N_("Announce voyna"),
        text=N_(
            "A placement after which one more cube would win announces voyna: the notation "
            "marks it (v). Your chain has two gaps, on row 6 and on row 2."
        ),
        position=_BUILD,
        task=N_("Place a cube that threatens to win next turn."),
        accept=("c6", "d6", "d2", "e2", "f2"),
        hint=N_("Close one of the two gaps; the other is then your threat."),
        hint_cells=("d7", "c5", "e3", "e1"),
        wrong=N_("Two gaps remain: that is no threat yet."),
        success=N_("Voyna! One gap left: your opponent must answer at once."),
    ),
    LessonStep(
        key="stack",
        title=N_("Answer by stacking"),
        text=N_(
            "East-West has just played e5 (v): f5 or f6 would join West to East. Under "
            "voyna, and only then, you may gather three or more aligned single cubes onto "
            "one end of their run."
        ),
        position=_FOUR_V,
        task=N_("Stack aligned cubes of East-West's line to cut it."),
        accept=(
            "a4->c4",
            "c4->a4",
            "a4->d4",
            "d4->a4",
            "b4->d4",
            "d4->b4",
            "g6->i6",
            "i6->g6",
        ),
        hint=N_("Row 4 holds four aligned cubes, row 6 three."),
        hint_cells=("a4", "b4", "c4", "d4", "g6", "h6", "i6"),
        wrong=N_("East-West can still win on f5 or f6."),
        success=N_("The line is cut: the threat is gone."),
    ),
    LessonStep(
        key="capture",
        title=N_("Distribute and capture"),
        text=N_(
            "Any stack can be distributed by either player: one cube per cell in a straight "
            "line, leaving the stack's cell empty. A single cube that gets a second one is "
            "captured: the pair goes to your reserve."
        ),
        position=_STACK4,
        task=N_("Distribute the stack on f7 so as to capture two cubes."),
        accept=("f7xf6",),
        hint=N_("Which line from f7 crosses two single cubes?"),
        hint_cells=("f7", "f5", "f3"),
        wrong=N_("That captures only one cube."),
        success=N_("Two pairs captured: four cubes in your reserve."),
    ),
    LessonStep(
        key="trouble",
        title=N_("Defend by distributing"),
        text=N_(
            "East-West has just played g4 (v): d5 or d6 would win. A distribution that "
            "captures a cube of the attacking line is also a defence."
        ),
        position=_FOLLOW_3,
        task=N_("Distribute the stack on g6 to cut East-West's line."),
        accept=("g6xf5", "g6xg5"),
        hint=N_("The line passes through f5: capture that cube."),
        hint_cells=("g6", "f5"),
        wrong=N_("East-West's line still holds: it wins next turn."),
        success=N_("The capture cut the line."),
    ),
    LessonStep(
        key="blocus",
        title=N_("Defend by a blocus"),
        text=N_(
            "North-South has just played e5 (v): e7 would carry its chain to row 9 through "
            "f8, g8 and h9. You play East-West: no three of those cubes are aligned and no "
            "stack is on the board."
        ),
        position=_BLOCUS_V,
        task=N_("Place a cube so that e7 would join all four edges."),
        accept=("i8", "i9"),
        hint=N_("Your own line runs from a8 to h9; it lacks e7 and one cube on column i."),
        hint_cells=("h9",),
        wrong=N_("North-South can still win on e7."),
        success=N_("Blocus! e7 would now join your edges too, so North-South cannot play it."),
    ),
    LessonStep(
        key="double-attack",
        title=N_("A double attack"),
        text=N_(
            "You play East-West. From f5 your line splits into two branches, along rows 6 and "
            "4; either one reaches column i, and each could be stacked, but not both at once."
        ),
        position=_DOUBLE,
        task=N_("Announce a voyna that North-South cannot answer."),
        accept=("d5", "d6", "e5"),
        hint=N_("Bring your line one cell closer to f5, so that a single gap remains."),
        hint_cells=("c5", "f5"),
        wrong=N_("North-South can answer that one."),
        success=N_("Whichever branch is cut, the other wins."),
    ),
    LessonStep(
        key="follow-up",
        title=N_("Keep attacking"),
        text=N_(
            "The rules' follow-up attack after three voynas: North-South has just "
            "distributed g6 towards f5, capturing f5 but leaving new cubes on e4 and d3."
        ),
        position=_FOLLOW_4,
        task=N_("Announce a voyna that cannot be stopped."),
        accept=("d6", "f3"),
        hint=N_("Link e4 to g4, as the rules' example does."),
        hint_cells=("e4", "g4"),
        wrong=N_("That leaves North-South a defence."),
        success=N_("No stacking, capture or blocus helps North-South now."),
    ),
    LessonStep(
        key="forcing-blocus",
        title=N_("After the blocus"),
        text=N_(
            "g9 (v) forced North-South to stack c7->e9, breaking its own chain and the "
            "blocus that kept you off d7. The way through the middle is open."
        ),
        position=_FORCED,
        task=N_("Finish with a voyna North-South cannot answer."),
        accept=("c6", "d5", "d7"),
        hint=N_("d7, the cell the blocus kept you off, is free now."),
        hint_cells=("d7",),
        wrong=N_("North-South still has an answer."),
        success=N_("North-South has no defence left."),
    ),
    LessonStep(
        key="exhaustion",
        title=N_("Do not run out of cubes"),
        text=N_(
            "Under the ten-point rules a player left without a cube to place loses at once. "
            "One cube remains in the common reserve and yours is empty."
        ),
        position=_pos(*_EXHAUST_STACK[:1], "ns 1/0/20 -", _TEN),
        task=N_("Stay in the game: capture cubes for your reserve."),
        accept=("d2xc3", "d2xd3", "d2xe2", "d2xe3"),
        hint=N_("Placing the last common cube leaves you with none: use the stack on d2."),
        hint_cells=("d2",),
        wrong=N_("With the common reserve empty and nothing of your own, you lose at once."),
        success=N_("Two cubes in your reserve: you can go on placing."),
    ),
)

LESSON = Lesson(
    title=N_("Learn XoBo"),
    intro=N_(
        "Thirteen short steps on real positions: chains, voyna, stacks, captures, blocus "
        "and the attacks that win."
    ),
    steps=_STEPS,
    final_game="xobo",
    final_text=N_(
        "Now play a whole game of XoBo against the easy computer, with the rules you have "
        "just learned."
    ),
)

TEACHING = Teaching(
    rules=RULES,
    lesson=LESSON,
    summary=N_(
        "A Cold War connection game: join your two edges with a chain of neutral cubes, and "
        "stack or scatter them to parry your opponent's threats."
    ),
)
