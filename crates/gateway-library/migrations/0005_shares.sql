-- Shared links: a person's results opened at `/s/{token}` by anyone
-- holding the link (or, `team`, by people signed in to the site). A link
-- taken back keeps its row (`revoked`), so its address answers 410, not
-- 404, until the person is forgotten.

CREATE TABLE library_shares (
    token TEXT PRIMARY KEY,
    person TEXT NOT NULL,
    -- Milliseconds since 1970.
    created BIGINT NOT NULL,
    -- When it ends; NULL: as long as the kept copies it shows.
    ends BIGINT,
    -- 1: the page shows what was asked (the prompt, the settings).
    asked BIGINT NOT NULL,
    -- 1: only people signed in to the site may open it.
    team BIGINT NOT NULL,
    -- How often its page was opened (never by whom).
    views BIGINT NOT NULL,
    -- When it was taken back.
    revoked BIGINT
);

CREATE INDEX library_shares_by_person ON library_shares (person, created DESC);

-- The tasks a link shows, in order, each with its request.
CREATE TABLE library_share_tasks (
    token TEXT NOT NULL,
    position BIGINT NOT NULL,
    kind TEXT NOT NULL,
    task_id TEXT NOT NULL,
    request TEXT NOT NULL,
    PRIMARY KEY (token, position)
);
