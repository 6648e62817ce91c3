"""Journal records made the way the firmware makes them, and read back from a board."""
from croupier.rules import new_game

T0 = 1_700_000_000
LOBO = ["Ana", "Ben", "Cleo", "Dev"]
BASTA = ["Ana", "Ben", "Cleo"]


def journal(game, players, inputs, options=None, first_seq=1, with_end=True):
    """Records [seq, time, game_id, kind, data] of one game; `inputs` are cards or "undo"/"redo".

    Like the firmware: the `new` record's seq is the game id, every input is journalled, and an
    `end` record with the final state follows the input that finishes the game.
    """
    engine = new_game(game, players, options)
    seq = first_seq
    records = [[seq, T0, first_seq, "new", engine.setup()]]
    for item in inputs:
        seq += 1
        if item in ("undo", "redo"):
            getattr(engine, item)()
            records.append([seq, T0 + seq, first_seq, item, None])
        else:
            engine.play(item)
            records.append([seq, T0 + seq, first_seq, "play", item])
    if with_end and engine.state()["over"]:
        seq += 1
        records.append([seq, T0 + seq, first_seq, "end", engine.state()])
    return records


def device_records(link):
    """Every journal record the board holds now, pulled over a clean link."""
    from croupier.sync import pull

    return pull(link, link.hello()["log_epoch"], 0)


def fill_database(path, games=1):
    """Write `games` times a finished Lobo 77 and a finished BASTA game, then an unfinished
    Lobo 77 game, into a new database at path; -> str(path)."""
    from croupier.commands.demo import script_game
    from croupier.store import Store
    from croupier.sync import replay

    plays = [("lobo77", LOBO, script_game("lobo77", LOBO, seed=1)),
             ("basta", BASTA, script_game("basta", BASTA, seed=1))] * games + [("lobo77", BASTA, ["9", "2"])]
    seq = 1
    with Store(path) as store, store.transaction():
        for game, players, cards in plays:
            records = journal(game, players, cards, first_seq=seq)
            seq += len(records)
            store.add_records("dev1", "e1", records)
            rebuilt, results = replay(records)
            rebuilt.update(device="dev1", log_epoch="e1")
            store.save_game(rebuilt, results)
    return str(path)

def stamped(records, boot, first_ms, step_ms=1000, power_up=None):
    """The records as firmware that counts its power-ups writes them: [boot, ms] appended,
    the ms rising by step_ms from first_ms; the time is power_up + ms / 1000 (whole seconds)
    when the board knew it (power_up: the Unix time of that power-up), else None."""
    out = []
    for i, rec in enumerate(records):
        ms = first_ms + i * step_ms
        stamp = None if power_up is None else int(power_up + ms / 1000)
        out.append([rec[0], stamp] + rec[2:5] + [[boot, ms]])
    return out
