#!/usr/bin/python3
"""Cancels jobs (scancel), or sends them a signal, printing each job's answer.

    /usr/bin/python3 cancel.py JOBID... [--signal 10]
"""

import argparse
import sys

import grpc

import gantry

parser = argparse.ArgumentParser()
parser.add_argument("job_ids", type=int, nargs="+")
parser.add_argument("--signal", type=int, default=0, help="1..64: signal the running jobs instead of cancelling")
args = parser.parse_args()

with gantry.connect() as client:
    failed = 0
    for result in client.cancel(args.job_ids, signal=args.signal):
        if result.ok:
            print(f"job {result.job_id}: {'signalled' if args.signal else 'cancelled'}")
        else:
            code = next((c.name for c in grpc.StatusCode if c.value[0] == result.code), str(result.code))
            print(f"job {result.job_id}: {result.error} ({code})", file=sys.stderr)
            failed += 1
    sys.exit(1 if failed else 0)
