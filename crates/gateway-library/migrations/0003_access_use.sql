-- Each person's use: the tasks of the current day (UTC), counted in one
-- step against their limit, and their last call. Kept beside the keys.

CREATE TABLE access_use (
    name TEXT PRIMARY KEY,
    -- Seconds since 1970.
    last_used BIGINT NOT NULL,
    -- Days since 1970 (UTC) that `tasks` counts.
    day BIGINT NOT NULL,
    tasks BIGINT NOT NULL
);
