"""The tables of the local database (store.py), and what tells a Croupier database from
another program's SQLite file."""

SCHEMA_VERSION = 1  # PRAGMA user_version; 0: before records carried [boot, ms] (migrate.py)
RESULTS_TABLE = """
CREATE TABLE IF NOT EXISTS results (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, game_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    name TEXT NOT NULL, won INTEGER NOT NULL, measures TEXT NOT NULL,  -- JSON: scoring.MEASURES
    PRIMARY KEY (device, log_epoch, game_id, seat));
"""
SCHEMA = """
CREATE TABLE IF NOT EXISTS devices (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL,
    board TEXT, fw TEXT, last_sync INTEGER,
    PRIMARY KEY (device, log_epoch));
CREATE TABLE IF NOT EXISTS records (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, seq INTEGER NOT NULL,
    time INTEGER, game_id INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    boot INTEGER, ms INTEGER,          -- the board's power-up count and ms since, when it sent them
    t_min REAL, t_max REAL,            -- when it was made, Unix seconds (dates.py); NULL: unbounded
    PRIMARY KEY (device, log_epoch, seq));
CREATE INDEX IF NOT EXISTS records_by_game ON records (device, log_epoch, game_id, seq);
CREATE TABLE IF NOT EXISTS sightings (  -- each sync's hello: the board's clock against the host's
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, after_seq INTEGER NOT NULL,
    t_min REAL, t_max REAL, boot INTEGER, ms INTEGER);
CREATE TABLE IF NOT EXISTS games (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, game_id INTEGER NOT NULL,
    game TEXT NOT NULL, status TEXT NOT NULL,          -- playing | over | abandoned
    started INTEGER, ended INTEGER, options TEXT NOT NULL,  -- started/ended: when exactly known
    final_state TEXT NOT NULL, timeline TEXT NOT NULL,  -- JSON
    started_min REAL, started_max REAL, ended_min REAL, ended_max REAL,  -- bounds, as records'
    PRIMARY KEY (device, log_epoch, game_id));
-- Seats played by the computer (games against the computer on the laptop), and how strong.
CREATE TABLE IF NOT EXISTS computer_seats (
    device TEXT NOT NULL, log_epoch TEXT NOT NULL, game_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    strength INTEGER NOT NULL,
    PRIMARY KEY (device, log_epoch, game_id, seat));
""" + RESULTS_TABLE

GAME_COLUMNS = ("device", "log_epoch", "game_id", "game", "status", "started", "ended", "options", "final_state", "timeline")

# The columns every Croupier database has had, in every schema version: what tells one
# from another program's SQLite file.
CORE_COLUMNS = {
    "devices": ("device", "log_epoch", "board", "fw", "last_sync"),
    "records": ("device", "log_epoch", "seq", "time", "game_id", "kind", "data"),
    "games": GAME_COLUMNS,
    "results": ("device", "log_epoch", "game_id", "seat", "name", "won"),
}
