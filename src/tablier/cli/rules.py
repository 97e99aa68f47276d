"""``tablier rules GAME [--lang fr]``: a game's rules page, printed in the terminal.

The same page as ``/rules/<game>`` in the browser, read from what the game declares
(:meth:`Game.teaching <tablier.core.game.Game.teaching>`) and translated through the same
catalogs (:mod:`tablier.core.i18n`): the title, the introduction, the contents, then each
section (a variant framed and named), its paragraphs and its diagrams.  A diagram is
printed frame by frame as the game's own text board (``game.render``, the move that led to
the frame shown as the last move), each frame with its caption; the lit cells, arrows and
crossed cells, which a text board cannot draw, are listed under it.  See ``docs/cli.md``.
"""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from .. import games as registry
from ..core.diagram import Frame, frames
from ..core.errors import TablierError, quote
from ..core.i18n import LANGUAGES, gettext
from ..core.teaching import Diagram, Section, Teaching
from .errors import InputError

__all__ = ["register", "rules_command", "rules_renderables"]


def _marks(frame: Frame, _: Any) -> Text | None:
    """The frame's marks in words (the same words as the web page's fallback)."""
    words = []
    if frame.highlights:
        words.append(_("lit: {cells}").format(cells=", ".join(frame.highlights)))
    if frame.arrows:
        arrows = ", ".join(f"{a}→{b}" for a, b in frame.arrows)
        words.append(_("arrows: {arrows}").format(arrows=arrows))
    if frame.marks:
        words.append(_("crossed: {cells}").format(cells=", ".join(frame.marks)))
    return Text("; ".join(words), style="dim") if words else None


def _diagram(diagram: Diagram, number: int, _: Any) -> list[RenderableType]:
    out: list[RenderableType] = []
    shown = frames(diagram)
    previous = None
    for index, frame in enumerate(shown, 1):
        last = None
        if frame.move is not None and previous is not None:
            last = previous.game.parse_move(previous, frame.move)
        caption = _(frame.caption)
        if frame.move:
            caption = _("{move}: {caption}").format(move=frame.move, caption=caption)
        label = f"{number}.{index}" if len(shown) > 1 else f"{number}"
        heading = Text.assemble((f"[{label}] ", "bold"), caption)
        parts: list[RenderableType] = [
            heading,
            frame.state.game.render(frame.state, last_move=last),
        ]
        marks = _marks(frame, _)
        if marks is not None:
            parts.append(marks)
        out.append(Padding(Group(*parts), (1, 0, 0, 2)))
        previous = frame.state
    return out


def _section(section: Section, first_diagram: int, _: Any) -> tuple[RenderableType, int]:
    parts: list[RenderableType] = []
    for paragraph in section.paragraphs:
        parts.append(Padding(Text(_(paragraph)), (1, 0, 0, 0)))
    number = first_diagram
    for diagram in section.diagrams:
        parts.extend(_diagram(diagram, number, _))
        number += 1
    if section.source:
        parts.append(
            Padding(
                Text(_("Source: {source}").format(source=_(section.source)), "dim"), (1, 0, 0, 0)
            )
        )
    body = Group(*parts)
    if section.variant:
        badge = _("Variant: {name}").format(name=_(section.variant))
        return (
            Panel(body, title=Text(f"{_(section.title)} — {badge}", style="bold magenta"),
                  border_style="magenta", title_align="left"),
            number,
        )  # fmt: skip
    return Group(Rule(Text(_(section.title), style="bold"), align="left"), body), number


def rules_renderables(teaching: Teaching, lang: str) -> list[RenderableType]:
    """The rules page of ``teaching`` in ``lang``, as rich renderables in reading order.

    Raises :class:`~tablier.core.diagram.BrokenDiagramError` for a diagram the engine
    refuses.
    """

    def _(text: str) -> str:
        return gettext(lang, text) if text else text

    rules = teaching.rules
    out: list[RenderableType] = [Text(_(rules.title), style="bold underline")]
    for paragraph in rules.intro:
        out.append(Padding(Text(_(paragraph)), (1, 0, 0, 0)))
    contents = Text(_("Contents") + "\n", style="bold")
    for number, section in enumerate(rules.sections, 1):
        contents.append(f"  {number}. {_(section.title)}", style="")
        if section.variant:
            contents.append(f"  ({_(section.variant)})", style="magenta")
        contents.append("\n")
    out.append(Padding(contents, (1, 0, 0, 0)))
    diagram_number = 1
    for section in rules.sections:
        shown, diagram_number = _section(section, diagram_number, _)
        out.append(Padding(shown, (1, 0, 0, 0)))
    return out


def rules_command(game: str, lang: str) -> None:
    """Print the rules of GAME (with diagrams as text boards), in English, French or Japanese."""
    if lang not in LANGUAGES:
        raise InputError(f"--lang must be one of {', '.join(LANGUAGES)}, not {quote(lang)}")
    try:
        cls = registry.game_class(game.split(":", 1)[0])
    except TablierError as exc:
        raise InputError(str(exc)) from None
    teaching = cls.teaching()
    if teaching is None:
        raise InputError(f"{cls.name} has no rules page yet")
    renderables = rules_renderables(teaching, lang)
    console = Console(highlight=False)
    for renderable in renderables:
        console.print(renderable)


def register(group: click.Group) -> None:
    """Add ``tablier rules`` to the command group."""
    command = click.command("rules", context_settings={"help_option_names": ["-h", "--help"]})(
        click.argument("game")(
            click.option(
                "--lang",
                default="en",
                show_default=True,
                metavar="en|fr|ja",
                help="the language of the page",
            )(rules_command)
        )
    )
    group.add_command(command)
