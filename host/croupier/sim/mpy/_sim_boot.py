# The virtual board's boot: what the ESP32 port's main.c and pyexec do, in Python. Mount
# the flash at /, run boot.py and main.py, then the REPL: friendly, raw (Ctrl-A) and
# raw-paste, exactly as mpremote expects them. A soft reset ends this interpreter with exit
# code 3 (friendly) or 4 (raw REPL); the supervisor starts the next one in that mode.
import gc
import io
import micropython
import os
import re
import vfs

import _sim_channel as ch
import _sim_stdio

ch.connect(ch.env("SOCK"))
_sim_stdio.install()  # everything from here on prints as on a board
import sys  # noqa: E402 (the board's: _sim_sys)
import machine  # noqa: E402,F401 (imported before / becomes the flash: it lives on the host)
import _sim_wake  # noqa: E402
from flashbdev import bdev  # noqa: E402 (the port's frozen module; opens the image while / is the host's)

_out = _sim_stdio.stdout
write = _out.write
_RAW_PROMPT = "raw REPL; CTRL-B to exit\n"


class Reboot(Exception):
    pass


def getc():
    """One byte of serial input (pyexec reads mp_hal_stdin_rx_chr); Ctrl-C reads as 3."""
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
    sys.path[:] = ["", ".frozen", "/lib"]


def execute(code, g, mode, name, raw):
    """Compile and run one input, printing its exception as pyexec does; a SystemExit is a
    soft reset. -> True if it ended normally."""
    error = None
    try:
        exec(compile(code, name, mode), g)
    except BaseException as e:  # noqa: B902 (KeyboardInterrupt included: print it, go on)
        error = e
    # A program may leave the heap locked; the REPL needs it unlocked. heap_unlock() on an
    # unlocked heap wraps the 16-bit depth (py/mpstate.h) to 32,767 locks (65,535 before
    # v1.25.0's GC_LOCK_DEPTH_SHIFT), so the depth is read first: a lock, then an unlock,
    # with no branch between where a Ctrl-C could land.
    micropython.heap_lock()
    for _ in range(micropython.heap_unlock()):
        micropython.heap_unlock()
    if raw:
        write("\x04")
    if error is not None and not isinstance(error, SystemExit):
        print_exception(error)
    if raw:
        write("\x04")
    if isinstance(error, SystemExit):
        raise Reboot
    return error is None


def print_exception(e):
    """The traceback as a board prints it: without the emulation's own frames (C on a board)."""
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
    write("MicroPython v%d.%d.%d on %s; ESP32 module (virtual board) with ESP32\n"
          % (sys.implementation.version[:3] + (sys.version.split(" on ")[-1],)))
    write('Type "help()" for more information.\n')


_COMPOUND = re.compile("@|(if|while|for|try|with|def|class|async)([^A-Za-z0-9_]|$)")


def continues(text):
    """Does the friendly REPL need another line? py/repl.c mp_repl_continue_with_input
    (v1.23.0): quotes and each kind of bracket counted, comments not; text: the lines so far."""
    quote = ""  # the open quote: ', ", ''' or """
    depth = [0, 0, 0]  # ( [ {
    i = 0
    while i < len(text):
        c = text[i]
        if c in "'\"":
            if quote in ("", c * 3) and text[i:i + 3] == c * 3:
                quote = "" if quote else c * 3
                i += 2
            elif quote in ("", c):
                quote = "" if quote else c
        elif c == "\\" and quote and text[i + 1:i + 2] in ("'", '"', "\\"):
            i += 1
        elif not quote and c in "([{)]}":
            k = "([{)]}".index(c)
            depth[k % 3] += 1 if k < 3 else -1
        i += 1
    if len(quote) == 3 or not quote and max(depth) > 0 or text.endswith("\\"):
        return True
    return _COMPOUND.match(text) is not None and not text.endswith("\n")


def readline(prompt):
    """-> the line typed, or a control byte (1 raw REPL, 2 banner, 4 reboot); a Ctrl-C (the
    host's 0x03 comes as SIGINT) raises KeyboardInterrupt out of rx_chr."""
    write(prompt)
    line = ""
    while True:
        c = _sim_stdio.rx_chr()
        if c == 13:
            write("\n")
            return line
        if c in (1, 2, 4) and not line.strip():
            return c
        if c in (8, 127):
            if line:
                line = line[:-1]
                write("\b \b")
        elif c == 27:  # cursor keys (ESC [ X, ESC [ n ~): no history, no line editing
            if _sim_stdio.rx_chr() == 91 and 48 <= _sim_stdio.rx_chr() <= 57:
                _sim_stdio.rx_chr()
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
            if text is None and line in (1, 2, 4):
                write("\n")
                if line == 1:
                    return
                if line == 4:
                    raise Reboot
                banner()
                continue
            if not isinstance(line, str) or not line.strip():
                line = ""
            text = line if text is None else text + "\n" + line
            if continues(text):
                continue
            if text.strip():
                execute(text, g, "single", "<stdin>", False)
            text = None
        except KeyboardInterrupt:  # Ctrl-C: the statement so far is dropped
            write("\n")
            text = None


def raw(g):
    """The raw REPL (and raw-paste mode). -> when the host switches back (Ctrl-B)."""
    prompt = _RAW_PROMPT + ">"
    while True:
        write(prompt)
        prompt = ">"
        code = bytearray()
        c = getc()
        while c not in (1, 2, 4):
            if c == 3:
                code = bytearray()
            else:
                code.append(c)
            c = getc()
        if c == 2:
            write("\n")
            return
        if c == 1 and len(code) == 2 and code[0] == 5:
            raw_paste(g, code[1])
        elif c == 1:
            prompt = _RAW_PROMPT + ">"  # a fresh raw REPL
        elif code:
            write("OK")
            execute(bytes(code), g, "exec", "<stdin>", True)
        else:
            write("OK\n")
            raise Reboot


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


def _touch_heap():
    # Every free block written once, before the pace starts at the 'B' below: the host maps
    # a new process's pages at their first write (about 65 µs of CPU time a page on the build
    # VM, 6.5 ms of the chip's at the pace's factor); a chip's RAM costs nothing of the kind.
    blocks = []
    try:
        while True:
            blocks.append(bytearray(1024))
    except MemoryError:
        pass
    blocks = None
    gc.collect()


def hold_back(free):
    """-> a ballast of the heap given on top of the board's (board.py SIM_HEAP), so that the
    firmware finds `free`, what a bare interpreter with the board's heap has. Ends the
    interpreter if the emulation holds more: the firmware would silently get less."""
    gc.collect()
    extra = gc.mem_free() - free - 32  # bytearray(n): a 32-byte object (64-bit port) and n bytes
    ballast = bytearray(extra) if extra > 0 else None
    gc.collect()
    if gc.mem_free() < free:  # not "!=": the few blocks the GC still finds on the stack here go later
        write("virtual board: the emulation leaves the firmware %d bytes, not a board's %d: "
              "raise SIM_HEAP (host/croupier/sim/board.py)\n" % (gc.mem_free(), free))
        sys.exit(1)
    return ballast


def main():
    raw_mode = ch.env("MODE") == "raw"
    free = int(ch.env("FREE"))  # what a bare interpreter with the board's heap has free
    mount()
    _sim_wake.install()  # asyncio.ThreadSafeFlag sleeps until an interrupt, as on a board
    _touch_heap()
    g = {"__name__": "__main__"}
    ballast = hold_back(free)  # noqa: F841 (held while main runs: as long as the board)
    micropython.kbd_intr(3)  # a unix port built by hand: its SIGINT (unixport.py's is SIGUSR1)
    try:
        try:
            # 'B' booted: serial input may flow now, and a paced board's throttle starts; a
            # Ctrl-C from here on skips what is left of the scripts, as one in boot.py does
            ch.request(66, 0, 0, None)
            if run_file("boot.py", g) and not raw_mode:
                run_file("main.py", g)
        except KeyboardInterrupt:  # a Ctrl-C between the scripts' own handlers
            write("\n")
        while True:
            try:
                (raw if raw_mode else friendly)(g)
                raw_mode = not raw_mode
            except KeyboardInterrupt:  # a Ctrl-C while the REPL itself was writing
                write("\n")
    except Reboot:
        pass
    g.clear()
    write("MPY: soft reboot\n")
    gc.collect()  # finalisers close open files, as gc_sweep_all does
    sys.exit(4 if raw_mode else 3)


main()
