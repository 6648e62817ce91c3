# Tunes on a passive piezo, played by their own task so nothing waits for them. play() only
# picks the tune; run() sounds it note by note. A new tune cuts the one playing at its next
# note, except that the key click never cuts an announcement.
from micropython import const
import asyncio

_LOUD = const(32768)  # 50 % duty: the loudest square wave

# name -> (frequency Hz, duration ms) pairs, 0 Hz = rest
TUNES = {
    "click": (4000, 8),
    "error": (220, 120, 0, 40, 180, 220),
    "doublet": (1319, 70, 0, 30, 1319, 70),
    "bust": (392, 110, 330, 110, 262, 260),
    "swimming": (523, 90, 440, 90, 349, 90, 294, 200),
    "eliminated": (294, 160, 0, 40, 220, 160, 0, 40, 147, 420),
    "round_end": (523, 100, 659, 100, 784, 180),
    "game_end": (523, 110, 659, 110, 784, 110, 1047, 320, 0, 60, 784, 110, 1047, 420),
    "boot": (1047, 60, 1568, 90),
}


class Buzzer:
    def __init__(self, pin):
        from machine import PWM

        self._pwm = PWM(pin, freq=1000, duty_u16=0)
        self._tune = None  # the tune to play next, or playing
        self._note = 0  # index of the next note pair in it
        self._wake = asyncio.Event()

    def play(self, name):
        """Start a tune and return at once; ValueError for an unknown tune."""
        tune = TUNES.get(name)
        if tune is None:
            raise ValueError("unknown tune %r" % (name,))
        if name == "click" and self._tune is not None:
            return
        self._tune = tune
        self._note = 0
        self._wake.set()

    async def run(self):
        pwm = self._pwm
        while True:
            tune = self._tune
            if tune is None:
                pwm.duty_u16(0)
                self._wake.clear()
                await self._wake.wait()
                continue
            i = self._note
            if i >= len(tune):
                self._tune = None
                continue
            self._note = i + 2
            freq, ms = tune[i], tune[i + 1]
            if freq:
                pwm.freq(freq)
                pwm.duty_u16(_LOUD)
            else:
                pwm.duty_u16(0)
            await asyncio.sleep_ms(ms)
