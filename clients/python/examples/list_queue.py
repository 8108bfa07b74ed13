#!/usr/bin/python3
"""Prints the queue as squeue does, optionally one user's jobs or some states only.

    /usr/bin/python3 list_queue.py [--user NAME] [--state PENDING ...]
"""

import argparse

import gantry

parser = argparse.ArgumentParser()
parser.add_argument("--user", action="append", default=[])
parser.add_argument("--state", action="append", default=[], help="PENDING, RUNNING, COMPLETED, ...")
args = parser.parse_args()

with gantry.connect() as client:
    print(f"{'JOBID':>8} {'PARTITION':<10} {'NAME':<12} {'USER':<10} {'ST':<11} {'NODES':>5} NODELIST(REASON)")
    # list() reads every page on one stream (StreamJobs); the SUMMARY view carries squeue's fields only
    for job in client.list(users=args.user, states=args.state, view=gantry.SUMMARY):
        where = job.node_list if job.node_list else f"({job.reason})"
        print(f"{job.job_id:>8} {job.partition:<10} {job.name[:12]:<12} {job.spec.user[:10]:<10} "
              f"{gantry.state_name(job):<11} {job.num_nodes:>5} {where}")
