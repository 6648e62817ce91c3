"""`croupier console`: type (or pipe) game commands to a board, see its state after each.

One command a line; a bad line or a refused card prints one `error:` line on stderr and
changes nothing. Reading from a pipe, no prompt is printed, so the output is only the
board's answers, and each error names its line (`error: line 3: ...`); the exit status is
1 when any line failed.
"""
import json
import sys

from croupier.cli import add_port_option
from croupier.commands.common import connect_board, reports_errors

HELP = "a line prompt to a board: play CARD, undo, redo, state, key K [hold], new GAME NAMES..."
PROMPT = "croupier> "
KEY_SETTLE = 0.3  # seconds to collect what a key did (a `play` event) before showing the state
# Each command's form: fixed words, CARD/K/GAME/NAME fill-ins, [hold] optional, NAME... repeats.
FORMS = {"play": "play CARD", "undo": "undo", "redo": "redo", "state": "state", "key": "key K [hold]",
         "new": "new GAME NAME...", "help": "help"}
USAGE = "commands: %s (K: 0-9 A B C D # * or ok undo menu a b c)" % " · ".join(FORMS.values())


class Usage(ValueError):
    """A line that is not a command."""


def add_arguments(parser):
    add_port_option(parser)


class Console:
    """Runs command lines against a Link, writing answers to `out` and errors to `err`."""

    def __init__(self, link, out, err):
        self.link, self.out, self.err = link, out, err
        self.failed = False

    def run_line(self, line, number=None):
        """Run one line; `number`, the line's in a script, is named in its error."""
        from croupier.link import LinkError, LinkTimeout

        self._show_events()  # cards keyed on the box since the last line
        words = line.split()
        if not words:
            return
        try:
            self._dispatch(words[0].lower(), words[1:])
        except LinkTimeout:
            raise  # the board stopped answering: no use reading on
        except (Usage, LinkError) as exc:  # refused, or a request too long to send
            self.failed = True
            where = "" if number is None else "line %d: " % number
            print("error: %s%s" % (where, exc), file=self.err, flush=True)

    def _dispatch(self, cmd, args):
        if cmd not in FORMS:
            raise Usage("unknown command %r; %s" % (cmd, USAGE))
        if not _fits(FORMS[cmd], args):
            raise Usage("usage: %s" % FORMS[cmd])
        if cmd == "play":
            self._played(self._input("play", card=args[0]))
        elif cmd in ("undo", "redo"):
            self._played(self._input(cmd))
        elif cmd == "state":
            state = self.link.call("state")["state"]
            self._say("no game" if state is None else json.dumps(state, indent=2, sort_keys=True))
        elif cmd == "key":
            self._key(args[0], hold=len(args) == 2)
        elif cmd == "new":
            self._show_state(self._input("new", game=args[0], players=args[1:])["state"])
        else:
            self._say(USAGE)

    def _key(self, key, hold):
        from croupier.link import key_name

        try:
            name = key_name(key)
        except ValueError as exc:
            raise Usage(str(exc)) from None
        self.link.call("key", key=name, hold=hold)
        self.link.poll(KEY_SETTLE)
        if not self._show_events():
            self._show_state(self.link.call("state")["state"])

    def _input(self, cmd, **args):
        """Send an input and return its answer; the `play` event the board sends for it
        says the same, so it is dropped."""
        answer = self.link.call(cmd, **args)
        for event in list(self.link.events):
            if event.get("ev") == "play" and event.get("state") == answer["state"]:
                self.link.events.remove(event)
                break
        return answer

    def _played(self, answer):
        from croupier import statetext

        said = statetext.effects(answer["effects"], answer["state"])
        if said:
            self._say(said)
        self._show_state(answer["state"])

    def _show_state(self, state):
        from croupier import statetext

        self._say(statetext.summary(state))

    def _show_events(self):
        """Print the `play` events collected so far (inputs from the keypad); -> any shown."""
        shown = False
        while self.link.events:
            event = self.link.events.popleft()
            if event.get("ev") == "play":
                self._played(event)
                shown = True
        return shown

    def _say(self, text):
        print(text, file=self.out, flush=True)


def _fits(form, args):
    """Do the words after the command fit its form?"""
    slots = form.split()[1:]
    if slots[-1:] == ["[hold]"]:
        return len(args) in (len(slots) - 1, len(slots)) and args[len(slots) - 1:] in ([], ["hold"])
    if slots[-1:] == ["NAME..."]:
        return len(args) >= len(slots)
    return len(args) == len(slots)


def _lines(stdin):
    """(line number, line) to run: numbered from a pipe or file, bare (None) with a prompt on
    a terminal, where an error follows the line it is about."""
    if not stdin.isatty():
        yield from enumerate(stdin, 1)
        return
    while True:
        try:
            yield None, input(PROMPT)
        except EOFError:
            print()
            return


@reports_errors
def run(args):
    from croupier import statetext

    with connect_board(args.port) as link:
        console = Console(link, sys.stdout, sys.stderr)
        if sys.stdin.isatty():
            info = link.info
            print("board %s %s, firmware %s; %s" % (info["board"], info["device"], info["fw"], USAGE))
            print(statetext.summary(link.call("state")["state"]))
        link.events.clear()  # the boot event, events from before
        for number, line in _lines(sys.stdin):
            console.run_line(line, number)
    return 1 if console.failed else 0
