-- Several servers on one PostgreSQL database. On SQLite (one server) these tables stay empty.

-- Which server does a game's timed work (its clock's flag, its engine's moves) and until when: the holder
-- renews its leases every second; once a lease has expired, another server takes the game over.
CREATE TABLE leases (
    game_id TEXT PRIMARY KEY,
    process TEXT NOT NULL,
    until_ms BIGINT NOT NULL
);
CREATE INDEX leases_process ON leases (process);
CREATE INDEX leases_until ON leases (until_ms);

-- The users with a page open on each server, and the pages watching each game: every server shows the
-- online list and the spectator counts of all of them. Rows of a server whose heartbeat has stopped are
-- ignored, and purged.
CREATE TABLE presence (
    process TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (process, user_id)
);
CREATE TABLE viewers (
    process TEXT NOT NULL,
    game_id TEXT NOT NULL,
    viewer TEXT NOT NULL,
    PRIMARY KEY (process, game_id, viewer)
);
