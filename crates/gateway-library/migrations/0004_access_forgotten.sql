-- People forgotten (`keys revoke NAME --forget`): a running gateway that
-- still holds something of theirs (their use in memory, their uploads and
-- kept copies) drops it and never writes it back. Each is kept by a hash
-- of the name only, for a day: long enough for every gateway to see it.

CREATE TABLE access_forgotten (
    who TEXT PRIMARY KEY,
    -- Seconds since 1970.
    at BIGINT NOT NULL
);
