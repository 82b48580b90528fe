-- Blocks: a player blocks another from their profile. Neither may challenge the other, neither's open
-- challenges show to the other, and the blocked player's chat lines are hidden from the blocker. Kept with the
-- account until it is lifted.
CREATE TABLE blocks (
    blocker TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    blocked TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked);
