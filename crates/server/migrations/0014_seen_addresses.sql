-- The network addresses each account was seen at, for the fair-play rule: another account asking from the
-- address of a player of a game in play is refused the engine's help on that game too. Kept for 30 days.
CREATE TABLE seen_addresses (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    seen_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, address)
);
CREATE INDEX seen_addresses_by_address ON seen_addresses (address, seen_at);
