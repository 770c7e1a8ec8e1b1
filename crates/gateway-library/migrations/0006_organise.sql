-- Organising a person's library: a star on a request, named collections
-- (a request in several), and settings saved by name. A request's model
-- is kept beside it for the listing's filter (NULL until read from its
-- body: rows from before this version are filled in at start).

ALTER TABLE library_requests ADD COLUMN starred BIGINT NOT NULL DEFAULT 0;
ALTER TABLE library_requests ADD COLUMN model TEXT;

-- A person's starred page, newest first, without a sort or a scan of the
-- rest.
CREATE INDEX library_requests_starred ON library_requests (person, starred, created DESC, id DESC);

CREATE TABLE library_collections (
    id TEXT PRIMARY KEY,
    person TEXT NOT NULL,
    name TEXT NOT NULL,
    -- Milliseconds since 1970.
    created BIGINT NOT NULL
);

CREATE INDEX library_collections_by_person ON library_collections (person, created DESC);

-- Which requests each collection holds.
CREATE TABLE library_collected (
    collection TEXT NOT NULL,
    request TEXT NOT NULL,
    added BIGINT NOT NULL,
    PRIMARY KEY (collection, request)
);

CREATE INDEX library_collected_by_request ON library_collected (request);

-- Settings saved by name, per person and form; the body a JSON object.
CREATE TABLE library_presets (
    person TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    body TEXT NOT NULL,
    updated BIGINT NOT NULL,
    PRIMARY KEY (person, kind, name)
);
