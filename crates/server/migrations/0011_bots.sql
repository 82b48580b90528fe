-- Bot accounts: an account with no games may become a bot, which plays through the bot API only and is
-- ranked apart from people. A tournament says whether bots may join it.
ALTER TABLE users ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN bots BIGINT NOT NULL DEFAULT 0;
