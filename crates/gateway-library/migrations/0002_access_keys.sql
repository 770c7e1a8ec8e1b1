-- The access keys the owner handed out (their SHA-256 only), kept beside
-- the library: one store of record for a deployment.

CREATE TABLE access_keys (
    name TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    -- Seconds since 1970.
    created BIGINT NOT NULL,
    tasks_per_day BIGINT
);

-- Where keys were moved in from (keys.json, a Redis), each once.
CREATE TABLE moved_in (
    source TEXT PRIMARY KEY,
    at BIGINT NOT NULL
);
