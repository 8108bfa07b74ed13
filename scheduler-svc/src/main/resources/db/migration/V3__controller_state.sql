-- Controller state that is not a job: QOS edited through the admin API, the fair-share usage ledger.
-- One row per kind, replaced as a whole (small values: a few KiB to a few MiB).
CREATE TABLE controller_state (
    name       TEXT PRIMARY KEY,
    value      BYTEA NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
