"""`recon play`: the terminal game, on Textual (mouse, colour, resize, and a headless pilot for tests).

Keys: arrows move, space or enter opens, f flags, h shows the next deduction (its LEGUP and endoh1
names, its cells highlighted; when none applies, the best guess and its chance), p toggles the exact
mine probabilities, q quits. A mouse click opens a cell, a right click flags it. Opening a number
whose flags are all placed opens its other neighbours (a chord). A won or lost game
shows its end screen: n plays the next game, b goes back to the board, q quits.

A cell is 3 characters wide, or 2 or 1 where the terminal is too narrow for the board (an expert
board is 90 characters at 3, 60 at 2); a board wider or taller than that scrolls with the cursor.
Only the rows and columns on screen are drawn, so a key press costs the same on any board.

On a board of BACKGROUND_CELLS cells or more, a move that opens cells (the first click makes the
board; in auto mode the rules follow each click), and drawing a board's covered mines again for the
next game, run in a thread: the status line says what it is doing and for how long, the cursor
still moves, q still quits, and the other keys wait for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
import time

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Click, Resize
from textual.geometry import Region, Size
from textual.screen import ModalScreen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from ..model import cell_name
from .game import ODDS_SECONDS, Game

COLOURS = {1: "blue", 2: "green", 3: "red", 4: "dark_blue", 5: "dark_red", 6: "cyan", 7: "magenta", 8: "grey50"}
CELL_WIDTHS = (3, 2, 1)  # characters per cell, the widest that fits
SCROLLBAR = 2  # columns a vertical scroll bar takes
#: p shows the exact probabilities when they are counted within this long, and says so otherwise.
PROBABILITY_SECONDS = ODDS_SECONDS
#: On boards of at least this many cells a move runs in a thread, so that the screen stays live
#: while a large no-guess board is made or auto mode's rules run (docs/performance.md).
BACKGROUND_CELLS = 10_000
#: The name of the thread a move runs in.
MOVE_THREAD = "recon-play-move"
#: The actions that wait while such a move runs: they change the board or read it whole.
WAITING_ACTIONS = frozenset({"open", "flag", "hint", "probabilities", "again"})


def cell_width(cols: int, width: int) -> int:
    """The widest cell that fits cols cells in width characters (the narrowest if none does)."""
    return next((w for w in CELL_WIDTHS if cols * w <= width), CELL_WIDTHS[-1])


class Board(ScrollView):
    """The grid, drawn one visible row at a time (Textual's line API), each cell the app's cell_w
    characters wide. It takes no focus, so the arrows move the cursor (the view follows it)
    rather than scroll; a new size may change the cells' width."""

    DEFAULT_CSS = "Board { height: 1fr; }"
    can_focus = False

    def __init__(self, app: "PlayApp"):
        super().__init__(id="field")
        self.game_app = app

    def render_line(self, y: int) -> Strip:
        app, width = self.game_app, self.size.width
        x0, y0 = (int(v) for v in self.scroll_offset)
        r, w = y0 + y, app.cell_w
        if r >= app.game.rows:
            return Strip.blank(width)
        first = x0 // w  # the cells on screen, and the characters of the first that are off it
        text = app.row_text(r, first, min(app.game.cols, first + width // w + 2))
        strip = Strip(list(text.render(self.app.console)), text.cell_len)
        return strip.crop(x0 - first * w, x0 - first * w + width)

    def on_click(self, event: Click) -> None:
        r, c = event.y + int(self.scroll_y), (event.x + int(self.scroll_x)) // self.game_app.cell_w
        app = self.game_app
        if 0 <= r < app.game.rows and 0 <= c < app.game.cols and app.busy is None:
            app.cursor = (r, c)
            if event.button == 3:
                app.game.toggle_flag(r, c)
                app.refresh_view()
            else:
                app.open_cell(r, c)

    def on_resize(self, event: Resize) -> None:
        self.game_app.refresh_view(keep_hint=True)


class EndScreen(ModalScreen[str]):
    """The end of a game, won or lost, over the board: what happened, and what next."""

    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen > Vertical { width: auto; height: auto; padding: 1 3; border: thick $accent; background: $surface; }
    """
    BINDINGS = [Binding("n", "choose('new')", "next game"), Binding("b,escape", "choose('board')", "the board"),
                Binding("q", "choose('quit')", "quit")]

    def __init__(self, game: Game):
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        game = self.game
        head = "You win!" if game.state == "won" else "Boom: that was a mine."
        with Vertical():
            yield Static(Text(head, style="bold green" if game.state == "won" else "bold red"), id="end-head")
            yield Static(f"{game.rows}x{game.cols}, {game.mines} mine{'s' if game.mines != 1 else ''}, {game.seconds:.0f} s, "
                         f"{game.guesses} guess{'es' if game.guesses != 1 else ''}", id="end-summary")
            yield Static("n next game   b the board   q quit", id="end-keys")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class PlayApp(App):
    """The game's screen: the board, then a status line."""

    DEFAULT_CSS = "#status { height: auto; }"
    BINDINGS = [
        Binding("up", "move(-1, 0)", "up", show=False), Binding("down", "move(1, 0)", "down", show=False),
        Binding("left", "move(0, -1)", "left", show=False), Binding("right", "move(0, 1)", "right", show=False),
        Binding("space,enter", "open", "open"), Binding("f", "flag", "flag"), Binding("h", "hint", "hint"),
        Binding("p", "probabilities", "probabilities"), Binding("n", "again", "next game", show=False),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, game: Game, take_sigterm: bool = False):
        super().__init__()
        self.game = game
        self.take_sigterm = take_sigterm  # end the game on SIGTERM (the loop's handler replaces the process's)
        self.cursor = (game.rows // 2, game.cols // 2)
        self.shown_hint: dict | None = None
        self.show_probabilities = False
        self._probabilities = None
        self._ended = False  # the end screen has been shown for this game
        self.cell_w = CELL_WIDTHS[0]
        self.busy: str | None = None  # what a move running in a thread is doing
        self._busy_since = 0.0
        self.error: Exception | None = None  # what a move in a thread raised
        self.terminated = False  # SIGTERM ended the game

    def compose(self) -> ComposeResult:
        self.board = Board(self)
        self.status = Static(id="status")
        yield self.board
        yield self.status

    def on_mount(self) -> None:
        self.refresh_view()
        self.set_interval(1.0, self._tick)
        # SIGTERM between two events: the command line's handler would raise inside whichever
        # handler ran, and Textual would show a traceback and end as if q had been pressed
        # (Windows' event loops have no signal handlers, and none is taken outside the main thread)
        if self.take_sigterm and sys.platform != "win32" and threading.current_thread() is threading.main_thread():
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._on_sigterm)

    def _on_sigterm(self) -> None:
        self.terminated = True
        self.exit()

    def _tick(self) -> None:
        self.status.update(self.status_line())

    # -- actions -------------------------------------------------------------------------------
    def action_move(self, dr: int, dc: int) -> None:
        r, c = self.cursor
        self.cursor = (min(max(r + dr, 0), self.game.rows - 1), min(max(c + dc, 0), self.game.cols - 1))
        self.refresh_view(keep_hint=True)

    def check_action(self, action: str, parameters: tuple) -> bool:
        """Textual asks before every key's action: those that touch the board wait for a move
        running in a thread (the cursor and q do not)."""
        return self.busy is None or action not in WAITING_ACTIONS

    def action_open(self) -> None:
        self.open_cell(*self.cursor)

    def action_flag(self) -> None:
        self.game.toggle_flag(*self.cursor)
        self.refresh_view(keep_hint=True)

    def open_cell(self, r: int, c: int) -> None:
        """Open a cell (a click or space; both wait while a move runs): at once on a small board,
        in a thread on a large one."""
        game = self.game
        if game.rows * game.cols < BACKGROUND_CELLS or game.state in ("won", "lost"):
            game.open(r, c)
            self.refresh_view()
            return
        self._in_thread(f"making a no-guess board from {cell_name(r, c)}" if game.state == "ready" and game.no_guess
                        else f"opening {cell_name(r, c)}", lambda: game.open(r, c), lambda _: self.refresh_view())

    def _in_thread(self, doing: str, work, then) -> None:
        """Run work() in a thread, the status line saying what it is doing; then then(its result)
        on the screen's thread. (The game cannot change meanwhile: the keys that change it wait.)"""
        self.busy = doing
        self._busy_since = time.monotonic()
        self.refresh_view()

        def run() -> None:
            result = error = None
            try:
                result = work()
            except Exception as err:  # raised again by run_game once the screen is gone (a bug: exit 70)
                error = err
            try:
                self.call_from_thread(self._moved, then, result, error)
            except RuntimeError:  # the player quit meanwhile
                pass

        # a daemon: q need not wait for a board nobody will play
        threading.Thread(target=run, name=MOVE_THREAD, daemon=True).start()

    def _moved(self, then, result, error: Exception | None) -> None:
        self.busy = None
        if error is not None:
            self.error = error
            self.exit()
        else:
            then(result)

    def action_hint(self) -> None:
        self.shown_hint = self.game.hint()
        if self.shown_hint is None and self.game.state == "playing":
            self.shown_hint = self.game.suggestion()
        self.refresh_view(keep_hint=True)

    def action_again(self) -> None:
        if self.game.state in ("won", "lost"):
            self._after_end("new")

    def action_probabilities(self) -> None:
        self.show_probabilities = not self.show_probabilities
        self.refresh_view(keep_hint=True)

    # -- drawing -------------------------------------------------------------------------------
    def refresh_view(self, keep_hint: bool = False) -> None:
        if not keep_hint:
            self.shown_hint = None
        # while a move runs the board is changing under it: no odds, no end screen until it is done
        self._probabilities = (self.game.probabilities(PROBABILITY_SECONDS)
                               if self.show_probabilities and self.game.state == "playing" and self.busy is None
                               else None)
        view = self.board
        width = view.size.width or self.size.width  # (before the first layout, the terminal's)
        self.cell_w = cell_width(self.game.cols, width - (SCROLLBAR if self.game.rows > view.size.height else 0))
        view.virtual_size = Size(self.game.cols * self.cell_w, self.game.rows)
        view.refresh()
        self.status.update(self.status_line())
        r, c = self.cursor  # keep the cursor in view on a board that scrolls
        view.scroll_to_region(Region(c * self.cell_w, r, self.cell_w, 1), animate=False)
        if self.game.state in ("won", "lost") and not self._ended and self.busy is None:
            self._ended = True
            self.push_screen(EndScreen(self.game), self._after_end)

    def _after_end(self, what: str | None) -> None:
        if what == "quit":
            self.exit()
        elif what == "new" and self.game.drawn and self.game.rows * self.game.cols >= BACKGROUND_CELLS:
            # a board's covered mines drawn again: seconds on the largest boards, so in a thread
            self._in_thread("drawing the board's mines again", self.game.again, self._start)
        elif what == "new":
            self._start(self.game.again())

    def _start(self, game: Game) -> None:
        self.game = game
        self._ended = False
        self.cursor = (game.rows // 2, game.cols // 2)
        self.refresh_view()

    def cell_text(self, r: int, c: int) -> tuple[str, str]:
        """A cell's characters (cell_w of them) and style."""
        game, w = self.game, self.cell_w
        over = game.state in ("won", "lost")
        if game.sweeper is not None and game.opened[r, c]:
            n = game.number(r, c)
            return _fit(str(n) if n else ".", w), COLOURS.get(n, "")
        if game.blast == (r, c):
            return _fit("*", w), "bold white on red"
        if over and game.field is not None and game.field[r, c]:
            return _fit("F" if game.flags[r, c] else "*", w), "bold"
        if game.flags[r, c]:
            return _fit("x" if over else "F", w), "bold red"
        if self._probabilities is not None:
            return _percent(self._probabilities[r][c], w), "grey50"
        return _fit("?", w), "grey50"

    def row_text(self, r: int, start: int = 0, stop: int | None = None) -> Text:
        """Row r's cells start..stop, neighbouring cells of one style as one run (a style per cell
        made every key press slow on large boards: docs/decisions.md)."""
        text = Text(no_wrap=True, end="")
        hinted = {tuple(x) for x in (self.shown_hint or {}).get("cells", [])}
        run, run_style = [], ""
        for c in range(start, self.game.cols if stop is None else stop):
            chars, style = self.cell_text(r, c)
            if (r, c) in hinted:
                style += " on yellow"
            if (r, c) == self.cursor:
                style += " reverse"
            style = style.strip()
            if style != run_style and run:
                text.append("".join(run), style=run_style)
                run = []
            run.append(chars)
            run_style = style
        text.append("".join(run), style=run_style)
        return text

    def board_text(self) -> Text:
        """The whole grid, a line a row (what the board draws, row by row)."""
        return Text("\n", no_wrap=True).join(self.row_text(r) for r in range(self.game.rows))

    def status_line(self) -> str:
        game = self.game
        head = {"ready": game.notice or "click or press space to start", "playing": "",
                "won": "YOU WIN - n next game, q quits", "lost": "BOOM - n next game, q quits"}[game.state]
        if self.busy is not None:
            head = f"{self.busy}: {time.monotonic() - self._busy_since:.0f} s (q quits)"
        parts = [f"mines left {game.mines_left}", f"time {game.seconds:.0f} s", f"guesses {game.guesses}"]
        if self.show_probabilities and self._probabilities is not None:
            parts.append(f"probabilities in {'%' if self.cell_w >= 3 else 'tenths (M a mine)'}, total {game.mines}")
        elif self.show_probabilities and game.state == "playing" and self.busy is None:
            parts.append(f"probabilities not counted within {PROBABILITY_SECONDS:g} s")
        line = " | ".join(parts) + (f" | {head}" if head else "")
        if self.shown_hint:
            names = ", ".join(f"{who} {self.shown_hint[key]}" for key, who in (("legup", "LEGUP:"), ("endoh1", "endoh1:"))
                              if self.shown_hint.get(key))
            line += f"\nhint{' (' + names + ')' if names else ''}: {self.shown_hint['text']}"
        return line


def _fit(mark: str, width: int) -> str:
    """One character in a cell: centred in three, at the right in two (as the numbers there)."""
    return mark.center(width) if width >= 3 else mark.rjust(width)


def _percent(p, width: int) -> str:
    """A mine probability in width characters: percent in three, else tenths (0-9; M certain),
    which stay apart from their neighbours' in cells of two."""
    if width >= 3:
        return str(round(100 * p)).rjust(width)
    return ("M" if p >= 1 else str(min(int(10 * p), 9))).rjust(width)


def run_game(game: Game) -> tuple[Game, bool]:
    """Play in the terminal until q or SIGTERM; the last game played, and whether SIGTERM ended
    it. (A move may still run in its thread: neither waits for it; see `move_running`.)"""
    app = PlayApp(game, take_sigterm=True)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        app.run()
    finally:
        if previous is not None:  # the loop's handler, once removed, leaves the default behind
            with contextlib.suppress(ValueError):  # not the main thread
                signal.signal(signal.SIGTERM, previous)
    if app.error is not None:
        raise app.error
    return app.game, app.terminated


def move_running() -> bool:
    """Is a move still running in its thread (a daemon), the game's screen gone or not?"""
    return any(thread.name == MOVE_THREAD and thread.is_alive() for thread in threading.enumerate())
