-- Moderation: admins (made by `gridplay admin grant`), accounts closed or marked as engine users, chat mutes,
-- players' reports, and the record of every moderation action (who, on whom, what and why).
ALTER TABLE users ADD COLUMN admin BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN closed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN engine BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN muted_until BIGINT NOT NULL DEFAULT 0;

CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL,
    target TEXT NOT NULL,
    game TEXT,
    reason TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    closed_at BIGINT,
    closed_by TEXT
);
CREATE INDEX reports_open ON reports (closed_at, created_at);
CREATE INDEX reports_by ON reports (reporter, created_at);

CREATE TABLE mod_actions (
    id TEXT PRIMARY KEY,
    target TEXT NOT NULL,
    -- The admin's user id, or '' for the server's command line.
    admin TEXT NOT NULL,
    kind TEXT NOT NULL,
    reason TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX mod_actions_target ON mod_actions (target, created_at);
