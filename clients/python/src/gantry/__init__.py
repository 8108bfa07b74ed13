"""Gantry's Python client: submit, list, watch, wait for and cancel batch jobs of a Gantry cluster.

    import gantry
    with gantry.connect() as client:
        job_id = client.submit(wrap="hostname", partitions="debug")
        job = client.wait(job_id)
        print(gantry.state_name(job), job.exit_code)

The API's messages are in gantry.v1 (types_pb2, controller_pb2) and its stub in gantry.v1.controller_grpc.
docs/clients.md ("Python") is the guide.
"""

from gantry.client import FULL, PRIVATE, SUMMARY, Client, connect, job_filter
from gantry.errors import ControllerNotFound, CredentialUnavailable, GantryError
from gantry.jobs import ACTIVE_STATES, Job, JobSpec, JobState, build_spec, is_finished, state_name, wrap

__all__ = [
    "ACTIVE_STATES", "Client", "ControllerNotFound", "CredentialUnavailable", "FULL", "GantryError", "Job",
    "JobSpec", "JobState", "PRIVATE", "SUMMARY", "build_spec", "connect", "is_finished", "job_filter",
    "state_name", "wrap",
]
__version__ = "0.1.0"
