"""The local SQLite database: journal records as synced, and the games rebuilt from them.

Records are keyed by (device, log_epoch, seq): inserting one twice is a no-op, and a wiped or
reflashed board (new log_epoch) gets a fresh key space instead of colliding with the old one.
"""
import contextlib
import json
import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from croupier import dates
from croupier.migrate import upgrade
from croupier.rules.canon import dumps as canon
from croupier.schema import CORE_COLUMNS, GAME_COLUMNS, SCHEMA, SCHEMA_VERSION

DATE_COLUMNS = ("started_min", "started_max", "ended_min", "ended_max")
# What games() reads into DATE_COLUMNS: a game dated exactly (started, ended) is bounded by that
# moment. The laptop's games are: their records carry the laptop's own clock, and no sync dates them.
DATE_BOUNDS = ("COALESCE(started_min, started)", "COALESCE(started_max, started)",
               "COALESCE(ended_min, ended)", "COALESCE(ended_max, ended)")
RESULT_COLUMNS = ("seat", "name", "won", "measures")
JSON_COLUMNS = ("options", "final_state", "timeline")


def game_ref(game):
    """The stable name of a game: device:log_epoch:game_id."""
    return "%s:%s:%s" % (game["device"], game["log_epoch"], game["game_id"])


def _shortest_prefixes(names, least=4):
    """{name: its shortest prefix (at least `least` characters) that no other name shares}."""
    out = {}
    for name in names:
        size = min(least, len(name))
        while any(other != name and other.startswith(name[:size]) for other in names):
            size += 1
        out[name] = name[:size]
    return out


def short_refs(games):
    """{game_ref: the same name with device and log epoch cut to prefixes no other device (or
    other journal of that device) among `games` shares}: what a table has room for."""
    devices = _shortest_prefixes({g["device"] for g in games})
    epochs = {}
    for device in devices:
        epochs.update({(device, e): p for e, p in
                       _shortest_prefixes({g["log_epoch"] for g in games if g["device"] == device}).items()})
    return {game_ref(g): "%s:%s:%s" % (devices[g["device"]], epochs[(g["device"], g["log_epoch"])], g["game_id"])
            for g in games}


def default_path() -> Path:
    """The database when no --db names one: $CROUPIER_DB, else one in the user's data folder."""
    import platformdirs

    return Path(os.environ.get("CROUPIER_DB") or Path(platformdirs.user_data_dir("croupier")) / "croupier.sqlite3")



class Store:
    """readonly: for the commands that only read. The file must exist and be a Croupier
    database; it is opened read-only, so nothing (not even a journal file) is written. A
    database of an older schema is then upgraded in a copy in memory, never on disk."""

    def __init__(self, path, readonly=False):
        self.path = Path(path)
        self.db = None
        if readonly and not self.path.is_file():
            raise ValueError("no database at %s (run `croupier sync` to create it)" % self.path)
        try:
            self._open(readonly)
        except Exception:
            if self.db is not None:
                self.db.close()
            raise

    def _open(self, readonly):
        try:
            if readonly:
                self.db = sqlite3.connect("file:%s?mode=ro" % quote(str(self.path.resolve())), uri=True, timeout=10)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(str(self.path), timeout=10)
            version = self._schema_version(creating=not readonly)
            if version < SCHEMA_VERSION:
                if readonly:
                    self._copy_into_memory()
                self._upgrade()
        except sqlite3.OperationalError as exc:  # locked, unreadable, a journal left to roll back
            raise ValueError("cannot open the database %s: %s" % (self.path, exc)) from exc
        except sqlite3.DatabaseError as exc:  # not an SQLite file at all
            raise ValueError("%s is not a Croupier database: %s" % (self.path, exc)) from exc

    def _schema_version(self, creating):
        """The file's schema version (SCHEMA_VERSION for a new one, created when `creating`).
        Refuses a file without Croupier's tables (another program's), changing nothing."""
        tables = {name: {col[1] for col in self.db.execute('PRAGMA table_info("%s")' % name.replace('"', '""'))}
                  for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables and creating:
            self.db.executescript(SCHEMA)
            self.db.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)
            return SCHEMA_VERSION
        if any(not set(columns) <= tables.get(name, set()) for name, columns in CORE_COLUMNS.items()):
            raise ValueError("%s is not a Croupier database (its tables are %s): nothing was changed"
                             % (self.path, ", ".join(sorted(tables)) or "none"))
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def _copy_into_memory(self):
        memory = sqlite3.connect(":memory:")
        self.db.backup(memory)
        self.db.close()
        self.db = memory

    def _upgrade(self):
        self.db.executescript(SCHEMA)
        upgrade(self)
        self.db.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextlib.contextmanager
    def transaction(self):
        """All writes inside commit together or not at all."""
        with self.db:
            yield self

    # -- records -------------------------------------------------------------------
    def synced_upto(self, device, log_epoch):
        """The highest seq stored for this journal, or None when nothing is."""
        row = self.db.execute("SELECT MAX(seq) FROM records WHERE device=? AND log_epoch=?", (device, log_epoch)).fetchone()
        return row[0]

    def add_records(self, device, log_epoch, records) -> int:
        """Insert [seq, time, game_id, kind, data] records, or with [boot, ms] as a sixth
        element; returns how many were new."""
        before = self.db.total_changes
        self.db.executemany(
            "INSERT OR IGNORE INTO records (device, log_epoch, seq, time, game_id, kind, data, boot, ms) "
            "VALUES (?,?,?,?,?,?,?,?,?)",
            [(device, log_epoch, r[0], r[1], r[2], r[3], canon(r[4])) + (tuple(r[5]) if len(r) > 5 else (None, None))
             for r in records])
        return self.db.total_changes - before

    def records(self, device, log_epoch, game_id=None):
        """The records as the board sent them: [boot, ms] as a sixth element when it did."""
        sql = "SELECT seq, time, game_id, kind, data, boot, ms FROM records WHERE device=? AND log_epoch=?"
        params = [device, log_epoch]
        if game_id is not None:
            sql += " AND game_id=?"
            params.append(game_id)
        rows = self.db.execute(sql + " ORDER BY seq", params)
        return [[seq, t, gid, kind, json.loads(data)] + ([[boot, ms]] if boot is not None else [])
                for seq, t, gid, kind, data, boot, ms in rows]

    def seqs(self, device, log_epoch):
        """The seqs held of a journal, ascending; a gap is records another database took."""
        rows = self.db.execute("SELECT seq FROM records WHERE device=? AND log_epoch=? ORDER BY seq", (device, log_epoch))
        return [row[0] for row in rows]

    def journals(self):
        """Every (device, log_epoch) with records."""
        return self.db.execute("SELECT DISTINCT device, log_epoch FROM records ORDER BY device, log_epoch").fetchall()

    def last_game_id(self, device, log_epoch):
        row = self.db.execute("SELECT game_id FROM records WHERE device=? AND log_epoch=? ORDER BY seq DESC LIMIT 1",
                              (device, log_epoch)).fetchone()
        return row[0] if row else None

    def record_count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM records").fetchone()[0]

    # -- devices ---------------------------------------------------------------------
    def note_sync(self, device, log_epoch, board, fw, when):
        self.db.execute("INSERT OR REPLACE INTO devices VALUES (?,?,?,?,?)", (device, log_epoch, board, fw, when))

    def log_epochs(self, device):
        """The journals (log_epoch) stored for device, the first one noted first."""
        rows = self.db.execute("SELECT log_epoch FROM devices WHERE device=? ORDER BY last_sync, log_epoch", (device,))
        return [row[0] for row in rows]

    # -- dates -----------------------------------------------------------------------------
    def add_sighting(self, device, log_epoch, after_seq, t_min, t_max, boot, ms):
        """A sync's `hello`: power-up `boot` was `ms` into its run, with `after_seq` the last
        record written, at a host time from t_min to t_max (Unix seconds; None: unbounded)."""
        self.db.execute("INSERT INTO sightings VALUES (?,?,?,?,?,?,?)", (device, log_epoch, after_seq, t_min, t_max, boot, ms))

    def date_journal(self, device, log_epoch):
        """Work out when each record of this journal was made (dates.bounds over its records
        and sightings), and so when each of its games started and ended."""
        key = (device, log_epoch)
        records = self.db.execute("SELECT seq, time, boot, ms FROM records WHERE device=? AND log_epoch=? ORDER BY seq",
                                  key).fetchall()
        sightings = self.db.execute("SELECT after_seq, t_min, t_max, boot, ms FROM sightings "
                                    "WHERE device=? AND log_epoch=? ORDER BY after_seq, rowid", key).fetchall()
        # journal order: a sighting after the records it saw, before those written after it
        ordered = sorted([(after_seq + 0.5, None, dates.Event(boot, ms, (lo, hi)))
                          for after_seq, lo, hi, boot, ms in sightings]
                         + [(seq, seq, dates.record_event(stamp, [boot, ms] if boot is not None else None))
                            for seq, stamp, boot, ms in records], key=lambda item: item[0])
        found = dates.bounds([event for _, _, event in ordered])
        when = {seq: b for (_, seq, _), b in zip(ordered, found) if seq is not None}
        self.db.executemany("UPDATE records SET t_min=?, t_max=? WHERE device=? AND log_epoch=? AND seq=?",
                            [when[seq] + key + (seq,) for seq in when])
        ends = dict(self.db.execute("SELECT game_id, seq FROM records WHERE device=? AND log_epoch=? "
                                    "AND kind IN ('end', 'abandon')", key).fetchall())
        unknown = (None, None)
        for (game_id,) in self.db.execute("SELECT game_id FROM games WHERE device=? AND log_epoch=?", key).fetchall():
            started, ended = when.get(game_id, unknown), when.get(ends.get(game_id), unknown)
            moments = [dates.exact(*b) for b in (started, ended)]
            self.db.execute("UPDATE games SET started=?, ended=?, started_min=?, started_max=?, ended_min=?, ended_max=? "
                            "WHERE device=? AND log_epoch=? AND game_id=?",
                            [None if m is None else round(m) for m in moments] + list(started + ended) + list(key)
                            + [game_id])

    # -- games -------------------------------------------------------------------------
    def save_game(self, game, results):
        """Replace one rebuilt game (dict with GAME_COLUMNS) and its per-seat results."""
        key = (game["device"], game["log_epoch"], game["game_id"])
        row = [canon(game[c]) if c in JSON_COLUMNS else game[c] for c in GAME_COLUMNS]
        self.db.execute("INSERT OR REPLACE INTO games (%s) VALUES (%s)" % (",".join(GAME_COLUMNS), ",".join("?" * len(GAME_COLUMNS))), row)
        self.db.execute("DELETE FROM results WHERE device=? AND log_epoch=? AND game_id=?", key)
        self.db.executemany("INSERT INTO results VALUES (?,?,?,?,?,?,?)",
                            [key + (r["seat"], r["name"], r["won"], canon(r["measures"])) for r in results])

    def mark_computers(self, device, log_epoch, game_id, strengths):
        """Note the seats of a game that the computer plays: strengths = {seat: strength}."""
        self.db.executemany("INSERT OR REPLACE INTO computer_seats VALUES (?,?,?,?,?)",
                            [(device, log_epoch, game_id, seat, strength) for seat, strength in strengths.items()])

    def _computer_seats(self):
        """{(device, log_epoch, game_id, seat): strength}"""
        rows = self.db.execute("SELECT device, log_epoch, game_id, seat, strength FROM computer_seats")
        return {tuple(row[:4]): row[4] for row in rows}

    def games(self, status=None):
        """Games oldest first, each a dict of GAME_COLUMNS and DATE_COLUMNS plus `players`
        (list of result dicts, each with `computer`: the strength of a computer
        player, else None). Oldest by the latest each game can have started."""
        sql = "SELECT %s FROM games" % ",".join(GAME_COLUMNS + DATE_BOUNDS)
        params = []
        if status:
            sql += " WHERE status=?"
            params.append(status)
        players = {}  # every game's results in one query, not one per game
        computers = self._computer_seats()
        for row in self.db.execute("SELECT device, log_epoch, game_id, %s FROM results ORDER BY seat"
                                   % ",".join(RESULT_COLUMNS)):
            player = dict(zip(RESULT_COLUMNS, row[3:]), computer=computers.get(row[:3] + (row[3],)))
            player["measures"] = json.loads(player["measures"])
            players.setdefault(row[:3], []).append(player)
        games = []
        for row in self.db.execute(sql + " ORDER BY COALESCE(%s, %s, 0), device, log_epoch, game_id" % (DATE_BOUNDS[1], DATE_BOUNDS[0]), params):
            game = dict(zip(GAME_COLUMNS + DATE_COLUMNS, row))
            for c in JSON_COLUMNS:
                game[c] = json.loads(game[c])
            game["players"] = players.get(row[:3], [])
            games.append(game)
        return games

    def find_game(self, ref, games=None):
        """The game named by `ref`: its list number in `games` (1 = oldest) or `device:epoch:id`,
        whole or as short_refs() shows it. games: what games() gave, when the caller has it already."""
        games = self.games() if games is None else games
        if ref.isdigit() and 1 <= int(ref) <= len(games):
            return games[int(ref) - 1]
        short = short_refs(games)
        for g in games:
            if ref in (game_ref(g), short[game_ref(g)]):
                return g
        raise ValueError("no game %r in %s (see `croupier games`)" % (ref, self.path))
