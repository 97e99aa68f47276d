"""Voldétour's rules page and tutorial (see :mod:`tablier.core.teaching`).

Written from the seed ``004_eae170e40b1bcb98.txt`` (French) and ``docs/rules/voldetour.md``,
in the project's own words.  The seed's figures were lost; the diagrams recreate the
situations their captions name (fig. 1 the pieces, fig. 3 nested stairs, fig. 4 blocked
pieces, fig. 5 no empty space, fig. 6 facing a slope, fig. 7 chains of slopes).  Every
position is a real one, checked by ``tests/games/voldetour/test_teaching.py``.
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

_SPEC = "voldetour:pieces=default,repetition=False,max_turns=none"
_MINI = "voldetour:pieces=mini,repetition=False,max_turns=none"


def _pos(body: str, spec: str = _SPEC) -> str:
    """A full position string: the game spec, then the body."""
    return f"{spec} {body}"


# -- positions -------------------------------------------------------------------------

_START = _pos("turn=1 lords=b2,i9 black=- white=-")
_PIECES = _pos(
    "turn=1 lords=b2,i9 black=B111@c3:1x1x1,B112@e3:1x1x2,B113@g3:1x1x3,"
    "B122@c7:1x2x2,B123@e7:2x1x3,S@i4:n,S@i4:u,S@h7:n white=-"
)
_ON_PIECES = _pos("turn=1 lords=b2,i9 black=- white=B122@d4:2x2x1")
_NEST = _pos("turn=3 lords=b2,i9 black=B113@c4:1x1x3 white=B113@e4:3x1x1,S@d7:n")
_REUSE = _pos("turn=7 lords=b3,h8 black=B111@d5:1x1x1,B113@b3:1x1x3 white=B111@h8:1x1x1")
_BLOCKED = _pos(
    "turn=7 lords=a5,h5 black=B111@e5:1x1x1,B112@h5:1x1x2,B113@b7:3x1x1,S@g3:n "
    "white=B111@d5:1x1x1,B112@e4:1x1x2,B113@e6:1x1x3,B122@c7+1:2x1x2,S@f5:w"
)
_SUPPORT = _pos("turn=1 lords=b2,i9 black=S@g4:n white=B111@c4:1x1x1,B112@e4:1x2x1")
_HEIGHT = _pos("turn=1 lords=b2,i9 black=B112@e4:1x1x2,B113@d4:1x1x3 white=-")
_LORD = _pos("turn=9 lords=d4,h8 black=B111@d5:1x1x1,B112@e3:1x1x2 white=B113@c4:1x1x3")
_LORDS = _pos("turn=9 lords=b4,d4 black=B113@c3:3x1x1 white=B113@c5:3x1x1")
_SLOPE = _pos("turn=9 lords=c4,h8 black=B122@e4:2x2x1,S@d4:e white=-")
_FLANK = _pos("turn=9 lords=d3,h8 black=B122@e4:2x2x1,S@d4:e white=-")
_CHAIN = _pos("turn=9 lords=c4,h8 black=B111@e4:1x1x1,B112@f4:1x1x2,S@d4:e,S@e4+1:e white=-")
_RIDGE = _pos("turn=9 lords=c7,h8 black=S@d7:e,S@e7:w white=-")
_VALLEY = _pos("turn=9 lords=c7,h8 black=B111@c7:1x1x1,B112@f7:2x1x1,S@d7:w,S@e7:e white=-")
_DOWN = _pos(
    "turn=3 lords=b2,i9 black=B111@b4:1x1x1,B112@b3:1x1x2,S@b3+2:s,S@b4+1:s,S@b5:s white=-"
)
_DEADLINE = _pos("turn=5 lords=b2,i9 black=B111@d4:1x1x1 white=B113@i8:1x1x3")
_CROSS = _pos("turn=9 lords=b3,h8 black=B113@b3:1x1x3,B123@a1:1x2x3 white=-")
_WIN = _pos("turn=15 lords=i8,h5 black=B113@i8:1x1x3 white=-")
_NO_WIN = _pos("turn=5 lords=i8,i9 black=B113@i8:1x1x3 white=B111@a1:1x1x1")
_MINI_START = _pos("turn=1 lords=b2,e5 black=- white=-", _MINI)
_LIMIT = _pos(
    "turn=6 lords=c4,g6 black=B111@a1:1x1x1 white=B111@j1:1x1x1",
    "voldetour:pieces=default,repetition=False,max_turns=6",
)
_REPEAT = _pos(
    "turn=7 lords=c4,g6 black=B111@a1:1x1x1 white=B111@j1:1x1x1 rep=8a1ad1530283aa27",
    "voldetour:pieces=default,repetition=True,max_turns=none",
)

# -- the rules page --------------------------------------------------------------------

_SECTIONS = (
    Section(
        key="material",
        title=N_("Material and set-up"),
        paragraphs=(
            N_(
                "The board has 10 × 10 squares, columns a to j and rows 1 to 10. Two black "
                "squares on a diagonal carry the Towers: Black's on b2, White's on i9. A Tower "
                "never moves and is three levels high."
            ),
            N_(
                "The squares are the reference for everything: each piece covers whole squares, "
                "one level or more high, and the Lord moves from square to square."
            ),
            N_(
                "Each player has a Lord, a Tower and ten building pieces: five Blocks and "
                "five Stairs. The Blocks are cuboids of 1×1×1, 1×1×2, 1×1×3, 1×2×2 and 1×2×3 "
                "units, named B111, B112, B113, B122 and B123. A Stair is a wedge filling half "
                "a unit: its slope joins one level to the next."
            ),
            N_(
                "At the start each Lord stands on its own Tower and every building piece waits "
                "in its owner's reserve, beside the board."
            ),
            N_(
                "The seed gives ten building pieces per player but showed their shapes only in "
                "figures that were lost: this split and these sizes are the project's reading."
            ),
            N_(
                "The seed's board also has four red squares for an expansion whose rules it "
                "does not give: they play no part here."
            ),
        ),
        diagrams=(
            Diagram(
                position=_START,
                caption=N_("The start: each Lord on its Tower, b2 for Black, i9 for White."),
                highlights=("b2", "i9"),
            ),
            Diagram(
                position=_PIECES,
                caption=N_("Black's pieces laid out on the board."),
                steps=(
                    Step(N_("B111: a single unit."), highlights=("c3",)),
                    Step(N_("B112: two units, here standing."), highlights=("e3",)),
                    Step(
                        N_("B113: three units, standing as high as a Tower."),
                        highlights=("g3",),
                    ),
                    Step(
                        N_("B122: 1 × 2 × 2, here a wall two squares long and two high."),
                        highlights=("c7", "c8"),
                    ),
                    Step(
                        N_("B123: the largest, 1 × 2 × 3, here upright."), highlights=("e7", "f7")
                    ),
                    Step(
                        N_("A Stair: a slope rising one level, here towards the north."),
                        highlights=("h7",),
                    ),
                    Step(
                        N_("Two Stairs nested slope against slope make one flat unit."),
                        highlights=("i4",),
                    ),
                ),
            ),
        ),
        source=N_(
            "Rule text 004, “Matériel et mise en place”, fig. 1; "
            "docs/rules/voldetour.md, P-1 to P-4"
        ),
    ),
    Section(
        key="turn",
        title=N_("A turn"),
        paragraphs=(
            N_("Black starts, then the players take turns."),
            N_(
                "A turn has up to three actions, at least one: place a Block, place a Stair, "
                "move your Lord by one, two or three squares. The Block and the Stair come in "
                "either order, but nothing may be placed once the Lord has moved: the Lord's "
                "move ends the turn."
            ),
            N_(
                "To place a piece, first take it (from your reserve, or a piece of yours "
                "already on the board), then put it. A player who stops after one or two actions "
                "says so by ending the turn."
            ),
            N_(
                "A player who cannot do anything at all must pass; when both players pass one "
                "after the other, the game is drawn. The seed does not say this: it is the "
                "project's choice."
            ),
        ),
        diagrams=(
            Diagram(
                position=_START,
                caption=N_("Black's first turn, with all three actions."),
                steps=(
                    Step(N_("Black takes the Block B113 from the reserve…"), move="B113"),
                    Step(
                        N_("…and stands it on b3, as high as the Tower."),
                        move="B113@b3:1x1x3",
                        highlights=("b3",),
                    ),
                    Step(N_("Then a Stair…"), move="S"),
                    Step(
                        N_("…put on c3, rising towards the west."),
                        move="S@c3:w",
                        highlights=("c3",),
                    ),
                    Step(
                        N_(
                            "Last, the Lord steps onto the Block. Its move ends the turn: "
                            "White plays."
                        ),
                        move="Lb2-b3",
                        arrows=(("b2", "b3"),),
                    ),
                ),
            ),
        ),
        source=N_(
            "Rule text 004, “Déroulement d'une partie”; "
            "docs/rules/voldetour.md, R-1 to R-3, I-1, D-1"
        ),
    ),
    Section(
        key="placing",
        title=N_("Placing pieces, on the board or on pieces"),
        paragraphs=(
            N_(
                "A piece goes on the board, touching other pieces or not, or on top of pieces, "
                "your opponent's as well as yours."
            ),
            N_(
                "A Block may lie or stand in any direction. A Stair keeps its slope to the sky, "
                "unless it is turned upside down and nested on another Stair, slope against "
                "slope: the pair then fills the unit and gives a flat top."
            ),
            N_(
                "The piece you place comes from your reserve, or is one of your own pieces already "
                "in play that you move somewhere else. Nothing ever goes back to the reserve."
            ),
        ),
        diagrams=(
            Diagram(
                position=_ON_PIECES,
                caption=N_("White's Block B122 lies flat on d4–e5."),
                highlights=("d4", "e4", "d5", "e5"),
                steps=(
                    Step(N_("Black takes B111…"), move="B111"),
                    Step(
                        N_("…and puts it on White's Block: building on the opponent is allowed."),
                        move="B111@d4+1:1x1x1",
                        highlights=("d4",),
                    ),
                ),
            ),
            Diagram(
                position=_NEST,
                caption=N_(
                    "The same kind of Block standing (Black's B113 on c4) or lying "
                    "(White's on e4–g4)."
                ),
                highlights=("c4", "e4", "f4", "g4"),
                steps=(
                    Step(N_("Black takes a Stair…"), move="S"),
                    Step(
                        N_("…and nests it upside down on White's Stair: a flat unit."),
                        move="S@d7:u",
                        highlights=("d7",),
                    ),
                ),
            ),
            Diagram(
                position=_REUSE,
                caption=N_("Black's Block B111 is already on d5."),
                highlights=("d5",),
                steps=(
                    Step(N_("Black lifts it…"), move="B111"),
                    Step(
                        N_(
                            "…and puts it on c3: a piece in play can move, but never back to "
                            "the reserve."
                        ),
                        move="B111@c3:1x1x1",
                        arrows=(("d5", "c3"),),
                    ),
                ),
            ),
        ),
        source=N_(
            "Rule text 004, “Placement des pièces de construction”, fig. 3; "
            "docs/rules/voldetour.md, R-4 to R-6, I-2, I-3"
        ),
    ),
    Section(
        key="blocked",
        title=N_("Blocked pieces"),
        paragraphs=(
            N_(
                "A building piece is blocked, and cannot be moved, when another building piece "
                "or a Lord is on it, or when it is surrounded on all four sides so that its "
                "vertical faces are completely hidden."
            ),
            N_(
                "Pieces of both colours hide a face; the edge of the board and the Towers do not. "
                "A Stair hides the whole face only with its high side; its low side hides nothing."
            ),
        ),
        diagrams=(
            Diagram(
                position=_BLOCKED,
                caption=N_(
                    "Black to play: of Black's pieces on the board, only the Stair on g3 may move."
                ),
                highlights=("g3",),
                marks=("e5", "b7", "h5"),
                steps=(
                    Step(
                        N_("B113 on b7–d7 is under White's Block B122."),
                        highlights=("c7", "d7"),
                        marks=("b7",),
                    ),
                    Step(N_("B112 on h5 carries White's Lord."), marks=("h5",)),
                    Step(
                        N_(
                            "B111 on e5 is hidden on four sides: Blocks on d5, e4, e6 and the "
                            "high side of a Stair on f5."
                        ),
                        highlights=("d5", "e4", "e6", "f5"),
                        marks=("e5",),
                    ),
                ),
            ),
        ),
        source=N_(
            "Rule text 004, “Placement des pièces de construction”, fig. 4; "
            "docs/rules/voldetour.md, R-9, R-10, I-6"
        ),
    ),
    Section(
        key="support",
        title=N_("No empty space below"),
        paragraphs=(
            N_(
                "There may be no empty space under a building piece: every part of its "
                "underside rests on the board or on a flat top. A slope carries nothing, "
                "except a Stair nested on it upside down."
            ),
            N_("A Tower or a square where a Lord stands never takes a piece."),
        ),
        diagrams=(
            Diagram(
                position=_SUPPORT,
                caption=N_(
                    "A Block lying across c4–e4 one level up would float over d4; nothing can "
                    "be put on the slope at g4."
                ),
                highlights=("c4", "e4"),
                marks=("d4", "g4"),
                steps=(
                    Step(N_("Black fills the gap with B111…"), move="B111"),
                    Step(N_("…on d4."), move="B111@d4:1x1x1", highlights=("d4",)),
                    Step(N_("Black ends the turn."), move="end"),
                    Step(N_("White takes B113…"), move="B113"),
                    Step(
                        N_("…and can now lay it across c4–e4, resting on three Blocks."),
                        move="B113@c4+1:3x1x1",
                        highlights=("c4", "d4", "e4"),
                    ),
                ),
            ),
        ),
        source=N_(
            "Rule text 004, “Placement des pièces de construction”, fig. 5; "
            "docs/rules/voldetour.md, R-8, I-4, I-5"
        ),
    ),
    Section(
        key="height",
        title=N_("Height limit"),
        paragraphs=(
            N_(
                "No building may rise higher than a Tower: three levels. A column three high is "
                "full."
            ),
        ),
        diagrams=(
            Diagram(
                position=_HEIGHT,
                caption=N_("d4 is already three high: nothing more goes on it. e4 is two high."),
                marks=("d4",),
                highlights=("e4",),
                steps=(
                    Step(N_("Black takes B111…"), move="B111"),
                    Step(
                        N_("…and tops e4 with it: three high, as high as the Tower."),
                        move="B111@e4+2:1x1x1",
                        highlights=("e4",),
                    ),
                ),
            ),
        ),
        source=N_(
            "Rule text 004, “Placement des pièces de construction”; docs/rules/voldetour.md, R-7"
        ),
    ),
    Section(
        key="lord",
        title=N_("The Lord's moves"),
        paragraphs=(
            N_(
                "The Lord stands and moves on the board, on building pieces of either colour, or "
                "on its Tower at the start. It moves one, two or three squares forwards, "
                "backwards, left or right, never diagonally, and may turn between squares."
            ),
            N_(
                "Without a slope the Lord only steps to a square of the same height. The two Lords "
                "may never share a square nor pass over each other."
            ),
        ),
        diagrams=(
            Diagram(
                position=_LORD,
                caption=N_(
                    "Every square Black's Lord can reach from d4: the Blocks on c4, d5 and e3 "
                    "are too high to step onto."
                ),
                highlights=(
                    "d1",
                    "c2",
                    "d2",
                    "e2",
                    "b3",
                    "c3",
                    "d3",
                    "f3",
                    "e4",
                    "f4",
                    "g4",
                    "e5",
                    "f5",
                    "e6",
                ),
                marks=("c4", "d5", "e3"),
                steps=(
                    Step(
                        N_("Three squares with two turns: d4, e4, e5, e6."),
                        move="Ld4-e4-e5-e6",
                        arrows=(("d4", "e4"), ("e4", "e5"), ("e5", "e6")),
                    ),
                ),
            ),
            Diagram(
                position=_LORDS,
                caption=N_(
                    "White's Lord on d4 bars the way: Black's Lord on b4 cannot cross it to "
                    "reach e4."
                ),
                highlights=("c4",),
                marks=("d4", "e4"),
            ),
        ),
        source=N_(
            "Rule text 004, “Déplacement du Seigneur”; "
            "docs/rules/voldetour.md, R-11, R-12, R-15, I-7"
        ),
    ),
    Section(
        key="slopes",
        title=N_("Slopes"),
        paragraphs=(
            N_(
                "A slope joins two squares at different heights and lets the Lord change level. "
                "Crossing a slope costs no step: the Lord goes from the square before it to the "
                "square beyond it in one step."
            ),
            N_(
                "The Lord must face the slope to use it, coming from its low side to climb or "
                "from its high side to go down. It never enters a slope from the side and never "
                "stops on one."
            ),
        ),
        diagrams=(
            Diagram(
                position=_SLOPE,
                caption=N_("A Stair on d4 rises east to the Block B122 on e4–f5."),
                arrows=(("c4", "e4"),),
                highlights=("d4",),
                steps=(
                    Step(
                        N_("One step up the slope, two more on the Block: c4, e4, e5, f5."),
                        move="Lc4-e4-e5-f5",
                        arrows=(("c4", "e4"), ("e4", "e5"), ("e5", "f5")),
                    ),
                ),
            ),
            Diagram(
                position=_FLANK,
                caption=N_(
                    "From d3 the Lord would meet the slope from the side: it cannot go up there."
                ),
                marks=("d4",),
                steps=(
                    Step(
                        N_("It goes round to face the slope: d3, c3, c4, then up to e4."),
                        move="Ld3-c3-c4-e4",
                        arrows=(("d3", "c3"), ("c3", "c4"), ("c4", "e4")),
                    ),
                ),
            ),
        ),
        source=N_(
            "Rule text 004, “Déplacement du Seigneur”, fig. 6; docs/rules/voldetour.md, R-13, I-8"
        ),
    ),
    Section(
        key="chains",
        title=N_("Chains of slopes"),
        paragraphs=(
            N_(
                "Slopes set end to end in a straight line, each starting where the previous one "
                "ends, make a continuous path: the Lord crosses the whole chain in one step, up, "
                "down, over a ridge or through a valley, and lands on the first flat square beyond."
            ),
        ),
        diagrams=(
            Diagram(
                position=_CHAIN,
                caption=N_("Two slopes climb two levels, from c4 to the top of f4."),
                highlights=("d4", "e4"),
                steps=(Step(N_("One step: c4 to f4."), move="Lc4-f4", arrows=(("c4", "f4"),)),),
            ),
            Diagram(
                position=_DOWN,
                caption=N_("Three slopes lead down from Black's Tower to the board."),
                highlights=("b3", "b4", "b5"),
                steps=(
                    Step(
                        N_("One step takes the Lord from the Tower to b6, two more to b8."),
                        move="Lb2-b6-b7-b8",
                        arrows=(("b2", "b6"), ("b6", "b7"), ("b7", "b8")),
                    ),
                ),
            ),
            Diagram(
                position=_RIDGE,
                caption=N_("A ridge: up the slope on d7, down the slope on e7."),
                highlights=("d7", "e7"),
                steps=(Step(N_("One step: c7 to f7."), move="Lc7-f7", arrows=(("c7", "f7"),)),),
            ),
            Diagram(
                position=_VALLEY,
                caption=N_("A valley: down from c7, up again to f7."),
                highlights=("d7", "e7"),
                steps=(Step(N_("One step: c7 to f7."), move="Lc7-f7", arrows=(("c7", "f7"),)),),
            ),
        ),
        source=N_(
            "Rule text 004, “Déplacement du Seigneur”, fig. 7; docs/rules/voldetour.md, R-14, I-9"
        ),
    ),
    Section(
        key="tower",
        title=N_("Leaving the Tower in time"),
        paragraphs=(
            N_(
                "Your Lord must leave its Tower by the end of your third turn, or you lose. Later "
                "it may cross its own Tower during a move, but never stop on it."
            ),
        ),
        diagrams=(
            Diagram(
                position=_DEADLINE,
                caption=N_("Black's third turn, and the Lord is still on b2."),
                marks=("b2",),
                steps=(
                    Step(N_("Black builds…"), move="B112"),
                    Step(N_("…on f4…"), move="B112@f4:1x1x2"),
                    Step(
                        N_("…and ends the turn with the Lord still on the Tower: Black loses."),
                        move="end",
                        marks=("b2",),
                    ),
                ),
            ),
            Diagram(
                position=_CROSS,
                caption=N_("Black's Lord on b3 may pass over its Tower, not stop there."),
                marks=("b2",),
                steps=(
                    Step(
                        N_("b3, over the Tower b2, to a2."),
                        move="Lb3-b2-a2",
                        arrows=(("b3", "b2"), ("b2", "a2")),
                    ),
                ),
            ),
        ),
        source=N_("Rule text 004, “Déplacement du Seigneur”; docs/rules/voldetour.md, R-16, I-10"),
    ),
    Section(
        key="win",
        title=N_("Winning"),
        paragraphs=(
            N_(
                "The first player whose Lord stops on the enemy Tower wins at once. While the "
                "enemy Lord is still on its Tower, nobody can land there."
            ),
        ),
        diagrams=(
            Diagram(
                position=_WIN,
                caption=N_("Black's Lord stands on B113 at i8, as high as White's Tower."),
                arrows=(("i8", "i9"),),
                steps=(
                    Step(N_("It steps onto i9: Black wins."), move="Li8-i9", highlights=("i9",)),
                ),
            ),
            Diagram(
                position=_NO_WIN,
                caption=N_("White's Lord has not left i9 yet: Black cannot land on it."),
                marks=("i9",),
            ),
        ),
        source=N_(
            "Rule text 004, “But du jeu” and “Fin de la partie”; docs/rules/voldetour.md, R-17, D-2"
        ),
    ),
    Section(
        key="mini",
        title=N_("The mini set"),
        paragraphs=(
            N_(
                "For quick games: a 6 × 6 board, Towers two levels high on b2 and e5, and three "
                "Blocks (B111, B112, B122) and three Stairs each. Every other rule is the same."
            ),
        ),
        diagrams=(
            Diagram(
                position=_MINI_START,
                caption=N_("The mini board at the start."),
                highlights=("b2", "e5"),
                steps=(
                    Step(N_("Black takes B112…"), move="B112"),
                    Step(N_("…stands it on b3, as high as the Tower…"), move="B112@b3:1x1x2"),
                    Step(
                        N_("…and the Lord steps down onto it."),
                        move="Lb2-b3",
                        arrows=(("b2", "b3"),),
                    ),
                ),
            ),
        ),
        variant=N_("Mini set — 6 × 6, not from the seed"),
        source=N_("Not in rule text 004; docs/rules/voldetour.md, options (pieces)"),
    ),
    Section(
        key="draws",
        title=N_("Draw options: repetition and turn limit"),
        paragraphs=(
            N_(
                "The seed knows no draw. Two options can end long games: with repetition on, the "
                "game is drawn when the same position starts a turn for the third time; with a "
                "turn limit, it is drawn once that many turns have been played."
            ),
            N_(
                "Taking a piece from a reserve can never be undone, so positions before it are not "
                "counted again."
            ),
        ),
        diagrams=(
            Diagram(
                position=_REPEAT,
                caption=N_("With repetition on, both Lords walk back and forth."),
                steps=(
                    Step(move="Lc4-c5", caption=N_("Black: c4 to c5.")),
                    Step(move="Lg6-g7", caption=N_("White: g6 to g7.")),
                    Step(move="Lc5-c4", caption=N_("Black back to c4.")),
                    Step(
                        move="Lg7-g6", caption=N_("White back to g6: the position has come twice.")
                    ),
                    Step(move="Lc4-c5", caption=N_("Black: c4 to c5.")),
                    Step(move="Lg6-g7", caption=N_("White: g6 to g7.")),
                    Step(move="Lc5-c4", caption=N_("Black back to c4.")),
                    Step(move="Lg7-g6", caption=N_("The third time: the game is drawn.")),
                ),
            ),
            Diagram(
                position=_LIMIT,
                caption=N_("A game with a limit of 6 turns: White plays the sixth."),
                steps=(
                    Step(
                        N_("White's Lord moves; the sixth turn ends and the game is drawn."),
                        move="Lg6-g7",
                    ),
                ),
            ),
        ),
        variant=N_("Draw options — not in the seed"),
        source=N_("Not in rule text 004; docs/rules/voldetour.md, options, D-3, D-4"),
    ),
)

RULES = RulesPage(
    title=N_("Voldétour rules"),
    intro=(
        N_(
            "Voldétour is a race in three dimensions for two players. Each builds paths of "
            "Blocks and Stairs, on the board and on top of any piece, and walks a Lord along "
            "them: the first Lord to stand on the enemy Tower wins."
        ),
        N_(
            "Attack by building a path, on your opponent's pieces too, and by moving your Lord "
            "forward; defend by blocking your opponent's pieces and standing in the way of "
            "their Lord."
        ),
    ),
    sections=_SECTIONS,
)

# -- the tutorial ----------------------------------------------------------------------

_STEPS = (
    LessonStep(
        key="build",
        title=N_("Build beside your Tower"),
        text=N_(
            "Your Lord stands on its Tower on b2, three levels up, and can only step onto a "
            "square of the same height. A turn is up to three actions: place a Block, place a "
            "Stair, move the Lord. To place a piece, take it from your reserve, then put it."
        ),
        position=_START,
        task=N_(
            "Take the tall Block B113, stand it on a square next to your Tower, then end your turn."
        ),
        accept=("B113",),
        then=(
            ("B113@b1:1x1x3", "B113@a2:1x1x3", "B113@c2:1x1x3", "B113@b3:1x1x3"),
            ("end",),
        ),
        hint=N_("Take B113, put it upright (1 × 1 × 3) on a2, b1, b3 or c2, then press End turn."),
        hint_cells=("a2", "b1", "b3", "c2"),
        wrong=N_("Not that: stand B113 upright right next to b2, then end the turn."),
        success=N_("A column three high beside your Tower: a way down for your Lord."),
    ),
    LessonStep(
        key="step-off",
        title=N_("Step off the Tower"),
        text=N_(
            "Your Lord must leave its Tower by the end of your third turn, or you lose. The "
            "Block on b3 is as high as the Tower, so the Lord can walk onto it."
        ),
        position=_pos("turn=3 lords=b2,i9 black=B113@b3:1x1x3 white=B113@i8:1x1x3"),
        task=N_("Move your Lord off the Tower onto your Block."),
        accept=("Lb2-b3",),
        hint=N_("Click your Lord, then b3."),
        hint_cells=("b2", "b3"),
        wrong=N_("The Lord has to leave its Tower: walk it onto the Block on b3."),
        success=N_("Off the Tower. The Lord's move ends the turn."),
    ),
    LessonStep(
        key="climb",
        title=N_("Climb a slope"),
        text=N_(
            "Without a slope the Lord cannot change height. A Stair's slope joins two levels; "
            "crossing it costs no step, but the Lord must face it, coming from its low side."
        ),
        position=_pos("turn=9 lords=c4,h8 black=B122@e4:2x2x1 white=B111@h8:1x1x1"),
        task=N_(
            "Put a Stair so that your Lord can climb onto the flat Block B122, then walk up "
            "onto it."
        ),
        accept=("S",),
        then=(
            ("S@d4:e", "S@d5:e"),
            (
                "Lc4-e4",
                "Lc4-e4-e5",
                "Lc4-e4-e5-f5",
                "Lc4-e4-f4",
                "Lc4-c5-e5",
                "Lc4-c5-e5-e4",
                "Lc4-c5-e5-f5",
            ),
        ),
        hint=N_("Take a Stair and put it on d4 rising towards the east, then move the Lord to e4."),
        hint_cells=("d4", "e4"),
        wrong=N_(
            "The slope must lie between the Lord's side and the Block, rising towards the Block."
        ),
        success=N_("Up the slope in a single step: the slope itself is not counted."),
    ),
    LessonStep(
        key="chain",
        title=N_("Down a chain of slopes, in time"),
        text=N_(
            "This is your third turn and your Lord is still on its Tower: if it is there when "
            "the turn ends, you lose. Slopes set end to end make one path, crossed in a single "
            "step; one is missing."
        ),
        position=_pos(
            "turn=5 lords=b2,i9 black=B111@b4:1x1x1,B112@b3:1x1x2,S@b3+2:s,S@b4+1:s "
            "white=B113@i8:1x1x3"
        ),
        task=N_("Put a Stair so that your Lord can leave the Tower, then get your Lord off it."),
        accept=("S",),
        then=(
            ("S@b5:s", "S@b4+1:u", "S@b3+2:u"),
            (
                "Lb2-b6",
                "Lb2-b4",
                "Lb2-b3",
                "Lb2-b6-a6",
                "Lb2-b6-a6-a5",
                "Lb2-b6-b7",
                "Lb2-b6-b7-a7",
                "Lb2-b6-b7-b8",
                "Lb2-b6-b7-c7",
                "Lb2-b6-c6",
                "Lb2-b6-c6-c5",
                "Lb2-b6-c6-d6",
            ),
        ),
        hint=N_("A Stair on b5 rising towards the south ends the chain on the board at b6."),
        hint_cells=("b5", "b6"),
        wrong=N_("Your Lord must get off the Tower this turn: finish the path down first."),
        success=N_("Three slopes, one step: your Lord is safely off its Tower."),
    ),
    LessonStep(
        key="on-pieces",
        title=N_("Build on any piece"),
        text=N_(
            "Pieces go on the board or on top of other pieces, your opponent's too. Nothing may "
            "hang over empty space: every square under a piece must be filled."
        ),
        position=_pos("turn=9 lords=c4,h8 black=- white=B111@h8:1x1x1,B122@d4:2x2x1"),
        task=N_("Put your Block B112 on top of White's flat Block B122."),
        accept=("B112",),
        then=(
            (
                "B112@d4+1:1x1x2",
                "B112@e4+1:1x1x2",
                "B112@d5+1:1x1x2",
                "B112@e5+1:1x1x2",
                "B112@d4+1:1x2x1",
                "B112@e4+1:1x2x1",
                "B112@d4+1:2x1x1",
                "B112@d5+1:2x1x1",
            ),
        ),
        hint=N_("Take B112 and put it one level up on d4, d5, e4 or e5, within the white Block."),
        hint_cells=("d4", "e4", "d5", "e5"),
        wrong=N_("The Block must rest on White's Block, nowhere over empty space."),
        success=N_("Black on White: building on your opponent's pieces is allowed."),
    ),
    LessonStep(
        key="support",
        title=N_("Fill the gap"),
        text=N_(
            "Your Lord stands one level up on c4, but d4 is empty: it cannot go on. No piece "
            "may leave empty space under it, so a long Block cannot bridge the gap at that "
            "height: fill it from the board up."
        ),
        position=_pos("turn=9 lords=c4,h8 black=- white=B111@c4:1x1x1,B112@e4:1x2x1"),
        task=N_("Fill d4 up to the first level with a Block, then walk your Lord to e4."),
        accept=("B111", "B112", "B113"),
        then=(
            (
                "B111@d4:1x1x1",
                "B112@d3:1x2x1",
                "B112@d4:1x2x1",
                "B113@d2:1x3x1",
                "B113@d3:1x3x1",
                "B113@d4:1x3x1",
            ),
            ("Lc4-d4-e4",),
        ),
        hint=N_("Put the cube B111 on d4 (or lay a longer Block flat through d4)."),
        hint_cells=("d4",),
        wrong=N_("d4 must become one level high, like c4 and e4, before the Lord can cross."),
        success=N_("The gap is filled, and the Lord walks across on the first level."),
    ),
    LessonStep(
        key="height",
        title=N_("Not higher than the Tower"),
        text=N_(
            "Nothing may rise above the Towers' height: three levels. The column on d4 is full; "
            "the one on e4 is two high."
        ),
        position=_HEIGHT,
        task=N_("Put the cube B111 as high as the rules allow."),
        accept=("B111",),
        then=(("B111@e4+2:1x1x1",),),
        hint=N_("Only e4 can still take one more level."),
        hint_cells=("e4",),
        wrong=N_("Higher: put it on top of the column two high."),
        success=N_("e4 is now as high as a Tower: full."),
    ),
    LessonStep(
        key="nest",
        title=N_("Block a Stair by nesting"),
        text=N_(
            "A slope carries nothing, except another Stair turned upside down and nested on it, "
            "slope against slope: the pair makes a flat unit. A piece with something on it is "
            "blocked: its owner can no longer move it."
        ),
        position=_pos("turn=9 lords=c3,h8 black=B111@c4:1x1x1 white=B111@h8:1x1x1,S@e5:w"),
        task=N_("Block White's Stair on e5 by nesting one of your Stairs on it."),
        accept=("S",),
        then=(("S@e5:u",),),
        hint=N_("Take a Stair and put it upside down on e5."),
        hint_cells=("e5",),
        wrong=N_("Put your Stair upside down on White's Stair at e5."),
        success=N_("White's Stair is blocked, and e5 is now flat."),
    ),
    LessonStep(
        key="blocked",
        title=N_("Blocked pieces"),
        text=N_(
            "You may move one of your pieces already in play instead of taking one from the "
            "reserve, but not a blocked one: a piece with a piece or a Lord on it, or one hidden "
            "on all four sides."
        ),
        position=_BLOCKED,
        task=N_("Lift the only piece of yours on the board that can still move."),
        accept=("Sg3",),
        hint=N_("B113 is under a white Block, B112 under White's Lord, B111 walled in."),
        hint_cells=("g3",),
        wrong=N_("That is not one of your free pieces on the board: look for the Stair."),
        success=N_("The Stair on g3 is free: you could now put it anywhere it fits."),
    ),
    LessonStep(
        key="cross",
        title=N_("Across your own Tower"),
        text=N_(
            "Once it has left, your Lord may pass over its own Tower during a move, but never "
            "stop on it."
        ),
        position=_CROSS,
        task=N_("Move your Lord onto the tall Block on a1–a2."),
        accept=("Lb3-b2-a2", "Lb3-b2-a2-a1"),
        hint=N_("Go through b2: the Tower is as high as both Blocks."),
        hint_cells=("b2", "a2"),
        wrong=N_("Your Lord should end on a1 or a2, crossing its Tower on the way."),
        success=N_("Over the Tower without stopping on it."),
    ),
    LessonStep(
        key="lords",
        title=N_("The other Lord is in the way"),
        text=N_(
            "The two Lords never share a square and never pass over each other: a Lord in the "
            "way must be walked round."
        ),
        position=_pos("turn=9 lords=c4,d4 black=B111@a1:1x1x1 white=B111@j1:1x1x1"),
        task=N_("Move your Lord to e5."),
        accept=("Lc4-c5-d5-e5",),
        hint=N_("Go round White's Lord, through c5 and d5."),
        hint_cells=("c5", "d5", "e5"),
        wrong=N_("Your Lord should end on e5, going round White's Lord."),
        success=N_("Round the other Lord in three steps."),
    ),
    LessonStep(
        key="win",
        title=N_("Onto the enemy Tower"),
        text=N_(
            "The first Lord to stop on the enemy Tower wins. White's Lord has left i9 and your "
            "Lord stands two levels up on i7, next to a column two high on i8."
        ),
        position=_pos("turn=15 lords=i7,e5 black=B112@i8:1x1x2,B122@i6:1x2x2 white=-"),
        task=N_("Put a Stair so that your Lord can climb onto White's Tower, then win."),
        accept=("S",),
        then=(("S@i8+2:n",), ("Li7-i9",)),
        hint=N_("A Stair on top of i8, rising north, reaches the Tower's height."),
        hint_cells=("i8", "i9"),
        wrong=N_("Build the last slope on i8 so that it rises towards i9, then walk up."),
        success=N_("Your Lord is on White's Tower: you win!"),
    ),
)

LESSON = Lesson(
    title=N_("Learn Voldétour"),
    intro=N_(
        "Twelve short steps, each a real position: build, climb, block, and reach the enemy "
        "Tower. You play Black."
    ),
    steps=_STEPS,
    final_game="voldetour:pieces=mini",
    final_text=N_(
        "Now play a whole game against the easy computer on the mini set: a 6 × 6 board with "
        "Towers two levels high."
    ),
)

TEACHING = Teaching(
    rules=RULES,
    lesson=LESSON,
    summary=N_(
        "A race in three dimensions: build paths of Blocks and Stairs and walk your Lord to "
        "the enemy Tower."
    ),
)
