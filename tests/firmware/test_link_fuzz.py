"""Protocol fuzz: random and malformed frames, each answered with the right error or ignored
as noise; the game is unchanged and the firmware still answers. tests/bench/bench_firmware_io.py
runs the same cases 10,000 times."""
import json
import random

from fwlink import LINE_MAX, crc_hex, frame

# Ctrl-C and Ctrl-D stay out: on the real port they interrupt MicroPython on purpose.
_BYTES = bytes(b for b in range(256) if b not in (3, 4, 10, 13))
_JUNK_VALUES = [None, True, 1.5, -7, "", "x" * 40, [], [1, "a"], {}, {"a": 1}]


def _junk(rnd, n):
    return bytes(rnd.choice(_BYTES) for _ in range(n))


def fuzz_case(rnd, rid):
    """-> (line, expected): expected is an error code, None for noise (no answer)."""
    kind = rnd.randrange(9)
    if kind == 0:
        return b"#" + _junk(rnd, rnd.randrange(0, 150)) + b"\n", None  # and a hello: in the window
    if kind == 1:
        payload = b"{" + _junk(rnd, rnd.randrange(0, 100))
        return frame(raw=payload, crc=rnd.random() < 0.5), "bad_frame"
    if kind == 2:
        good = json.dumps({"id": rid, "cmd": "state"}).encode()
        bad = crc_hex(good + b"x")
        return b"@" + good + b"|" + bad.encode() + b"\n", "bad_frame"
    if kind == 3:
        return frame({"id": rid, "cmd": "".join(rnd.choice("abcxyz_") for _ in range(6))}), "unknown_cmd"
    if kind == 4:
        cmd, arg = rnd.choice([("play", "card"), ("log", "from"), ("log", "max"), ("ack", "upto"),
                               ("key", "key"), ("key", "hold"), ("clock", "epoch"),
                               ("roster", "names"), ("new", "players"), ("new", "game")])
        value = rnd.choice([v for v in _JUNK_VALUES  # leave out the well-typed ones
                            if not (arg == "hold" and v is True or arg == "card" and v)])
        request = {"id": rid, "cmd": cmd, arg: value}
        if cmd == "new":
            request.setdefault("game", "lobo77")
            request.setdefault("players", ["A", "B"])
        if cmd == "key":
            request.setdefault("key", "9")
        if cmd == "roster" and isinstance(value, list) and not value:
            value = request[arg] = [1]
        return frame(request), "bad_args"
    if kind == 5:
        return b"@" + _junk(rnd, rnd.randrange(LINE_MAX - 1, 257)) + b"\n", "too_long"  # fits the ring
    if kind == 6:
        card = rnd.choice(["77x", "2y", "basta", "-", "x" * 40])
        return frame({"id": rid, "cmd": "play", "card": card}), "illegal"
    if kind == 7:
        return frame({"id": rid, "cmd": "hello", rnd.choice("abc"): 1}), "bad_args"
    return frame({"id": rid, "cmd": rnd.choice(["hello", "state", "log"])}), "ok"


def run_fuzz(frames, n, seed):
    """Send n fuzz cases; returns {expected: count}. Each is checked as it is answered."""
    rnd = random.Random(seed)
    counts = {}
    for i in range(n):
        rid = 100_000 + i
        line, expected = fuzz_case(rnd, rid)
        frames.send_raw(line)
        if expected is None:
            frames.send_raw(frame({"id": rid, "cmd": "hello"}))
            answer = frames.read_frame()
            assert answer == frames.ok_shape(answer) and answer.get("id") == rid, (line, answer)
        else:
            answer = frames.read_frame()
            while answer is not None and "ev" in answer:
                answer = frames.read_frame()
            assert answer is not None, ("no answer", line[:80])
            if expected == "ok":
                assert answer["ok"] is True and answer["id"] == rid, (line, answer)
            else:
                assert answer["ok"] is False and answer["error"] == expected, (line[:120], answer)
                parsed = expected not in ("bad_frame", "too_long")
                assert answer["id"] == (rid if parsed else None), (line[:120], answer)
        counts[expected] = counts.get(expected, 0) + 1
    return counts


def test_fuzz_300_frames(frames):
    frames.ok("new", game="lobo77", players=["Ann", "Bob", "Cy"])
    frames.ok("play", card="9")
    before = frames.ok("state")["state"]
    last_seq = frames.ok("hello")["last_seq"]
    counts = run_fuzz(frames, 300, seed=1)
    assert len(counts) == 7  # every kind of answer (and noise) came up
    assert frames.ok("state")["state"] == before
    assert frames.ok("hello")["last_seq"] == last_seq
    assert frames.ok("play", card="5")["state"]["total"] == 14
