"""A new card is said even when the port never called the speaker's I2S handler for the last
one's writes: the ESP32 port's task schedules it with mp_sched_schedule, which drops a call
when the scheduler's queue is full (ports/esp32/machine_i2s.c, py/scheduler.c, v1.23.0).
croupier.speaker on the unix port, with an I2S that takes writes and never calls back.
"""
import subprocess
from pathlib import Path

from croupier.voice import bank

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
WORD_BYTES = 2048  # four of the speaker's chunks: a word is still being written when cut

FAKE_MACHINE = """
class I2S:
    @staticmethod
    def shift(*, buf, bits, shift):
        pass
"""

SCRIPT = """
import sys
sys.path.insert(0, %r)
sys.path.insert(0, %r)
import asyncio
from croupier.speaker import Speaker

ports = []

class Port:  # takes every write; its handler is never called (every call lost)
    def __init__(self):
        self.first = []
    def irq(self, handler):
        pass
    def write(self, buf):
        self.first.append(buf[0])
    def deinit(self):
        pass

def open_i2s(rate, ibuf):
    ports.append(Port())
    return ports[-1]

async def main():
    speaker = Speaker(open_i2s, %r, "fr", 3)
    task = asyncio.create_task(speaker.run())
    speaker.say(["un"], [])
    speaker.start()
    await asyncio.sleep_ms(50)
    speaker.say(["deux"], [])
    speaker.start()
    await asyncio.sleep_ms(200)
    print("heard", [p.first for p in ports])
    task.cancel()

asyncio.run(main())
"""


def test_a_new_card_is_said_when_the_last_ones_handler_calls_never_came(micropython, tmp_path):
    from croupier.voice.defaults import inventory

    words = inventory("fr")
    voice = tmp_path / "voice"
    voice.mkdir()
    # word i's samples are all i + 1: the first byte of a write says which word it holds
    (voice / "fr.vox").write_bytes(bank.write([(w, bytes([i + 1, 0]) * (WORD_BYTES // 2))
                                               for i, w in enumerate(words)]))
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "machine.py").write_text(FAKE_MACHINE)
    script = SCRIPT % (str(fake), str(FIRMWARE), str(voice))
    out = subprocess.run([micropython, "-c", script], capture_output=True, text=True, timeout=60)
    un, deux = words.index("un") + 1, words.index("deux") + 1
    # "un": two writes, the most the port holds; then "deux" on the I2S made again
    assert out.stdout.strip() == "heard %r" % [[un, un], [deux, deux]], out.stdout + out.stderr
