"""The virtual board's speaker on the laptop: its speech played live through a player found
on PATH (`croupier sim --audio`), or saved as a WAV file (`--audio-out`)."""
import os
import shutil
import subprocess
import sys
import wave

# Players that take raw little-endian PCM on stdin: {name: arguments(rate, bits, channels)}.
PLAYERS = {
    "aplay": lambda r, b, c: ["-q", "-t", "raw", "-f", "S%d_LE" % b, "-c", str(c), "-r", str(r), "-"],
    "paplay": lambda r, b, c: ["--raw", "--format=s%dle" % b, "--channels=%d" % c, "--rate=%d" % r],
    "pw-play": lambda r, b, c: ["--format", "s%d" % b, "--channels", str(c), "--rate", str(r), "-"],
    "play": lambda r, b, c: ["-q", "-t", "raw", "-e", "signed", "-b", str(b), "-c", str(c), "-r", str(r), "-"],
    "ffplay": lambda r, b, c: ["-nodisp", "-autoexit", "-loglevel", "quiet", "-f", "s%dle" % b, "-ar", str(r),
                               "-ac", str(c), "-"],
}
CLOSE_WAIT = 5.0  # seconds a player may take to play what it holds once the board stops


class LivePlayer:
    """Streams what the board's speaker plays to a player process, in step with it. The
    board's I/O thread never waits on the player: what its pipe cannot take is skipped."""

    def __init__(self, board, player):
        self._board, self._player, self._proc, self._format = board, player, None, None
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
            os.set_blocking(self._proc.stdin.fileno(), False)
            self._format = fmt
        try:
            os.write(self._proc.stdin.fileno(), data)
        except (BlockingIOError, BrokenPipeError):
            pass  # a stuck or gone player loses sound, never the board's time

    def close(self):
        """Let the player finish what it was given (a few seconds at most), then end it."""
        if self._proc:
            self._proc.stdin.close()
            try:
                self._proc.wait(CLOSE_WAIT)
            except subprocess.TimeoutExpired:
                self._proc.terminate()
                self._proc.wait()
            self._proc = None


def play_live(board, err=sys.stderr):
    """A LivePlayer on the first player found on PATH; None, said in one line, when none is."""
    for name in PLAYERS:
        found = shutil.which(name)
        if found:
            return LivePlayer(board, found)
    print("no audio player on PATH (%s): the board's speech is not played" % ", ".join(PLAYERS), file=err)
    return None


def save_wav(board, path, out=sys.stdout):
    """Write what the board's speaker played to the WAV file path, and say so in one line."""
    audio = board.audio
    pcm = audio.pcm()
    if audio.rate is None:
        print("the board played no sound: %s not written" % path, file=out)
        return
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(audio.channels)
        wav.setsampwidth(audio.bits // 8)
        wav.setframerate(audio.rate)
        wav.writeframes(pcm)
    print("speech recorded: %s (%.1f s)" % (path, len(pcm) / (audio.rate * audio.bits // 8 * audio.channels)), file=out)
