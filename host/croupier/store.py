"""The local SQLite database: journal records as synced, and the games rebuilt from them.

Records are keyed by (device, log_epoch, seq): inserting one twice is a no-op, and a wiped or
reflashed board (new log_epoch) gets a fresh key space instead of colliding with the old one.
"""
import contextlib
import json
import sqlite3
from pathlib import Path

from croupier.rules.canon import dumps as canon

SCHEMA = """
CREATE TABLE IF NOT EXISTS devices (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL,
    board TEXT, fw TEXT, last_sync INTEGER,
    PRIMARY KEY (device, log_epoch));
CREATE TABLE IF NOT EXISTS records (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, seq INTEGER NOT NULL,
    time INTEGER, game_id INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (device, log_epoch, seq));
CREATE INDEX IF NOT EXISTS records_by_game ON records (device, log_epoch, game_id, seq);
CREATE TABLE IF NOT EXISTS games (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, game_id INTEGER NOT NULL,
    game TEXT NOT NULL, status TEXT NOT NULL,          -- playing | over | abandoned
    started INTEGER, ended INTEGER, options TEXT NOT NULL,
    final_state TEXT NOT NULL, timeline TEXT NOT NULL,  -- JSON
    PRIMARY KEY (device, log_epoch, game_id));
CREATE TABLE IF NOT EXISTS results (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, game_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    name TEXT NOT NULL, won INTEGER NOT NULL, tokens_lost INTEGER NOT NULL,
    doublets INTEGER NOT NULL, busts INTEGER NOT NULL, eliminated INTEGER NOT NULL,
    PRIMARY KEY (device, log_epoch, game_id, seat));
-- Seats played by the computer (games against the computer on the laptop), and how strong.
CREATE TABLE IF NOT EXISTS computer_seats (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, game_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    strength INTEGER NOT NULL,
    PRIMARY KEY (device, log_epoch, game_id, seat));
"""

GAME_COLUMNS = ("device", "log_epoch", "game_id", "game", "status", "started", "ended", "options", "final_state", "timeline")
RESULT_COLUMNS = ("seat", "name", "won", "tokens_lost", "doublets", "busts", "eliminated")
JSON_COLUMNS = ("options", "final_state", "timeline")


def game_ref(game):
    """The stable name of a game: device:log_epoch:game_id."""
    return "%s:%s:%s" % (game["device"], game["log_epoch"], game["game_id"])


def default_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("croupier")) / "croupier.sqlite3"


class Store:
    def __init__(self, path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(self.path), timeout=10)
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ValueError("%s is not a Croupier database: %s" % (self.path, exc)) from exc

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
        """Insert [seq, time, game_id, kind, data] records; returns how many were new."""
        before = self.db.total_changes
        self.db.executemany(
            "INSERT OR IGNORE INTO records VALUES (?,?,?,?,?,?,?)",
            [(device, log_epoch, seq, t, gid, kind, canon(data)) for seq, t, gid, kind, data in records])
        return self.db.total_changes - before

    def records(self, device, log_epoch, game_id=None):
        sql = "SELECT seq, time, game_id, kind, data FROM records WHERE device=? AND log_epoch=?"
        params = [device, log_epoch]
        if game_id is not None:
            sql += " AND game_id=?"
            params.append(game_id)
        rows = self.db.execute(sql + " ORDER BY seq", params)
        return [[seq, t, gid, kind, json.loads(data)] for seq, t, gid, kind, data in rows]

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

    # -- games -------------------------------------------------------------------------
    def save_game(self, game, results):
        """Replace one rebuilt game (dict with GAME_COLUMNS) and its per-seat results."""
        key = (game["device"], game["log_epoch"], game["game_id"])
        row = [canon(game[c]) if c in JSON_COLUMNS else game[c] for c in GAME_COLUMNS]
        self.db.execute("INSERT OR REPLACE INTO games VALUES (%s)" % ",".join("?" * len(GAME_COLUMNS)), row)
        self.db.execute("DELETE FROM results WHERE device=? AND log_epoch=? AND game_id=?", key)
        self.db.executemany("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?)",
                            [key + tuple(r[c] for c in RESULT_COLUMNS) for r in results])

    def mark_computers(self, device, log_epoch, game_id, strengths):
        """Note the seats of a game that the computer plays: strengths = {seat: strength}."""
        self.db.executemany("INSERT OR REPLACE INTO computer_seats VALUES (?,?,?,?,?)",
                            [(device, log_epoch, game_id, seat, strength) for seat, strength in strengths.items()])

    def _computer_seats(self):
        """{(device, log_epoch, game_id, seat): strength}; {} when the database predates the table
        (a read-only open does not create it)."""
        try:
            rows = self.db.execute("SELECT device, log_epoch, game_id, seat, strength FROM computer_seats")
            return {tuple(row[:4]): row[4] for row in rows}
        except sqlite3.OperationalError:
            return {}

    def games(self, status=None):
        """Games oldest first, each a dict of GAME_COLUMNS plus `players` (list of result dicts,
        each with `computer`: the strength of a computer player, else None)."""
        sql = "SELECT %s FROM games" % ",".join(GAME_COLUMNS)
        params = []
        if status:
            sql += " WHERE status=?"
            params.append(status)
        players = {}  # every game's results in one query, not one per game
        computers = self._computer_seats()
        for row in self.db.execute("SELECT device, log_epoch, game_id, %s FROM results ORDER BY seat"
                                   % ",".join(RESULT_COLUMNS)):
            player = dict(zip(RESULT_COLUMNS, row[3:]), computer=computers.get(row[:3] + (row[3],)))
            players.setdefault(row[:3], []).append(player)
        games = []
        for row in self.db.execute(sql + " ORDER BY COALESCE(started, 0), device, log_epoch, game_id", params):
            game = dict(zip(GAME_COLUMNS, row))
            for c in JSON_COLUMNS:
                game[c] = json.loads(game[c])
            game["players"] = players.get(row[:3], [])
            games.append(game)
        return games

    def find_game(self, ref, games=None):
        """The game named by `ref`: its list number in `games` (1 = oldest) or `device:epoch:id`.
        games: what games() gave, when the caller has it already."""
        games = self.games() if games is None else games
        if ref.isdigit() and 1 <= int(ref) <= len(games):
            return games[int(ref) - 1]
        for g in games:
            if ref == game_ref(g):
                return g
        raise ValueError("no game %r in %s (see `croupier games`)" % (ref, self.path))
