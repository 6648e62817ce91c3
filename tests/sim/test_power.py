"""The board's power from the host: off after power_off() whatever its interpreter was doing
at that moment, and a start that fails leaves the board off, saying why, with nothing left."""
import os
import time

from croupier.paths import micropython_binary
from croupier.sim import pacer


def power_off_at(board, text, ended=False):
    """Subscribe a power_off() at the first board output holding `text`, made on the I/O
    thread before it reads any more of the interpreter; ended: once the interpreter has
    ended by itself, its end still unread (else half a second after the text)."""
    done = []

    def listener(event, data):
        if event != "output" or done or text not in board.output():
            return
        done.append(True)
        deadline = time.monotonic() + 5
        while ended and time.monotonic() < deadline:  # ended, not reaped: its end still unread
            if os.waitid(os.P_PID, board._proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                break
            time.sleep(0.01)
        if not ended:
            time.sleep(0.5)  # its next message is on the side channel, unread
        board.power_off()

    board.subscribe(listener)


def stays_off(board, boots):
    board.wait_off()
    time.sleep(1)
    return not board.powered and board.boots == boots


def test_power_off_holds_when_the_interpreter_has_just_ended_by_itself(make_board):
    board = make_board(main="import sys\nsys.exit()  # a soft reboot\n", start=False)
    power_off_at(board, b"soft reboot", ended=True)
    board.start()
    assert stays_off(board, 1)


def test_power_off_holds_over_a_machine_reset_sent_just_before_it(make_board):
    board = make_board(main="import machine, time\nprint('resetting')\ntime.sleep(0.2)\nmachine.reset()\n",
                       start=False)
    power_off_at(board, b"resetting")
    board.start()
    assert stays_off(board, 1)


def test_a_start_that_fails_once_the_interpreter_runs_leaves_nothing_running(make_board, monkeypatch):
    started = []

    def unstartable(pid, factor):  # the pacer cannot start: the interpreter already runs
        started.append(pid)
        raise OSError("no pacer")

    monkeypatch.setattr(pacer, "Throttle", unstartable)
    board = make_board(start=False, pace="esp32")
    fds = open_fds()
    board.start()
    board.wait_output(b"virtual board: cannot start MicroPython: no pacer\r\n")
    assert not board.powered and not os.path.exists("/proc/%d" % started[0])
    monkeypatch.undo()
    board.restart()
    board.wait_boot()
    board.close()
    assert open_fds() <= fds


def test_an_interpreter_gone_at_a_restart_leaves_the_board_off_saying_why(make_board, tmp_path, monkeypatch):
    binary = tmp_path / "micropython"  # a unix port built by hand: the board starts this file itself
    binary.write_text('#!/bin/sh\nexec "%s" "$@"\n' % micropython_binary())
    binary.chmod(0o755)
    monkeypatch.setenv("MICROPYTHON", str(binary))
    board = make_board()
    board.power_off()
    board.wait_off()
    fds = open_fds()  # an off board's
    binary.rename(tmp_path / "away")  # uninstalled while the board was off
    mark = board.mark()
    board.restart()
    out = board.wait_output(b"virtual board: cannot start MicroPython: ", since=mark)
    board.wait_output(b"\r\n", since=mark + out.index(b"cannot"))
    assert not board.powered and open_fds() == fds
    (tmp_path / "away").rename(binary)
    board.restart()
    board.wait_boot(2)


def open_fds():
    return set(os.listdir("/proc/self/fd"))
