"""A connection to a Gantry controller, and the calls a program makes most: submit, get, list, watch, wait, cancel.

Every other RPC is at ``client.stub`` (gantry.v1.controller_grpc.ControllerStub), with the same credential, failover
and error mapping when called through ``client.call("HoldJob", request)``.
"""

from __future__ import annotations

import datetime as _dt
import os
import threading
import time
from typing import Any, Iterable, Iterator, Mapping, Sequence

import grpc

from gantry import jobs
from gantry._credentials import CallerCredential
from gantry._discovery import Address, controller_ca, locate, parse_addresses
from gantry.errors import GantryError
from gantry.v1 import controller_pb2, types_pb2
from gantry.v1.controller_grpc import ControllerStub

#: How long one call may take before it fails DEADLINE_EXCEEDED (the commands' CALL_TIMEOUT).
CALL_TIMEOUT_SECONDS = 30.0
#: The largest answer taken: twice the largest max_script_size (cli ControllerChannels.MAX_ANSWER_BYTES).
MAX_ANSWER_BYTES = 2 * (128 << 20)
#: How long connect() waits to learn which of several controllers is the active one.
PROBE_WITHIN_SECONDS = 1.5
#: The controller's rate limit words its refusals so (SlurmctldParameters rl_*); such a call is sent again later.
RATE_LIMIT_PREFIX = "rate limit:"
RATE_LIMIT_PAUSE_SECONDS = 1.0

JobView = controller_pb2.JobView
SUMMARY = controller_pb2.JOB_VIEW_SUMMARY
FULL = controller_pb2.JOB_VIEW_FULL
PRIVATE = controller_pb2.JOB_VIEW_PRIVATE


class _Authorization(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Adds the caller's credential to every call (a fresh one per call where it is single-use, as MUNGE's)."""

    def __init__(self, credential: CallerCredential):
        self._credential = credential

    def _details(self, details):
        header = self._credential.header()
        if header is None:
            return details
        metadata = list(details.metadata or []) + [("authorization", header)]
        return details._replace(metadata=metadata) if hasattr(details, "_replace") else _Details(details, metadata)

    def intercept_unary_unary(self, continuation, details, request):
        return continuation(self._details(details), request)

    def intercept_unary_stream(self, continuation, details, request):
        return continuation(self._details(details), request)


class _Details(grpc.ClientCallDetails):
    def __init__(self, d, metadata):
        self.method, self.timeout, self.credentials = d.method, d.timeout, d.credentials
        self.wait_for_ready, self.compression, self.metadata = d.wait_for_ready, d.compression, metadata


def _state(value: int | str) -> int:
    """A JobState from its number or its name, with or without the JOB_STATE_ prefix ("RUNNING", "running")."""
    if isinstance(value, int):
        return value
    name = value.upper()
    return types_pb2.JobState.Value(name if name.startswith("JOB_STATE_") else "JOB_STATE_" + name)


def _view(value: int | str) -> int:
    if isinstance(value, int):
        return value
    name = value.upper()
    return controller_pb2.JobView.Value(name if name.startswith("JOB_VIEW_") else "JOB_VIEW_" + name)


def _list(value: Any) -> list:
    if value is None:
        return []
    return [value] if isinstance(value, (str, int)) else list(value)


def job_filter(*, ids: Iterable[int] | int | None = None, users: Iterable[str] | str | None = None,
               partitions: Iterable[str] | str | None = None, states: Iterable[int | str] | int | str | None = None,
               array_ids: Iterable[int] | int | None = None, view: int | str = SUMMARY,
               page_size: int = 0) -> controller_pb2.ListJobsRequest:
    """A ListJobsRequest (squeue's filters): empty filters match any; no states means jobs not yet finished plus
    those finished within MinJobAge."""
    return controller_pb2.ListJobsRequest(
        job_ids=_list(ids), users=_list(users), partitions=_list(partitions),
        states=[_state(s) for s in _list(states)], array_job_ids=_list(array_ids), view=_view(view),
        page_size=page_size)


class Client:
    """A connection to the controller; close() it, or use it in a ``with`` block. Thread-safe, as grpc channels are.

    With several controller addresses (an active controller and its standby), calls go to the one that answered
    connect()'s probe, and a unary call answered UNAVAILABLE is sent to the next address at once.
    """

    def __init__(self, addresses: Sequence[Address], credential: CallerCredential, ca: str | None = None,
                 timeout: float = CALL_TIMEOUT_SECONDS):
        if not addresses:
            raise ValueError("at least one controller address")
        self.addresses = tuple(addresses)
        self.timeout = timeout
        self._credential = credential
        root = None
        if ca:
            try:
                with open(ca, "rb") as f:
                    root = f.read()
            except OSError as e:
                raise GantryError(grpc.StatusCode.FAILED_PRECONDITION, f"GANTRY_CONTROLLER_CA={ca}: {e.strerror}") from None
            if b"-----BEGIN CERTIFICATE-----" not in root:
                raise GantryError(grpc.StatusCode.FAILED_PRECONDITION, f"GANTRY_CONTROLLER_CA={ca}: not a PEM certificate")
        options = [("grpc.max_receive_message_length", MAX_ANSWER_BYTES)]
        self._channels = []
        for address in self.addresses:
            raw = (grpc.secure_channel(address.target(), grpc.ssl_channel_credentials(root), options)
                   if root is not None else grpc.insecure_channel(address.target(), options))
            self._channels.append((raw, ControllerStub(grpc.intercept_channel(raw, _Authorization(credential)))))
        self._active = 0
        self._lock = threading.Lock()
        if len(self._channels) > 1:
            self._prefer_active()

    # --- plumbing

    @property
    def stub(self) -> ControllerStub:
        """The active controller's stub: every RPC of controller.proto, raising grpc.RpcError as grpcio does."""
        return self._channels[self._active][1]

    def _prefer_active(self) -> None:
        """Asks every controller a cheap question at once; calls go to the first that answers (a standby answers
        UNAVAILABLE, a frozen one not at all). None answering: the first address."""
        answered: list[int] = []
        done = threading.Event()

        def probe(i: int) -> None:
            try:
                self._channels[i][1].ListPartitions(controller_pb2.ListPartitionsRequest(), timeout=PROBE_WITHIN_SECONDS)
                answered.append(i)
                done.set()
            except (grpc.RpcError, GantryError):
                pass

        for i in range(len(self._channels)):
            threading.Thread(target=probe, args=(i,), daemon=True, name="gantry-controller-probe").start()
        done.wait(PROBE_WITHIN_SECONDS + 0.2)
        if answered:
            self._active = answered[0]

    def call(self, method: str, request, timeout: float | None = None):
        """Calls the unary RPC ``method`` ("SubmitJob", "HoldJob", ...); GantryError when refused. A call refused by
        the rate limit is sent again a second later until its deadline; one answered UNAVAILABLE goes to the next
        controller address."""
        deadline = time.monotonic() + (timeout if timeout is not None else self.timeout)
        failovers = len(self._channels) - 1
        while True:
            index = self._active
            try:
                return getattr(self._channels[index][1], method)(request, timeout=max(0.0, deadline - time.monotonic()))
            except grpc.RpcError as e:
                error = GantryError.of(e, method)
            if error.code == grpc.StatusCode.UNAVAILABLE and failovers > 0:
                failovers -= 1
                with self._lock:
                    if self._active == index:
                        self._active = (index + 1) % len(self._channels)
                continue
            if (error.code == grpc.StatusCode.RESOURCE_EXHAUSTED and error.message.startswith(RATE_LIMIT_PREFIX)
                    and time.monotonic() + RATE_LIMIT_PAUSE_SECONDS < deadline):
                time.sleep(RATE_LIMIT_PAUSE_SECONDS)
                continue
            raise error

    def _stream(self, method: str, request, timeout: float | None) -> Iterator:
        call = getattr(self.stub, method)(request, timeout=timeout)
        try:
            for answer in call:
                yield answer
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.CANCELLED and call.cancelled():
                return
            raise GantryError.of(e, method) from None
        finally:
            call.cancel()  # the caller stopped reading (break, close()): end the stream on the server too

    def close(self) -> None:
        for raw, _ in self._channels:
            raw.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- jobs

    def submit(self, script: str | None = None, *, wrap: str | Sequence[str] | None = None, **options: Any) -> int:
        """Queues a batch job and returns its id; the job is durable when this returns.

        ``script`` is the batch script's text, starting with a #! line; or ``wrap`` a command to run under
        #!/bin/sh (sbatch --wrap; its name defaults to "wrap"). ``options`` are JobSpec fields (partitions,
        min_nodes, ntasks, cpus_per_task, mem_per_node_mb, time_limit_seconds, stdout_path, hold, ...), and
        work_dir and environment, which default to the current directory and the whole environment
        (jobs.build_spec says what else is filled in).
        """
        if (script is None) == (wrap is None):
            raise TypeError("submit() takes a script or wrap=, exactly one")
        if wrap is not None:
            script = jobs.wrap(wrap)
            options.setdefault("name", "wrap")
        spec = jobs.build_spec(script, **options)
        return self.call("SubmitJob", controller_pb2.SubmitJobRequest(spec=spec)).job_id

    def get(self, job_id: int, view: int | str = FULL) -> types_pb2.Job:
        """One job, finished or not (scontrol show job); GantryError NOT_FOUND for an id never issued."""
        return self.call("GetJob", controller_pb2.GetJobRequest(job_id=job_id, view=_view(view))).job

    def list(self, *, page_size: int = 0, timeout: float | None = None, **filters: Any) -> Iterator[types_pb2.Job]:
        """Every matching job (squeue), ordered by id, read page after page on one stream (StreamJobs).

        ``filters``: ids, users, partitions, states (names as "RUNNING" or JobState values), array_ids, view
        (SUMMARY by default: squeue's fields; FULL: all but script and environment). ``page_size``: jobs per page
        (0: the server's 1000)."""
        request = job_filter(page_size=page_size, **filters)
        for page in self._stream("StreamJobs", request, timeout):
            yield from page.jobs

    def pages(self, *, page_size: int = 0, **filters: Any) -> Iterator[controller_pb2.ListJobsResponse]:
        """The matching jobs a page at a time (ListJobs, one call per page), each answer with its next_page_token;
        for a program that shows a page and fetches the next later, call ``page_after``."""
        request = job_filter(page_size=page_size, **filters)
        while True:
            page = self.call("ListJobs", request)
            yield page
            if not page.next_page_token:
                return
            request.page_token = page.next_page_token

    def page_after(self, token: str, *, page_size: int = 0, **filters: Any) -> controller_pb2.ListJobsResponse:
        """The page that starts at ``token`` (a next_page_token), with the same filters and view as the page that
        gave it (INVALID_ARGUMENT otherwise)."""
        request = job_filter(page_size=page_size, **filters)
        request.page_token = token
        return self.call("ListJobs", request)

    def watch(self, ids: Iterable[int] | int | None = None, *, timeout: float | None = None,
              **filters: Any) -> Iterator[types_pb2.Job]:
        """The matching jobs as they are now, then each job again whenever it changes, until the caller stops
        iterating (or ``timeout`` seconds pass: GantryError DEADLINE_EXCEEDED). Filters as list()."""
        request = controller_pb2.WatchJobsRequest(filter=job_filter(ids=ids, **filters))
        for answer in self._stream("WatchJobs", request, timeout):
            yield answer.job

    def wait(self, job_id: int, timeout: float | None = None) -> types_pb2.Job:
        """Waits until the job is finished (jobs.is_finished: ended and no longer completing) and returns it as it
        ended. TimeoutError after ``timeout`` seconds (None: no limit)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        job = self.get(job_id)
        while not jobs.is_finished(job):
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError(f"job {job_id} not finished within {timeout:g} s: {jobs.state_name(job)}")
            try:
                for job in self.watch(job_id, view=FULL, timeout=left):
                    if job.job_id == job_id and jobs.is_finished(job):
                        return job
            except GantryError as e:
                if e.code not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE,
                                  grpc.StatusCode.RESOURCE_EXHAUSTED):
                    raise
                if e.code != grpc.StatusCode.DEADLINE_EXCEEDED:
                    time.sleep(1.0)  # a controller failing over, or a watch cap: ask again
            job = self.get(job_id)
        return job

    def cancel(self, ids: Iterable[int] | int, signal: int = 0) -> list[controller_pb2.CancelResult]:
        """Cancels jobs (scancel), or with ``signal`` 1..64 sends it to every process of each running job (scancel
        --signal). One CancelResult per id, in order: ok, or error (Slurm's text) and code (a grpc.StatusCode
        value: 7 PERMISSION_DENIED, 5 NOT_FOUND, 9 FAILED_PRECONDITION); a refused id does not stop the others."""
        request = controller_pb2.CancelJobRequest(job_ids=_list(ids), signal=signal)
        return list(self.call("CancelJob", request).results)

    def create_token(self, lifespan: int | _dt.timedelta = 0, username: str = "") -> controller_pb2.CreateTokenResponse:
        """A JSON web token for the caller (scontrol token; another user's for an administrator), to pass as
        connect(token=...) or SLURM_JWT. ``lifespan``: seconds or a timedelta, 0 for Slurm's 1800 s.
        FAILED_PRECONDITION when the cluster has no AuthAltTypes=auth/jwt."""
        seconds = int(lifespan.total_seconds()) if isinstance(lifespan, _dt.timedelta) else int(lifespan)
        return self.call("CreateToken", controller_pb2.CreateTokenRequest(lifespan_seconds=seconds, username=username))


def connect(target: str | None = None, *, token: str | None = None, ca: str | None = None,
            environ: Mapping[str, str] | None = None, timeout: float = CALL_TIMEOUT_SECONDS) -> Client:
    """A Client of the controller the gantry commands would use (see gantry._discovery), or of ``target``
    ("host:port", several comma-separated). ``token``: a JSON web token to send instead of the credential found
    (see gantry._credentials). ``ca``: a PEM file to reach the controller over TLS (default: GANTRY_CONTROLLER_CA,
    else the local cluster's controller-ca.crt). ControllerNotFound when no controller is configured."""
    environ = os.environ if environ is None else environ
    cwd = os.getcwd()
    location = locate({**environ, "GANTRY_CONTROLLER": target} if target else environ, cwd)
    addresses = parse_addresses(target, "target") if target else location.addresses
    credential = CallerCredential(environ, location.cluster_dir, token)
    return Client(addresses, credential, ca or controller_ca(environ, location.cluster_dir), timeout)
