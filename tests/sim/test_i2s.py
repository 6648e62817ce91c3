"""machine.I2S on the virtual board, as the ESP32 port defines it, and what its speaker
played (VirtualBoard.audio)."""
import array
import os
import shutil
import subprocess
import sys
import wave

import pytest

# Samples that are never zero: the recording may hold silence where the program was late to
# refill the DMA (a loaded host), so the sound is compared with its zeros taken out.
SOUND = """
import array, machine, time
from machine import I2S, Pin

def wait_ms(ms):  # as the firmware's idle loop: the board takes the supervisor's word in
    end = time.ticks_add(time.ticks_ms(), ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        machine.idle()
        time.sleep_ms(2)

def chunk(k):  # 0.1 s at 8 kHz, every sample its own (none zero)
    return bytearray(array.array("h", [k * 800 + i + 1 for i in range(800)]))

calls = []
i2s = I2S(0, sck=Pin(14), ws=Pin(13), sd=Pin(12), mode=I2S.TX, bits=16, format=I2S.MONO,
          rate=8000, ibuf=2048)
"""

IN_ORDER = SOUND + """
chunks = [chunk(k) for k in range(6)]
def refill(port):
    calls.append(port is i2s)
    if len(calls) + 1 < len(chunks):
        port.write(chunks[len(calls) + 1])
i2s.irq(refill)
i2s.write(chunks[0])
i2s.write(chunks[1])
for _ in range(100):
    if len(calls) < 6:
        wait_ms(100)
print("calls", calls)
"""


def played(board, count, timeout=10.0):
    board._wait(lambda: len(board.audio.pcm()) >= 2 * count, timeout,
                lambda: "the speaker played %d samples, not %d" % (len(board.audio.pcm()) // 2, count))
    return array.array("h", board.audio.pcm())


def chunk(k):
    return list(range(k * 800 + 1, k * 800 + 801))


def sound(samples):
    return [s for s in samples if s]


def test_non_blocking_writes_play_in_order_with_one_call_each(make_board):
    board = make_board(main=IN_ORDER)
    out = board.wait_output(b"]\r\n", timeout=15)
    assert b"calls [True, True, True, True, True, True]" in out, out
    assert sound(played(board, 4800)) == [n for k in range(6) for n in chunk(k)]
    assert board.audio.rate == 8000


# writes of 0.2 s each over a 0.128 s DMA: the first waits for room, the second in the queue
WRITES_THEN = SOUND + """
i2s.irq(lambda port: calls.append(1))
for k in range(%d):
    i2s.write(chunk(k) + chunk(k + 3))
%s
wait_ms(700)
print("calls", len(calls), "end")
"""


def test_a_write_while_one_is_copied_and_one_queued_is_dropped(make_board):
    board = make_board(main=WRITES_THEN % (3, ""))
    out = board.wait_output(b"end", timeout=15)
    assert b"calls 2 end" in out, out
    samples = sound(played(board, 3200))
    assert samples == chunk(0) + chunk(3) + chunk(1) + chunk(4)  # the third write never played


def test_deinit_calls_back_the_write_being_copied_and_drops_the_queued_one(make_board):
    # i2s_channel_disable makes the port's task quit the write it copies, which then
    # schedules its handler; deinit deletes the task with the queued write
    board = make_board(main=WRITES_THEN % (2, "i2s.deinit()"))
    out = board.wait_output(b"end", timeout=15)
    assert b"calls 1 end" in out, out


CUT = SOUND + """
big = bytearray()
for k in range(10):
    big += chunk(k)
i2s.init(sck=Pin(14), ws=Pin(13), sd=Pin(12), mode=I2S.TX, bits=16, format=I2S.MONO, rate=8000, ibuf=8192)
i2s.write(big)  # 1 s, blocking: it returns once the last 0.5 s is in the DMA memory
i2s.deinit()  # ... which never plays
i2s.init(sck=Pin(14), ws=Pin(13), sd=Pin(12), mode=I2S.TX, bits=16, format=I2S.MONO, rate=8000, ibuf=2048)
i2s.write(chunk(12))
time.sleep_ms(300)
print("cut")
"""


def test_a_blocking_write_returns_once_in_dma_and_deinit_drops_what_it_holds(make_board):
    board = make_board(main=CUT)
    board.wait_output(b"cut", timeout=15)
    samples = sound(played(board, 4000))
    after = samples.index(12 * 800 + 1)
    assert 8000 - 4096 <= after < 8000  # the blocking write waited for room, the DMA's rest was cut
    assert samples == list(range(1, after + 1)) + chunk(12)


SHIFT_AND_ERRORS = """
import array
from machine import I2S, Pin

def shifted(bits, shift, samples):
    buf = bytearray(array.array("h" if bits == 16 else "i", samples))
    I2S.shift(buf=buf, bits=bits, shift=shift)
    return list(array.array("h" if bits == 16 else "i", buf))

print("s16", shifted(16, -2, [1000, -1000, 32767, -32768, 3, -3]))
print("s16up", shifted(16, 1, [1000, -1000, 20000, -20000]))
print("s32", shifted(32, -1, [100000, -100000, 2147483647, -2147483648, -1]))
print("s32up", shifted(32, 1, [100000, -100000, 1500000000]))
ok = dict(sck=Pin(14), ws=Pin(13), sd=Pin(12), mode=I2S.TX, bits=16, format=I2S.MONO, rate=8000, ibuf=4096)

def error(id=0, **changes):
    try:
        I2S(id, **dict(ok, **changes))
    except ValueError as e:
        return e

print("bad id", error(id=2), "mode", error(mode=3), "bits", error(bits=24), "format", error(format=2))
print("bad pin", error(sd=40))
try:
    I2S.shift(buf=bytearray(4), bits=24, shift=1)
except ValueError as e:
    print("bad shift", e)
view = array.array("h", [4, 8, 16])
I2S.shift(buf=memoryview(view)[1:], bits=16, shift=-2)  # a view's items, not its bytes
print("view", list(view))
print("same", I2S(1, **ok) is I2S(1, **ok), I2S.RX, I2S.TX, I2S.MONO, I2S.STEREO)
print("wrote", I2S(1, **ok).write(array.array("h", [7, 8, 9])), "end")  # bytes, not items
"""


def test_shift_and_the_ports_errors(make_board):
    board = make_board(main=SHIFT_AND_ERRORS)
    out = board.wait_output(b"end", timeout=15).decode()
    # extmod/machine_i2s.c: an arithmetic shift, the result stored in the sample's width
    for line in ("s16 [250, -250, 8191, -8192, 0, -1]", "s16up [2000, -2000, -25536, 25536]",
                 "s32 [50000, -50000, 1073741823, -1073741824, -1]", "s32up [200000, -200000, -1294967296]",
                 "bad id invalid id mode invalid mode bits invalid bits format invalid format",
                 "bad pin invalid pin", "bad shift invalid bits", "view [4, 2, 4]", "same True 1 2 0 1",
                 "wrote 6 end"):
        assert line in out, line
    assert sound(played(board, 3)) == [7, 8, 9]



TWO_FLAGS = SOUND + """
import asyncio
for n in (32, 33, 25, 26):
    Pin(n, Pin.OUT, value=0)  # every row low: a key pulls its column low
pressed, refill = asyncio.ThreadSafeFlag(), asyncio.ThreadSafeFlag()
Pin(27, Pin.IN, Pin.PULL_UP).irq(lambda p: pressed.set(), Pin.IRQ_FALLING)
i2s.irq(lambda port: refill.set())

async def keys():
    while True:
        await pressed.wait()
        print("key", len(calls))

async def speak():
    for k in range(12):  # 1.2 s
        i2s.write(chunk(k))
        if k:
            await refill.wait()
            calls.append(k)
    print("spoken")

asyncio.create_task(keys())
asyncio.run(speak())
"""


def test_a_key_wakes_its_task_while_another_waits_for_the_speaker(make_board):
    """Two ThreadSafeFlags wait at once (the keypad's, the speaker's): each wakes for its
    interrupt, whichever task took the supervisor's message in."""
    board = make_board(main=TWO_FLAGS)
    for n in range(4):
        mark = board.mark()
        board.press("4", ms=60, gap=150)  # row 2, column 1 (GPIO 27)
        board.wait_output(b"key", since=mark, timeout=2)
    board.wait_output(b"spoken", timeout=10)
    assert sound(played(board, 9600)) == [n for k in range(12) for n in chunk(k)]



def test_audio_out_records_what_the_speaker_played_as_a_wav(tmp_path):
    from mpremote_run import mpremote
    from test_command import headless_sim

    from croupier.sim import flash

    link, image, wav = tmp_path / "tty", tmp_path / "flash.img", tmp_path / "speech.wav"
    flash.create(image)
    script = SOUND + "i2s.write(chunk(0) + chunk(1) + chunk(2))\ni2s.write(chunk(5))\ntime.sleep_ms(400)\n"
    with headless_sim(link, image, "--audio-out", str(wav)) as proc:
        mpremote(link, "exec", script)
    assert "speech recorded: %s (" % wav in proc.stdout.read()
    with wave.open(str(wav)) as recording:
        assert (recording.getframerate(), recording.getsampwidth(), recording.getnchannels()) == (8000, 2, 1)
        samples = array.array("h", recording.readframes(recording.getnframes()))
    assert sound(samples) == chunk(0) + chunk(1) + chunk(2) + chunk(5)


def test_audio_plays_through_the_player_found_on_path_or_says_there_is_none(tmp_path, monkeypatch):
    from mpremote_run import mpremote
    from test_command import headless_sim

    from croupier.sim import flash

    link, image, heard = tmp_path / "tty", tmp_path / "flash.img", tmp_path / "heard.raw"
    flash.create(image)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir) + os.pathsep + os.path.dirname(sys.executable))
    proc = subprocess.Popen([sys.executable, "-m", "croupier.cli", "sim", "--headless", "--audio", "--flash",
                             str(image)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout.readline() == ("no audio player on PATH (aplay, paplay, pw-play, play, ffplay): "
                                          "the board's speech is not played\n")
        assert "virtual board running" in proc.stdout.readline()  # and it goes on
    finally:
        proc.terminate()
        proc.wait(15)

    player = bin_dir / "aplay"  # takes raw PCM on stdin, as aplay -t raw does
    player.write_text("#!/bin/sh\nexec %s > %s\n" % (shutil.which("cat", path=os.defpath), heard))
    player.chmod(0o755)
    with headless_sim(link, image, "--audio"):
        mpremote(link, "exec", SOUND + "i2s.write(chunk(0) + chunk(1))\ntime.sleep_ms(300)\n")
    assert sound(array.array("h", heard.read_bytes())) == chunk(0) + chunk(1)


TAKEN_ELSEWHERE = """
import asyncio, time
from machine import Pin
for n in (32, 33, 25, 26):
    Pin(n, Pin.OUT, value=0)
pressed = asyncio.ThreadSafeFlag()
Pin(27, Pin.IN, Pin.PULL_UP).irq(lambda p: pressed.set(), Pin.IRQ_FALLING)

async def keys():
    await pressed.wait()
    print("key")

async def busy():
    await asyncio.sleep_ms(50)  # keys() sleeps on the side channel from here
    print("busy")
    end = time.ticks_add(time.ticks_ms(), 1000)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        Pin(2).value()  # takes the key change in, and runs the pin's interrupt
    await asyncio.sleep_ms(1500)  # no message comes meanwhile: only set() can wake keys()
    print("slept")

asyncio.create_task(keys())
asyncio.run(busy())
"""


def test_a_flag_set_in_another_tasks_pin_read_wakes_the_task_asleep_on_it(make_board):
    board = make_board(main=TAKEN_ELSEWHERE)
    board.wait_output(b"busy")
    board.press("4", ms=60)
    out = board.wait_output(b"slept", timeout=10)
    assert b"key" in out and out.index(b"key") < out.index(b"slept")


@pytest.mark.parametrize("command", ["sim", "demo"])
def test_an_audio_out_that_cannot_be_written_is_refused_before_the_board_starts(tmp_path, command):
    proc = subprocess.run([sys.executable, "-m", "croupier.cli", command, "--audio-out", str(tmp_path / "no" / "x.wav")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode != 0
    assert proc.stderr.strip().endswith("no folder %s to write x.wav in (create it first)" % (tmp_path / "no"))
    assert proc.stdout == "" and not (tmp_path / "no").exists()


def test_a_pause_is_kept_when_the_port_is_turned_off_after_its_sound_ended():
    """The speaker makes its I2S again for each announcement: the pause before it stays."""
    import threading
    import time

    from croupier.sim.audio import Audio

    audio = Audio(threading.RLock(), lambda event, data: None, lambda port: None)
    sound = array.array("h", [1000] * 400).tobytes()  # 50 ms
    audio.turn_on(0, 8000, 16, 1, 2048)
    audio.write(0, sound, True)
    time.sleep(0.35)
    audio.advance()  # played: quiet from 50 ms on
    audio.turn_off(0)  # deinit, 300 ms later
    audio.turn_on(0, 8000, 16, 1, 2048)
    audio.write(0, sound, True)
    time.sleep(0.1)
    pcm = array.array("h", audio.pcm())
    assert list(pcm[:400]) == [1000] * 400 and list(pcm[-400:]) == [1000] * 400
    assert len(pcm) - 800 >= 0.25 * 8000  # the pause, from 50 ms to 350 ms at least
