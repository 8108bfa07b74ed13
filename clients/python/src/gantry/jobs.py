"""Job requests and states: what submit() fills in for the caller, and when a job is finished. Pure."""

from __future__ import annotations

import datetime as _dt
import os
import shlex
import socket
from typing import Any, Iterable, Mapping

from gantry.v1 import types_pb2

JobState = types_pb2.JobState
Job = types_pb2.Job
JobSpec = types_pb2.JobSpec

#: Base states in which a job still holds, or waits for, resources; every other state is an end.
ACTIVE_STATES = frozenset({types_pb2.JOB_STATE_PENDING, types_pb2.JOB_STATE_RUNNING, types_pb2.JOB_STATE_SUSPENDED})

_FIELDS = {f.name: f for f in JobSpec.DESCRIPTOR.fields}
_REPEATED_STRINGS = {name for name, f in _FIELDS.items()
                     if f.label == f.LABEL_REPEATED and f.type == f.TYPE_STRING}
#: Filled in by build_spec itself, from its own arguments.
_OWN = {"script", "work_dir", "environment", "submit_dir", "submit_host"}


def is_finished(job: Job) -> bool:
    """Whether ``job`` is over: its state is an end (COMPLETED, FAILED, CANCELLED, TIMEOUT, ...) and it is no longer
    completing (its processes killed and reported, squeue's CG). Both matter: a job's state becomes, e.g., CANCELLED
    while its processes are still being killed, and its output file is whole only once ``completing`` is false."""
    return job.state != types_pb2.JOB_STATE_UNSPECIFIED and job.state not in ACTIVE_STATES and not job.completing


def state_name(job: Job) -> str:
    """The state as squeue prints it: PENDING, RUNNING, COMPLETED, ... with COMPLETING while completing."""
    if job.completing:
        return "COMPLETING"
    return JobState.Name(job.state).removeprefix("JOB_STATE_")


def wrap(command: str | Iterable[str], shell: str = "/bin/sh") -> str:
    """The batch script sbatch --wrap makes: '#!/bin/sh' and the command (a string as is, a list quoted)."""
    text = command if isinstance(command, str) else shlex.join(list(command))
    return f"#!{shell}\n{text}\n"


def build_spec(script: str, *, work_dir: str | None = None, environment: Mapping[str, str] | None = None,
               cwd: str | None = None, environ: Mapping[str, str] | None = None, host: str | None = None,
               **options: Any) -> JobSpec:
    """The JobSpec for ``script`` with what sbatch would fill in where the caller says nothing.

    - work_dir: the current directory (sbatch's submit directory); a relative one is taken from it, the server
      wants an absolute path;
    - environment: the whole process environment, PATH included (sbatch --export=ALL); a mapping given replaces it
      (pass ``{**os.environ, "X": "1"}`` to add to it);
    - submit_dir, submit_host: the current directory and this host (SLURM_SUBMIT_DIR, SLURM_SUBMIT_HOST);
    - user, uid, gid: left unset unless given: the controller sets them from the caller's credential (a job runs as
      whom the credential proves, which with a token from another user's scontrol token is not this process's user).

    ``options`` are JobSpec fields by name (partitions, min_nodes, time_limit_seconds, mem_per_node_mb, hold, ...);
    a repeated field also takes a single string (partitions="debug"), begin_time a datetime. An unknown name is a
    TypeError naming it. Values are checked by the controller, which names the field it refuses.
    """
    cwd = cwd if cwd is not None else os.getcwd()
    environ = environ if environ is not None else os.environ
    spec = JobSpec(script=script)
    spec.work_dir = os.path.normpath(os.path.join(cwd, work_dir)) if work_dir else cwd
    spec.environment.update(dict(environment if environment is not None else environ))
    spec.submit_dir = cwd
    spec.submit_host = host if host is not None else socket.gethostname()
    for name, value in options.items():
        if value is None:
            continue
        if name in _OWN or name not in _FIELDS:
            known = ", ".join(sorted(set(_FIELDS) - _OWN))
            raise TypeError(f"submit() got an unknown option {name!r}; options are JobSpec fields: {known}")
        if name in _REPEATED_STRINGS:
            getattr(spec, name).extend([value] if isinstance(value, str) else list(value))
        elif name == "begin_time":
            if isinstance(value, _dt.datetime):
                spec.begin_time.FromDatetime(value.astimezone(_dt.timezone.utc).replace(tzinfo=None))
            else:
                spec.begin_time.CopyFrom(value)
        else:
            setattr(spec, name, value)
    return spec
