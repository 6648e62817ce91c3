"""Bring a database of the previous schema (user_version 0) up to date, in place, in one
transaction: nothing is dropped that cannot be rebuilt from the records it keeps.

Version 0 kept Lobo 77's counts (tokens lost, doublets, busts, eliminated) for every game and
no bounds on dates. The upgrade adds the date columns and the sightings table, dates every
journal (its last sync bounds all its records from above), and rebuilds every game from its
records, so results hold each game's own measures and timelines the steps charts mark.
"""
from croupier.rules.canon import dumps as canon
from croupier.schema import RESULTS_TABLE

LEGACY_COUNTS = ("tokens_lost", "doublets", "busts", "eliminated")


def _add_columns(db, table, columns):
    have = {row[1] for row in db.execute("PRAGMA table_info(%s)" % table)}
    for column in columns:
        if column.split()[0] not in have:
            db.execute("ALTER TABLE %s ADD COLUMN %s" % (table, column))


def _rebuild_games(store):
    """Replay every game; one that no longer replays keeps its row and its old counts."""
    from croupier.sync import ReplayError, replay

    legacy = {}
    for row in store.db.execute("SELECT device, log_epoch, game_id, seat, name, won, %s FROM results_v0"
                                % ", ".join(LEGACY_COUNTS)):
        legacy.setdefault(row[:3], []).append({"seat": row[3], "name": row[4], "won": row[5],
                                               "measures": dict(zip(LEGACY_COUNTS, row[6:]))})
    keys = store.db.execute("SELECT device, log_epoch, game_id FROM games").fetchall()
    for device, log_epoch, game_id in keys:
        try:
            game, results = replay(store.records(device, log_epoch, game_id))
        except ReplayError:
            store.db.executemany("INSERT INTO results VALUES (?,?,?,?,?,?,?)",
                                 [(device, log_epoch, game_id, p["seat"], p["name"], p["won"], canon(p["measures"]))
                                  for p in legacy.get((device, log_epoch, game_id), [])])
            continue
        game.update(device=device, log_epoch=log_epoch)
        store.save_game(game, results)


def upgrade(store):
    db = store.db
    db.execute("BEGIN IMMEDIATE")
    with db:
        _add_columns(db, "records", ("boot INTEGER", "ms INTEGER", "t_min REAL", "t_max REAL"))
        _add_columns(db, "games", ("started_min REAL", "started_max REAL", "ended_min REAL", "ended_max REAL"))
        db.execute("ALTER TABLE results RENAME TO results_v0")
        db.execute(RESULTS_TABLE)  # execute, not executescript: that would commit half the upgrade
        # Every record stored was made before its journal's last sync ended.
        db.execute("INSERT INTO sightings SELECT d.device, d.log_epoch, MAX(r.seq), NULL, d.last_sync, NULL, NULL "
                   "FROM devices d JOIN records r ON r.device = d.device AND r.log_epoch = d.log_epoch "
                   "WHERE d.last_sync IS NOT NULL GROUP BY d.device, d.log_epoch")
        _rebuild_games(store)
        db.execute("DROP TABLE results_v0")
        for device, log_epoch in store.journals():
            store.date_journal(device, log_epoch)
