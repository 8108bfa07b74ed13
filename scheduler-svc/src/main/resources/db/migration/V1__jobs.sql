-- Jobs, durable before a submission is acknowledged. The full job is kept as a serialized gantry.v1.Job
-- (forward-compatible as the API grows); the columns beside it are what queries filter on.
CREATE TABLE jobs (
    job_id      BIGINT PRIMARY KEY,
    user_name   TEXT        NOT NULL,
    partition   TEXT        NOT NULL,
    state       TEXT        NOT NULL,
    submit_time TIMESTAMPTZ NOT NULL,
    start_time  TIMESTAMPTZ,
    end_time    TIMESTAMPTZ,
    exit_code   INTEGER     NOT NULL DEFAULT 0,
    job         BYTEA       NOT NULL
);

-- Start-up loads the jobs that are not finished, and the recently finished ones.
CREATE INDEX jobs_unfinished ON jobs (job_id) WHERE state IN ('PENDING', 'RUNNING', 'SUSPENDED');
CREATE INDEX jobs_end_time ON jobs (end_time);
CREATE INDEX jobs_user_submit ON jobs (user_name, submit_time);
