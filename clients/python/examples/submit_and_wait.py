#!/usr/bin/python3
"""Submits a batch script, waits until the job is finished, and prints how it ended and its output.

    GANTRY_RUN_DIR=~/gantry-run /usr/bin/python3 submit_and_wait.py [partition]
"""

import os
import sys

import gantry

SCRIPT = """#!/bin/sh
echo "job $SLURM_JOB_ID on $(hostname) as $(id -un)"
"""

with gantry.connect() as client:
    options = {"partitions": sys.argv[1]} if len(sys.argv) > 1 else {}
    try:
        # work_dir: the current directory, environment: ours (PATH included); the controller sets user, uid, gid
        # options are arguments: the client does not read #SBATCH lines as sbatch does
        job_id = client.submit(SCRIPT, name="example", time_limit_seconds=300, **options)
    except gantry.GantryError as e:
        sys.exit(f"submit refused: {e.message} (field {e.field}, {e.code.name})")
    print(f"Submitted batch job {job_id}")
    job = client.wait(job_id, timeout=600)
    print(f"job {job_id}: {gantry.state_name(job)}, exit code {job.exit_code}, ran on {job.node_list}")
    with open(os.path.join(job.spec.work_dir, f"slurm-{job_id}.out")) as out:
        print(out.read(), end="")
