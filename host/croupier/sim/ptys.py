"""The two pseudo-terminals of a virtual board.

The serial port is what people and tools open: raw, 8 bits, no output processing (ONLCR
off), and it lives as long as the board, across every reset. The console is the
interpreter's stdin/stdout: no echo, no line editing, no signals and no output processing
either, so sys.stdout.buffer is raw as on a board; the board-side runtime (mpy/_sim_stdio.py)
cooks text output itself, "\n" to "\r\n", as MicroPython's stdout does on a board.
"""
import os
import termios
import tty


def serial_port():
    """-> (master fd, slave fd, slave path). Keep the slave open: the port then survives
    clients coming and going."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave, os.ttyname(slave)


def console():
    """-> (master fd, slave fd) for one interpreter run."""
    master, slave = os.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[0] = 0  # iflag: no CR/NL mapping, no XON/XOFF
    attrs[1] = 0  # oflag: bytes pass unchanged (no ONLCR)
    attrs[2] = termios.CS8 | termios.CREAD | termios.CLOCAL
    attrs[3] = 0  # lflag: no echo, no canonical mode, no ISIG: Ctrl-C is the supervisor's job
    attrs[6][termios.VMIN] = 1
    attrs[6][termios.VTIME] = 0
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    os.set_blocking(master, False)
    return master, slave
