-- Each person's library: the requests they submitted through the gateway
-- and the tasks each made, with the last known status and result. Written
-- in the SQL that SQLite and PostgreSQL both read.

CREATE TABLE library_requests (
    id TEXT PRIMARY KEY,
    person TEXT NOT NULL,
    kind TEXT NOT NULL,
    -- Milliseconds since 1970.
    created BIGINT NOT NULL,
    name TEXT,
    -- The prompt and the name, lowercase: what a search looks in.
    words TEXT NOT NULL,
    -- The request's body as sent (JSON text), or 'null'.
    body TEXT NOT NULL,
    -- When the person removed it; the row goes a minute later.
    removed BIGINT
);

-- A person's page, newest first, without a sort.
CREATE INDEX library_requests_by_person ON library_requests (person, created DESC, id DESC);

CREATE TABLE library_tasks (
    kind TEXT NOT NULL,
    task_id TEXT NOT NULL,
    request TEXT NOT NULL,
    position BIGINT NOT NULL,
    status TEXT NOT NULL,
    -- The task as last read: {"task_type": ..., "data": {...}}.
    task TEXT,
    updated BIGINT NOT NULL,
    PRIMARY KEY (kind, task_id)
);

CREATE INDEX library_tasks_by_request ON library_tasks (request, position);

-- What each person spent, by day and kind: counted when a submit is
-- forwarded, so removing a request does not take it back.
CREATE TABLE library_spent (
    person TEXT NOT NULL,
    -- Days since 1970 (UTC).
    day BIGINT NOT NULL,
    kind TEXT NOT NULL,
    tasks BIGINT NOT NULL,
    images BIGINT NOT NULL,
    video_seconds BIGINT NOT NULL,
    PRIMARY KEY (person, day, kind)
);
