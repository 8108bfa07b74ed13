-- The steps (srun) of running jobs, so that squeue -s and scontrol show step survive a controller restart: one row
-- per step not yet ended, the step kept as a serialized gantry.v1.Step (its own fields only).
CREATE TABLE job_steps (
    job_id  BIGINT  NOT NULL,
    step_id INTEGER NOT NULL,
    step    BYTEA   NOT NULL,
    PRIMARY KEY (job_id, step_id)
);

-- Each running job's next step id, kept after its steps end, so that a step id is never given twice in one run
-- of a job. Both tables lose a job's rows when it stops running.
CREATE TABLE job_step_numbering (
    job_id       BIGINT  PRIMARY KEY,
    next_step_id INTEGER NOT NULL
);
