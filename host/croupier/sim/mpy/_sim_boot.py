# The virtual board's boot: what the ESP32 port's main.c and pyexec do, in Python. Mount
# the flash at /, run boot.py and main.py, then the REPL: friendly, raw (Ctrl-A) and
# raw-paste, exactly as mpremote expects them. A soft reset ends this interpreter with exit
# code 3 (friendly) or 4 (raw REPL); the supervisor starts the next one in that mode.
# Text goes out through _sim_stdio's cooked stdout, which sends each "\n" as "\r\n" as a
# board's console does; the console pty itself passes bytes unchanged.
import gc
import io
import micropython
import os
import vfs

import _sim_channel as ch
import _sim_heap
import _sim_stdio

ch.connect(ch.env("SOCK"))
_sim_stdio.install()  # everything from here on prints as on a board
import sys  # noqa: E402 (the board's: _sim_sys)
import machine  # noqa: E402,F401 (imported before / becomes the flash: it lives on the host)
import _sim_wake  # noqa: E402
from flashbdev import bdev  # noqa: E402 (the port's frozen module; opens the image while / is the host's)

_out = _sim_stdio.stdout
_RAW_PROMPT = "raw REPL; CTRL-B to exit\n"


class Reboot(Exception):
    pass


def write(s):
    _out.write(s)


def getc():
    """One byte of serial input (pyexec reads mp_hal_stdin_rx_chr); a Ctrl-C arrives as a
    KeyboardInterrupt and reads as 3."""
    try:
        return _sim_stdio.rx_chr()
    except KeyboardInterrupt:
        return 3


def mount():
    try:
        fs = vfs.VfsLfs2(bdev)
    except OSError:  # what the ESP32's _boot.py does with an unreadable filesystem
        print("Performing initial setup")
        vfs.VfsLfs2.mkfs(bdev)
        fs = vfs.VfsLfs2(bdev)
        ch.send(70, 0, 0)  # 'F' formatted
    vfs.umount("/")  # the host's filesystem: from here on the board sees only its flash
    vfs.mount(fs, "/")
    os.chdir("/")
    sys.path.clear()
    sys.path.extend(("", ".frozen", "/lib"))


def execute(code, g, mode, name, raw):
    """Compile and run one input, printing its exception as pyexec does. -> True if it
    ended normally."""
    try:
        exec(compile(code, name, mode), g)
        ok = True
    except SystemExit:
        ok = None
    except BaseException as e:  # noqa: B902 (KeyboardInterrupt included: print it, go on)
        ok = e
    while micropython.heap_unlock():  # a program that left the heap locked: the REPL needs it
        pass
    if raw:
        write("\x04")
    if ok is None:
        if raw:
            write("\x04")
        raise Reboot
    if ok is not True:
        print_exception(ok)
    if raw:
        write("\x04")
    return ok is True


def print_exception(e):
    """The traceback as the board prints it: without the frames of the emulation's own
    modules (this REPL, the cooked print), which are C code on a board."""
    try:
        text = io.StringIO()
        sys.print_exception(e, text)
        write("".join(line + "\n" for line in text.getvalue().split("\n")[:-1] if '"_sim_' not in line))
    except MemoryError:  # streamed as it is formatted: needs next to no heap
        sys.print_exception(e, _out)


def run_file(name, g):
    """-> False when the file raised (then the ESP32 skips main.py)."""
    try:
        with open(name) as f:
            code = f.read()
    except OSError:
        return True
    return execute(code, g, "exec", name, False)


def banner():
    v = sys.implementation.version
    write("MicroPython v%d.%d.%d%s on %s; ESP32 module (virtual board) with ESP32\n"
          % (v[0], v[1], v[2], "-" + v[3] if len(v) > 3 and v[3] else "", sys.version.split(" on ")[-1]))
    write('Type "help()" for more information.\n')


_COMPOUND = ("if", "while", "for", "try", "with", "def", "class", "async")


def continues(text):
    """Does the friendly REPL need another line (py/repl.c mp_repl_continue_with_input)?
    text: the lines so far, joined by newlines."""
    depth = 0
    quote = None
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif text[i:i + len(quote)] == quote:
                i += len(quote) - 1
                quote = None
        elif c == "#":
            while i + 1 < len(text) and text[i + 1] != "\n":
                i += 1
        elif c in "'\"":
            quote = text[i:i + 3] if text[i:i + 3] in ("'''", '"""') else c
            i += len(quote) - 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    if quote and len(quote) == 3 or depth > 0 and not quote or text.endswith("\\"):
        return True
    word = ""
    for c in text:
        if not (c.isalpha() or c.isdigit() or c == "_"):
            break
        word += c
    return (text.startswith("@") or word in _COMPOUND) and not text.endswith("\n")


def readline(prompt):
    """-> the line typed, or a control byte (1 raw REPL, 2 banner, 3 cancel, 4 reboot)."""
    write(prompt)
    line = ""
    while True:
        c = getc()
        if c == 13:
            write("\n")
            return line
        if c in (1, 2, 4) and not line.strip():
            return c
        if c == 3:
            write("\n")
            return 3
        if c in (8, 127):
            if line:
                line = line[:-1]
                write("\b \b")
        elif c == 27:  # cursor keys (ESC [ X, ESC [ n ~): no history, no line editing
            if getc() == 91 and 48 <= getc() <= 57:
                getc()
        elif c >= 32 or c == 9:
            ch_ = chr(c) if c < 128 else "?"
            line += ch_
            write(ch_)


def friendly(g):
    """The friendly REPL. -> when the host switches to the raw REPL (Ctrl-A)."""
    banner()
    text = None  # the lines of an unfinished statement
    while True:
        try:
            line = readline("... " if text is not None else ">>> ")
            if line == 3:
                text = None
                continue
            if text is None and line == 1:
                write("\n")
                return
            if text is None and line == 2:
                write("\n")
                banner()
                continue
            if text is None and line == 4:
                write("\n")
                raise Reboot
            if not isinstance(line, str):
                line = ""
            if not line.strip():
                line = ""
            text = line if text is None else text + "\n" + line
            if continues(text):
                continue
            if text.strip():
                execute(text, g, "single", "<stdin>", False)
            text = None
        except KeyboardInterrupt:
            write("\n")
            text = None


def raw(g):
    """The raw REPL (and raw-paste mode). -> when the host switches back (Ctrl-B)."""
    write(_RAW_PROMPT)
    while True:
        write(">")
        code = bytearray()
        while True:
            c = getc()
            if c == 1:
                if len(code) == 2 and code[0] == 5:
                    raw_paste(g, code[1])
                    break
                write(_RAW_PROMPT)
                code = bytearray()
                write(">")
            elif c == 2:
                write("\n")
                return
            elif c == 3:
                code = bytearray()
            elif c == 4:
                write("OK")
                if not code:
                    write("\n")
                    raise Reboot
                execute(bytes(code), g, "exec", "<stdin>", True)
                break
            else:
                code.append(c)


def raw_paste(g, protocol):
    """Raw-paste mode: flow control by windows of 128 bytes (pyexec's do_reader_stdin)."""
    if protocol != 65:  # 'A'
        _out.buffer.write(b"R\x00")
        return
    _out.buffer.write(b"R\x01\x80\x00\x01")  # supported, window 128, one window free now
    code = bytearray()
    window = 128
    while True:
        c = getc()
        if c in (3, 4):
            _out.buffer.write(b"\x04")
            if c == 3:
                write("\x04")
                sys.print_exception(KeyboardInterrupt(), _out)
                write("\x04")
                return
            break
        code.append(c)
        window -= 1
        if not window:
            _out.buffer.write(b"\x01")
            window = 128
    execute(bytes(code), g, "exec", "<stdin>", True)


def reboot():
    """Soft reset: let finalisers close open files (as gc_sweep_all does), then hand over."""
    write("MPY: soft reboot\n")
    gc.collect()
    sys.exit(4 if _raw_mode else 3)


_raw_mode = ch.env("MODE") == "raw"


_ballast = None


def fit_heap():
    """Hold back the heap this emulation gave the interpreter on top of the board's, so
    the firmware gets what a board with the requested heap would leave it."""
    global _ballast
    _sim_heap.touch()  # before the pace starts, at the 'B' below
    extra = gc.mem_free() - int(ch.env("FREE", "0")) - 16  # 16: the ballast's own header
    if extra > 0:
        _ballast = bytearray(extra)


def main():
    global _raw_mode
    mount()
    _sim_wake.install()  # asyncio.ThreadSafeFlag sleeps until an interrupt, as on a board
    fit_heap()
    micropython.kbd_intr(3)
    # 'B' booted: serial input may flow now, and a paced board's throttle starts.
    ch.request(66, 0, 0, None)
    g = {"__name__": "__main__"}
    try:
        try:
            if run_file("boot.py", g) and not _raw_mode:
                run_file("main.py", g)
        except KeyboardInterrupt:  # a Ctrl-C between the scripts' own handlers
            write("\n")
        while True:
            try:
                if _raw_mode:
                    raw(g)
                else:
                    friendly(g)
                _raw_mode = not _raw_mode
            except KeyboardInterrupt:  # a Ctrl-C while the REPL itself was writing
                write("\n")
    except Reboot:
        pass
    g.clear()
    del g
    reboot()


main()
