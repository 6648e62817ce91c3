"""The virtual board's speaker on the laptop: its speech played live through a player found
on PATH (`croupier sim --audio`), or saved as a WAV file (`--audio-out`)."""
import os
import queue
import shutil
import subprocess
import sys
import threading
import wave

# Players that take raw little-endian PCM on stdin: {name: arguments(rate, bits, channels)}.
PLAYERS = {
    "aplay": lambda r, b, c: ["-q", "-t", "raw", "-f", "S%d_LE" % b, "-c", str(c), "-r", str(r), "-"],
    "paplay": lambda r, b, c: ["--raw", "--format=s%dle" % b, "--channels=%d" % c, "--rate=%d" % r],
    "pw-play": lambda r, b, c: ["--format", "s%d" % b, "--channels", str(c), "--rate", str(r), "-"],
    "play": lambda r, b, c: ["-q", "-t", "raw", "-e", "signed", "-b", str(b), "-c", str(c), "-r", str(r), "-"],
    "ffplay": lambda r, b, c: ["-nodisp", "-autoexit", "-loglevel", "quiet", "-f", "s%dle" % b, "-ar", str(r)]
                              + (["-ac", str(c)] if c != 1 else []) + ["-"],  # raw input is mono unless told
}
CLOSE_WAIT = 5.0  # seconds a player may take to play what it holds once the board stops
WAITING_KEPT = 100  # pieces of sound (up to 50 ms each) kept for a player that lags; more are dropped


class LivePlayer:
    """Streams what the board's speaker plays to a player process, in step with it. The
    board's I/O thread never waits on the player: a feeder thread writes to it, and what a
    stuck player leaves waiting past WAITING_KEPT pieces is dropped, whole pieces (frames
    stay whole)."""

    def __init__(self, board, player):
        self._board, self._player, self._format = board, player, None
        self._proc = self._pieces = self._feeder = None
        board.subscribe(self._on_event)

    def _on_event(self, event, data):
        if event != "audio":
            return
        audio = self._board.audio
        fmt = (audio.rate, audio.bits, audio.channels)
        if fmt != self._format:  # the first sound, or the board changed its I2S format
            self.close()
            self._proc = subprocess.Popen([self._player, *PLAYERS[os.path.basename(self._player)](*fmt)],
                                          stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL)
            self._pieces = queue.Queue(WAITING_KEPT)
            self._feeder = threading.Thread(target=self._feed, args=(self._proc, self._pieces), daemon=True)
            self._feeder.start()
            self._format = fmt
        try:
            self._pieces.put_nowait(data)
        except queue.Full:
            pass  # a stuck player loses sound, never the board's time

    @staticmethod
    def _feed(proc, pieces):
        """On the feeder thread: the pieces into the player's stdin until None, then EOF."""
        for piece in iter(pieces.get, None):
            try:
                proc.stdin.write(piece)
                proc.stdin.flush()
            except (BrokenPipeError, ValueError):  # the player is gone, or close() ended it
                pass
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass

    def close(self):
        """Let the player finish what it was given (CLOSE_WAIT at most), then end it."""
        if self._proc:
            try:
                self._pieces.put(None, timeout=CLOSE_WAIT)
                self._feeder.join(CLOSE_WAIT)
                self._proc.wait(CLOSE_WAIT)
            except (queue.Full, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
            self._proc = None


def play_live(board):
    """A LivePlayer on the first player found on PATH; None, said in one line, when none is."""
    for name in PLAYERS:
        found = shutil.which(name)
        if found:
            return LivePlayer(board, found)
    print("no audio player on PATH (%s): the board's speech is not played" % ", ".join(PLAYERS),
          file=sys.stderr)
    return None


def save_wav(board, path):
    """Write what the board's speaker played to the WAV file path, and say so in one line."""
    audio = board.audio
    pcm = audio.pcm()
    if audio.rate is None:
        print("the board played no sound: %s not written" % path)
        return
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(audio.channels)
        wav.setsampwidth(audio.bits // 8)
        wav.setframerate(audio.rate)
        wav.writeframes(pcm)
    print("speech recorded: %s (%.1f s)" % (path, len(pcm) / (audio.rate * audio.bits // 8 * audio.channels)))
