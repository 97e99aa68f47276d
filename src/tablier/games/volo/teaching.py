"""Volo's rules page and tutorial (:class:`~tablier.core.teaching.Teaching`).

Written from the rule texts in ``shared/seeds/`` (000 French 2010 edition, 002
Japanese, 003 English) and ``docs/rules/volo.md``, in the project's own words.  Every
diagram is a real position, built with the engine and checked by
``tests/games/volo/test_teaching.py``; the situations of the seeds' lost figures are
recreated from their captions (figure numbers of seed 000).  Texts are English message
ids; their translations live in ``locale/{fr,ja}/LC_MESSAGES/volo.po``.
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

_STANDARD = "volo:board=standard,edition=current,setup=nests,supply=60 "


def _cells(text: str) -> tuple[str, ...]:
    """Cell labels written one after another, separated by spaces."""
    return tuple(text.split())


# The start of a game on the standard sky.
INITIAL = _STANDARD + "5/1o4b1/9/10/11/12/b8o/12/11/10/9/1o4b1/5 o 57 57 0"
# Figure 3: where Orange may add a bird (Blue's wall closes the corner l12, l13, m12).
PLACEMENT = _STANDARD + "3b1/1o3b2/6bbb/10/11/12/b8o/4o7/11/10/9/1o4b1/5 o 56 53 0"
# Figure 4: the Orange bird on f5 has eight flights.
FLIGHT = _STANDARD + "5/5b2/9/8o1/11/5o6/b9/9o2/5o5/10/2o6/6b1/5 o 55 57 0"
# Figure 5: the line j8-k9-l10 has five flights.
LINE = _STANDARD + "3o1/8/9/5o2o1/8o2/7bob2/b9/12/11/10/3o5/6b1/5 o 54 56 0"
# Figure 6: the flock d4, d5, e5, e6 has one flight, a rearrangement.
REARRANGE = _STANDARD + "5/6b1/9/10/8o2/12/b9/4o7/3oo6/3o6/5o3/6b1/5 o 54 57 0"
# Figures 7 and 8: e5-b2 cuts Blue into three regions; Orange chooses one to keep.
REGIONS = _STANDARD + "5/8/9/1b5b2/7o3/12/o9/1o10/1o2o6/bo8/1o5b1/b1o5/bo3 o 51 54 0"
# Figure 10 (seed 002): Blue's winning flight also cuts Orange apart.
WINNING = _STANDARD + "5/8/9/1o5o2/11/12/b9/1b10/1b2b6/ob8/1b5o1/o1b5/ob3 b 54 52 0"
# Orange to play, can win in one flight (the tutorial's version of WINNING).
WIN = _STANDARD + "5/8/9/1b5b2/11/12/o9/1o10/1o2o6/bo8/1o5b1/b1o5/bo3 o 52 54 0"
# Figures 10 and 11 (seed 000): Blue threatens c5-g5; Orange blocks the path.
BLOCK = _STANDARD + "5/1o6/9/10/2o8/12/9o/8b3/2b4bb2/10/9/1o6/5 o 56 56 0"
# Figure 9 (seed 002), on the mini sky: Orange can do nothing; Blue could add birds only
# in a region of its own, and has no flight.  Both pass: a draw.
PASS = (
    "volo:board=mini,edition=current,setup=nests,supply=50 "
    "4/7/bb6/b1bb5/1ooobb4/1bobb3/1bo1b5/oo1b5/1bbb4/1ob1bb1/bbb1 o 42 28 0"
)
# The same after Orange's pass: Blue to play, and Blue may pass.
PASS_BLUE = (
    "volo:board=mini,edition=current,setup=nests,supply=50 "
    "4/7/bb6/b1bb5/1ooobb4/1bobb3/1bo1b5/oo1b5/1bbb4/1ob1bb1/bbb1 b 42 28 1"
)
# Blue's region of its own in PASS: where Blue could still add a bird.
_BLUE_OWN = _cells(
    "h3 f4 g4 h4 i4 h5 i5 j5 i6 j6 i7 j7 k7 i8 j8 k8 h9 i9 j9 k9 "
    "g10 h10 i10 j10 k10 g11 h11 i11 j11"
)
# 2010 edition: neither side can add a bird or fly; the last to act wins.
PASS_2010 = (
    "volo:board=standard,edition=2010,setup=nests,supply=60 2o2/2oooo2/o1o1o1o1o/1oo4ooo/"
    "1o1o2o2o1/1o1oooo2ooo/o3o3o1/o2o1o1ooo2/o1oo2o2oo/2o2oobbb/2oooboob/oo1bbb2/1boo1 b 6 51 0"
)
# The mini sky (seed 002), with its nests, and the centre start.
_MINI = "volo:board=mini,edition=current,setup=nests,supply=50 "
MINI = _MINI + "4/1o3b1/8/9/10/b6o/10/9/8/1o3b1/4 o 47 47 0"
CENTRE = _MINI.replace("nests", "centre") + "4/7/8/9/4ob4/3bo3/4ob4/9/8/7/4 o 47 47 0"

# Every empty cell of PLACEMENT where Orange may not add a bird.
_FORBIDDEN = _cells(
    "b1 a2 c2 b3 c3 d5 e5 d6 f6 k6 l6 e7 f7 k7 l8 m8 f11 g11 f12 h12 l12 m12 h13 l13"
)
# Every cell of PLACEMENT where Orange may add a bird.
_PLACES = _cells(
    "c1 d1 e1 f1 d2 e2 f2 h2 a3 d3 e3 f3 g3 h3 i3 a4 b4 c4 d4 e4 f4 g4 h4 i4 j4 "
    "a5 b5 c5 f5 g5 h5 i5 j5 k5 a6 b6 c6 g6 h6 i6 j6 c7 d7 h7 i7 j7 "
    "b8 c8 d8 e8 f8 g8 h8 i8 j8 k8 c9 d9 e9 f9 g9 h9 i9 j9 k9 l9 m9 "
    "d10 e10 f10 g10 h10 i10 j10 k10 l10 m10 e11 h11 i11 j11 i12 j12 i13 j13"
)
_FLIGHTS = ("f5-i5", "f5-j5", "f5-k10", "f5-l11", "f5-f7", "f5-f8", "f5-d3", "f5-c2")
_LINE_FLIGHTS = ("j8:l10-j10", "j8:l10-j11", "j8:l10-e3", "j8:l10-d2", "j8:l10-c1")


RULES = RulesPage(
    title=N_("Volo — the rules"),
    intro=(
        N_(
            "Volo is a game for two players by Dieter Stein, inspired by flocking birds. "
            "The players add birds to the sky and let them fly together: the first to "
            "gather all of their birds into a single flock wins."
        ),
        N_(
            "These rules follow the current English rules and the Japanese edition. The "
            "mini sky of the Japanese edition and the pass rule of the 2010 French edition "
            "are described at the end, as variants."
        ),
    ),
    sections=(
        Section(
            key="material",
            title=N_("The sky and the birds"),
            paragraphs=(
                N_(
                    "The board, called the sky, is a hexagon with seven cells on each side "
                    "from which the six corners and the centre have been cut out: 120 cells "
                    "remain. Nothing can stand on the missing cells and no bird flies "
                    "across them."
                ),
                N_(
                    "Each player owns 60 birds, Orange or Blue. Birds that are not in the sky "
                    "wait in their owner's supply."
                ),
                N_(
                    "Cells are named by a column letter and a row number, from a1 at the "
                    "bottom left: rows run across the board, columns slant up to the left."
                ),
            ),
            diagrams=(
                Diagram(
                    position=INITIAL,
                    caption=N_(
                        "The sky at the start: 120 cells around seven holes, the six "
                        "corners and the centre."
                    ),
                ),
            ),
            source=N_("Rule texts 003, 000 and 002 (figure 1); docs/rules/volo.md, R-1, R-2, I-1"),
        ),
        Section(
            key="setup",
            title=N_("Setting up"),
            paragraphs=(
                N_(
                    "Each player puts three birds in the sky, on the nests: the cells one "
                    "step in from the missing corners, the two colours taking turns around "
                    "the board. Orange takes b2, l7 and g12, Blue g2, l12 and b7. The other "
                    "57 birds of each player stay in supply."
                ),
                N_("Orange moves first."),
            ),
            diagrams=(
                Diagram(
                    position=INITIAL,
                    caption=N_("The six nests: three Orange, three Blue."),
                    highlights=("b2", "l7", "g12", "g2", "l12", "b7"),
                ),
            ),
            source=N_("Rule texts 003, 000 and 002 (figure 2); docs/rules/volo.md, R-3, I-3"),
        ),
        Section(
            key="goal",
            title=N_("Flocks and the goal"),
            paragraphs=(
                N_(
                    "A flock is a group of birds of one colour linked from neighbour to "
                    "neighbour. A lone bird is a flock too."
                ),
                N_(
                    "Your goal is to have all of your birds in the sky form one single "
                    "flock, whatever its size, before your opponent does."
                ),
            ),
            diagrams=(
                Diagram(
                    position=LINE,
                    caption=N_(
                        "Orange has four flocks: the line of three on j8, k9 and l10, and "
                        "three lone birds on d3, i10 and k13."
                    ),
                    highlights=("j8", "k9", "l10"),
                    steps=(
                        Step(
                            caption=N_(
                                "One flight later Orange has two flocks: five birds together, "
                                "and the bird on d3 still alone."
                            ),
                            move="j8:l10-j11",
                            highlights=("j11", "k12", "l13", "i10", "k13"),
                        ),
                    ),
                ),
            ),
            source=N_("Rule texts 003, 000 and 002 (objective, flying); docs/rules/volo.md, terms"),
        ),
        Section(
            key="turn",
            title=N_("Playing a turn"),
            paragraphs=(
                N_(
                    "The players take turns, Orange first. On your turn you do one thing: "
                    "add a bird from your supply, or let birds fly. If you can do neither, "
                    "you pass (see Passing)."
                ),
                N_(
                    "Moves are written with cells: e5 adds a bird on e5; e5-e8 flies the "
                    "bird on e5 to e8; e5:e7-f6 flies the line from e5 to e7 so that the "
                    "bird on e5 lands on f6. A move that cuts the opponent's birds apart "
                    "ends with the region kept, as in e5-b2/h3."
                ),
            ),
            diagrams=(
                Diagram(
                    position=INITIAL,
                    caption=N_("Three turns from the start."),
                    steps=(
                        Step(
                            caption=N_("Orange adds a bird on d4."), move="d4", highlights=("d4",)
                        ),
                        Step(caption=N_("Blue adds a bird on i9."), move="i9", highlights=("i9",)),
                        Step(
                            caption=N_(
                                "Orange's bird flies from b2 to c3, next to d4: Orange's "
                                "first flock of two."
                            ),
                            move="b2-c3",
                            highlights=("c3", "d4"),
                        ),
                    ),
                ),
            ),
            source=N_("Rule texts 003, 000 and 002 (play); docs/rules/volo.md, R-4 and notation"),
        ),
        Section(
            key="placement",
            title=N_("Adding a bird"),
            paragraphs=(
                N_(
                    "You may add a bird from your supply on any empty cell, with two "
                    "exceptions: the cell must not touch one of your own birds, and it must "
                    "not lie in a region controlled by your opponent."
                ),
                N_(
                    "A region controlled by your opponent is an area that your opponent's "
                    "birds, with the edge and the holes, have closed off from all of your "
                    "birds: no open path, through empty cells and your own birds, leads from "
                    "it to one of yours."
                ),
                N_("Once your supply is empty you can no longer add birds."),
            ),
            diagrams=(
                Diagram(
                    position=PLACEMENT,
                    caption=N_(
                        "Orange may add a bird on any empty cell without a cross. The "
                        "crossed cells touch an Orange bird, or, like l12, l13 and m12, lie "
                        "in the corner that Blue's wall closes off."
                    ),
                    marks=_FORBIDDEN,
                ),
            ),
            source=N_("Rule texts 003, 000 and 002 (figure 3); docs/rules/volo.md, R-5, I-7, I-8"),
        ),
        Section(
            key="flight",
            title=N_("Flying: one bird"),
            paragraphs=(
                N_(
                    "Instead of adding a bird you may let birds fly. A single bird flies in "
                    "a straight line, in any of the six directions, over empty cells only: "
                    "it never jumps over a bird or a hole."
                ),
                N_(
                    "It must land next to another of your flocks, which grows. On the way "
                    "it may pass beside your birds without stopping, and it need not join "
                    "the nearest flock."
                ),
            ),
            diagrams=(
                Diagram(
                    position=FLIGHT,
                    caption=N_(
                        "The Orange bird on f5 has eight flights: two in each of four "
                        "directions, each ending next to another Orange bird."
                    ),
                    highlights=("f5",),
                    arrows=tuple(("f5", move.split("-")[1]) for move in _FLIGHTS),
                    steps=(
                        Step(
                            caption=N_(
                                "It could stop on f7, beside the bird on g8, but it may go on "
                                "to f8, which touches g8 too."
                            ),
                            move="f5-f8",
                            highlights=("f8", "g8"),
                        ),
                    ),
                ),
            ),
            source=N_("Rule texts 003, 000 and 002 (figure 4); docs/rules/volo.md, R-6, I-9"),
        ),
        Section(
            key="lines",
            title=N_("Flying: a line of birds"),
            paragraphs=(
                N_(
                    "Two or more of your birds on neighbouring cells of a straight line may "
                    "fly together: in file, along their own line, or side by side, in one of "
                    "the four other directions. Every bird of the line moves the same number "
                    "of steps, and every cell crossed must be empty, except the cells the "
                    "line itself leaves."
                ),
                N_(
                    "A line may be only part of a flock or of a longer line. Like a single "
                    "bird, it must land next to another of your flocks."
                ),
            ),
            diagrams=(
                Diagram(
                    position=LINE,
                    caption=N_(
                        "The marked line has five flights: side by side, two or three steps "
                        "up to the left, making a flock of four or five; or in file, down to "
                        "the left, five, six or seven steps, to join the bird on d3. Without "
                        "Blue's bird on i8 it could also fly to the left."
                    ),
                    highlights=("j8", "k9", "l10"),
                    arrows=(("j8", "j10"), ("j8", "j11"), ("j8", "e3"), ("j8", "d2"), ("j8", "c1")),
                    steps=(
                        Step(
                            caption=N_(
                                "In file: the line lands beside d3, and the four birds form "
                                "one flock."
                            ),
                            move="j8:l10-d2",
                            highlights=("d2", "e3", "f4", "d3"),
                        ),
                    ),
                ),
            ),
            source=N_("Rule texts 003, 000 and 002 (figure 5); docs/rules/volo.md, R-7, I-9, I-10"),
        ),
        Section(
            key="rearrange",
            title=N_("Never split a flock; rearranging"),
            paragraphs=(
                N_(
                    "A flock, once formed, may never be split: after a flight, all the birds "
                    "of the flock that flew must still be together."
                ),
                N_(
                    "You may fly only part of a flock, and so rearrange it, as long as the "
                    "flock stays in one piece and grows by joining another flock."
                ),
                N_("A bird that has just been added may have no flight at all."),
            ),
            diagrams=(
                Diagram(
                    position=REARRANGE,
                    caption=N_(
                        "This flock of four has a single flight: its birds on e5 and e6 fly "
                        "two steps down to the right."
                    ),
                    highlights=("d4", "d5", "e5", "e6"),
                    arrows=(("e5", "e3"), ("e6", "e4")),
                    steps=(
                        Step(
                            caption=N_(
                                "The flock stays in one piece and takes in the bird on f3: a "
                                "flock of five."
                            ),
                            move="e5:e6-e3",
                            highlights=("d4", "d5", "e3", "e4", "f3"),
                        ),
                    ),
                ),
            ),
            source=N_("Rule texts 003, 000 and 002 (figure 6); docs/rules/volo.md, R-8, I-11"),
        ),
        Section(
            key="regions",
            title=N_("Regions and the choice to clear"),
            paragraphs=(
                N_(
                    "For each player, an open path runs through empty cells and that "
                    "player's own birds. A region is an area joined by such paths."
                ),
                N_(
                    "When your move cuts your opponent's birds into two or more regions, with "
                    "no open path between them, you choose one region to keep. Your "
                    "opponent's birds in all the other regions fly away and go back to their "
                    "owner's supply. One move may make three regions or more."
                ),
                N_(
                    "Choose with care: if the birds you leave form a single flock, your "
                    "opponent wins at once. Making regions usually helps the opponent more "
                    "than you."
                ),
            ),
            diagrams=(
                Diagram(
                    position=REGIONS,
                    caption=N_(
                        "Orange flies from e5 to b2 and cuts Blue into three regions: A with "
                        "a2 and a4, B with b1 alone, C with the rest of the sky."
                    ),
                    highlights=("a2", "a4", "b1"),
                    arrows=(("e5", "b2"),),
                    steps=(
                        Step(
                            caption=N_(
                                "Orange keeps region C: the Blue birds of A and B go back to "
                                "Blue's supply. Keeping A would let Blue join a2 and a4 on "
                                "the next turn."
                            ),
                            move="e5-b2/h3",
                            highlights=("h3", "e10", "k10"),
                        ),
                    ),
                ),
                Diagram(
                    position=REGIONS,
                    caption=N_("The same flight, keeping region B instead."),
                    highlights=("b1",),
                    arrows=(("e5", "b2"),),
                    steps=(
                        Step(
                            caption=N_(
                                "Blue's only bird left, on b1, is a single flock: Blue wins "
                                "at once."
                            ),
                            move="e5-b2/b1",
                            highlights=("b1",),
                        ),
                    ),
                ),
            ),
            source=N_(
                "Rule texts 003, 000, 002 (figures 7, 8); docs/rules/volo.md, R-9, R-11, I-12–I-15"
            ),
        ),
        Section(
            key="winning",
            title=N_("Winning"),
            paragraphs=(
                N_("You win as soon as all of your birds in the sky form one flock."),
                N_(
                    "Regions come second: if your winning move also cuts your opponent's "
                    "birds apart, you have won and nothing is cleared, so the clearing "
                    "cannot hand your opponent a single flock as well."
                ),
            ),
            diagrams=(
                Diagram(
                    position=WINNING,
                    caption=N_("Blue to play: the bird on e5 can fly to b2."),
                    highlights=("e5",),
                    arrows=(("e5", "b2"),),
                    steps=(
                        Step(
                            caption=N_(
                                "All of Blue's birds form one flock: Blue wins. Orange's "
                                "birds are cut into three regions, but none is cleared."
                            ),
                            move="e5-b2",
                            highlights=("b2",),
                        ),
                    ),
                ),
            ),
            source=N_(
                "Rule texts 003, 000 (figure 9) and 002 (figure 10); docs/rules/volo.md, R-10, I-16"
            ),
        ),
        Section(
            key="example",
            title=N_("A race to one flock"),
            paragraphs=(
                N_(
                    "Adding a bird is also a way to defend: a bird in the path of an enemy "
                    "flight stops it, since birds never jump."
                ),
            ),
            diagrams=(
                Diagram(
                    position=BLOCK,
                    caption=N_(
                        "Blue threatens to fly from c5 to g5, joining its three other birds: a win."
                    ),
                    arrows=(("c5", "g5"),),
                    steps=(
                        Step(
                            caption=N_("Orange adds a bird on e5, in the way."),
                            move="e5",
                            highlights=("e5",),
                            marks=("g5",),
                        ),
                    ),
                ),
            ),
            source=N_(
                "Rule texts 000 and 002 (examples, figures 10 and 11); docs/rules/volo.md, R-5, R-6"
            ),
        ),
        Section(
            key="pass",
            title=N_("Passing"),
            paragraphs=(
                N_("If you can neither add a bird nor fly, you must pass."),
                N_(
                    "You may also choose to pass when no flight is possible and the only "
                    "cells where you could add a bird lie in regions of your own, which your "
                    "opponent can never reach."
                ),
                N_("When both players pass one after the other, the game ends in a draw."),
            ),
            diagrams=(
                Diagram(
                    position=PASS,
                    caption=N_(
                        "On the mini sky, Orange is shut in on the left: it can neither add "
                        "a bird nor fly, and must pass."
                    ),
                    steps=(
                        Step(
                            caption=N_(
                                "Orange passes. Blue has no flight, and could add birds only "
                                "on the lit cells, a region of its own that Orange can never "
                                "reach: Blue may pass too."
                            ),
                            move="pass",
                            highlights=_BLUE_OWN,
                        ),
                        Step(
                            caption=N_("Blue passes: two passes in a row, the game is a draw."),
                            move="pass",
                        ),
                    ),
                ),
            ),
            source=N_("Rule texts 003 and 002 (figure 9); docs/rules/volo.md, R-13, I-19, I-20"),
        ),
        Section(
            key="mini",
            title=N_("The mini sky"),
            paragraphs=(
                N_(
                    "The Japanese edition adds a smaller sky: a hexagon with six cells on "
                    "each side, again without its corners and centre, 84 cells in all. Each "
                    "player has 50 birds, and every rule stays the same."
                ),
                N_(
                    "The nests are again one step in from the missing corners: Orange on b2, "
                    "j6 and f10, Blue on f2, j10 and b6."
                ),
                N_(
                    "Read word for word, the Japanese text sets the birds one cell from the "
                    "centre instead. Tablier offers that reading too, as the centre start."
                ),
            ),
            diagrams=(
                Diagram(
                    position=MINI,
                    caption=N_("The mini sky at the start, birds on their nests."),
                    highlights=("b2", "j6", "f10", "f2", "j10", "b6"),
                ),
                Diagram(
                    position=CENTRE,
                    caption=N_("The centre start: the six cells around the missing centre."),
                    highlights=("g6", "f7", "e5", "g7", "e6", "f5"),
                ),
            ),
            variant=N_("Mini sky — Japanese edition"),
            source=N_("Rule text 002 (figures 1 and 2); docs/rules/volo.md, I-2, I-4, I-5"),
        ),
        Section(
            key="pass-2010",
            title=N_("Passing in the 2010 edition"),
            paragraphs=(
                N_(
                    "In the 2010 French edition you pass only when you can neither add a bird "
                    "nor fly: there is no choice to pass."
                ),
                N_(
                    "When neither player can play any more, the one who made the last move "
                    "wins. So a player who is passing loses if the opponent is stuck too."
                ),
            ),
            diagrams=(
                Diagram(
                    position=PASS_2010,
                    caption=N_(
                        "Blue's birds are shut in at the bottom: every empty cell they can "
                        "reach touches a Blue bird, and no flight joins Blue's two flocks. "
                        "Orange cannot add a bird or fly either."
                    ),
                    highlights=("c1", "d2", "e2", "f2", "f3", "h4", "i3", "i4", "j4"),
                    steps=(
                        Step(caption=N_("Blue cannot play, and passes."), move="pass"),
                        Step(
                            caption=N_(
                                "Orange cannot play either and passes: the game is over, and "
                                "Orange, who made the last move, wins."
                            ),
                            move="pass",
                        ),
                    ),
                ),
            ),
            variant=N_("2010 French pass rule"),
            source=N_("Rule text 000 (no action possible); docs/rules/volo.md, R-12, I-18"),
        ),
    ),
)


LESSON = Lesson(
    title=N_("Learn Volo"),
    intro=N_(
        "Eleven short steps on a real sky: add birds, fly them alone and in lines, cut "
        "your opponent into regions, win, and pass. Then play a game on the mini sky "
        "against the computer."
    ),
    steps=(
        LessonStep(
            key="sky",
            title=N_("The sky"),
            text=N_(
                "You play Orange, Blue is your opponent. Each of you starts with three birds "
                "on the nests and the rest in supply. Your goal: all of your birds in the "
                "sky in one single flock, a group linked from neighbour to neighbour."
            ),
            position=INITIAL,
            task=N_("Look at the nests, then go on."),
            hint_cells=("b2", "l7", "g12"),
        ),
        LessonStep(
            key="add",
            title=N_("Adding a bird"),
            text=N_(
                "On your turn you may add a bird from your supply. It must not touch one of "
                "your own birds, and it cannot go into the corner that Blue's wall closes "
                "off (l12, l13 and m12): Blue controls that region."
            ),
            position=PLACEMENT,
            task=N_("Add an Orange bird to the sky."),
            accept=_PLACES,
            hint=N_(
                "Any empty cell that does not touch an Orange bird and is not behind Blue's "
                "wall will do, for example h5."
            ),
            hint_cells=("h5",),
            wrong=N_("That was a flight. This time, add a new bird from your supply."),
            success=N_("Well done: the new bird is a flock of its own, ready to fly."),
        ),
        LessonStep(
            key="fly",
            title=N_("A bird flies"),
            text=N_(
                "Instead of adding a bird, you may let one fly in a straight line over empty "
                "cells. It must land next to another of your birds, so that a flock grows."
            ),
            position=FLIGHT,
            task=N_("Fly the bird on f5 so that it lands next to another Orange bird."),
            accept=_FLIGHTS,
            hint=N_(
                "Look along the six lines from f5: the birds on g8, j6, c3 and l10 each "
                "touch two cells of those lines."
            ),
            hint_cells=("f5",),
            wrong=N_("Fly the bird on f5, and land it next to one of your other birds."),
            success=N_("Your flock has grown."),
        ),
        LessonStep(
            key="fly-far",
            title=N_("Flying past"),
            text=N_(
                "A flying bird may pass beside your birds without stopping, and need not "
                "join the nearest flock: it only has to end next to one."
            ),
            position=FLIGHT,
            task=N_("Fly the bird on f5 all the way to your bird on l10."),
            accept=("f5-k10", "f5-l11"),
            hint=N_("Fly up to the right: k10 and l11 both touch l10."),
            hint_cells=("k10", "l11"),
            wrong=N_("Choose a flight that ends next to the bird on l10."),
            success=N_("The bird flew the whole way and joined the far bird."),
        ),
        LessonStep(
            key="line-side",
            title=N_("A line flies side by side"),
            text=N_(
                "Two or more of your birds in a straight line may fly together, each the "
                "same number of steps. Side by side, the whole line moves across its own "
                "direction."
            ),
            position=LINE,
            task=N_("Fly the line j8, k9, l10 side by side so that it becomes a flock of five."),
            accept=("j8:l10-j11",),
            hint=N_("Move the line three steps up to the left: it then touches i10 and k13."),
            hint_cells=("j11", "k12", "l13"),
            wrong=N_(
                "Move the three birds together, up to the left, far enough to touch two "
                "of your birds."
            ),
            success=N_("Five birds in one flock."),
        ),
        LessonStep(
            key="line-file",
            title=N_("A line flies in file"),
            text=N_(
                "A line may also fly along its own direction, in file. Its rear birds pass "
                "over the cells its front birds leave."
            ),
            position=LINE,
            task=N_("Fly the line in file, down to the left, so that it joins the bird on d3."),
            accept=("j8:l10-e3", "j8:l10-d2", "j8:l10-c1"),
            hint=N_("The line needs five, six or seven steps to reach d3."),
            hint_cells=("e3", "d2", "c1"),
            wrong=N_("Fly the three birds together towards d3, along their own line."),
            success=N_("The line joined d3: a flock of four."),
        ),
        LessonStep(
            key="rearrange",
            title=N_("Rearranging a flock"),
            text=N_(
                "You may never split a flock. You may fly part of it, as long as it stays "
                "in one piece and grows."
            ),
            position=REARRANGE,
            task=N_("Find the only flight of the flock on d4, d5, e5 and e6."),
            accept=("e5:e6-e3",),
            hint=N_("Fly two birds of the flock two steps down to the right, next to f3."),
            hint_cells=("e5", "e6", "e3", "e4"),
            wrong=N_(
                "Fly part of the flock on d4, d5, e5 and e6: keep it in one piece and make "
                "it touch f3."
            ),
            success=N_("The flock stayed whole and grew to five birds."),
        ),
        LessonStep(
            key="block",
            title=N_("Blocking a flight"),
            text=N_(
                "Blue's bird on c5 could fly along its row to g5 and join Blue's three other "
                "birds: all of Blue's birds would form one flock, and Blue would win. Birds "
                "never fly over other birds."
            ),
            position=BLOCK,
            task=N_("Add a bird that stops Blue from winning on the next turn."),
            accept=("d5", "e5", "f5", "g5"),
            hint=N_("Put a bird on the path from c5 to g5."),
            hint_cells=("d5", "e5", "f5", "g5"),
            wrong=N_("Blue can still win with c5-g5: block the row between c5 and h5."),
            success=N_("Blue's path is blocked."),
        ),
        LessonStep(
            key="regions",
            title=N_("Three regions"),
            text=N_(
                "Flying your bird from e5 to b2 cuts Blue's birds into three regions: a2 "
                "and a4; b1 alone; and the rest of the sky. You keep one region, and Blue's "
                "birds in the others fly back to Blue's supply. If the birds you keep form "
                "a single flock, Blue wins at once."
            ),
            position=REGIONS,
            task=N_("Cut Blue into three regions, and keep the one where Blue cannot win."),
            accept=("e5-b2/h3",),
            hint=N_(
                "Keep the large region with h3, k10 and e10: those three lone birds cannot "
                "join in one move."
            ),
            hint_cells=("h3", "k10", "e10"),
            wrong=N_(
                "Not that one. Keeping b1 alone gives Blue one flock at once, and keeping a2 "
                "and a4 lets Blue join them next turn. Fly from e5 to b2 and keep the region "
                "of h3."
            ),
            success=N_("Blue's birds on a2, a4 and b1 fly back to Blue's supply."),
        ),
        LessonStep(
            key="win",
            title=N_("Winning"),
            text=N_(
                "You win as soon as all of your birds form one flock. Regions come second: "
                "a winning flight may cut Blue apart, and nothing is cleared."
            ),
            position=WIN,
            task=N_("Win the game in one flight."),
            accept=("b3:b7-d3", "e5-c3", "e5-b2"),
            hint=N_("Your bird on e5 can fly down to the left and join the rest."),
            hint_cells=("e5",),
            wrong=N_("After that move your birds are still in more than one flock."),
            success=N_("One flock: you win!"),
        ),
        LessonStep(
            key="pass",
            title=N_("Passing"),
            text=N_(
                "Here you play Blue, on the mini sky. Orange could do nothing and has just "
                "passed. You have no flight, and could add birds only on the right, in a "
                "region of your own that Orange can never reach: so you may pass. Two "
                "passes in a row end the game in a draw."
            ),
            position=PASS_BLUE,
            task=N_("Pass, and end the game in a draw."),
            accept=("pass",),
            hint=N_("Choose to pass instead of adding a bird."),
            wrong=N_("You may add a bird there, but this step asks you to pass."),
            success=N_("Both players passed in turn: the game is a draw."),
        ),
    ),
    final_game="volo:board=mini",
    final_text=N_(
        "Now play a whole game on the mini sky against the computer: gather all of your "
        "birds into one flock before it does."
    ),
)


TEACHING = Teaching(
    rules=RULES,
    lesson=LESSON,
    summary=N_(
        "Add birds to the sky and fly them in straight lines: the first player to gather "
        "all of their birds into one flock wins."
    ),
)
