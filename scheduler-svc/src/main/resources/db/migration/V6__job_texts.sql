-- A job's batch script and submitted environment, stored once per content (SHA-256 of the bytes) instead of inside
-- every job row: the tasks of an array, and a user's loop of sbatch, share them (an array of 300 tasks with a 4 MiB
-- script was 1.2 GB of rows in one write), and a job's row, rewritten on each of its changes, stays small. Rows
-- written before this keep script and environment inline in the job column, and read as they were.
CREATE TABLE job_texts (
    digest BYTEA PRIMARY KEY,
    body   BYTEA NOT NULL
);

ALTER TABLE jobs ADD COLUMN script_digest BYTEA;
ALTER TABLE jobs ADD COLUMN env_digest BYTEA;
