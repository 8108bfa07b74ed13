"""The credential a client proves its user with, sent on every call as the ``authorization`` header.

As the gantry commands take it (cli CallerCredential, docs/security.md), from the first that applies:

1. a JSON web token given to connect(token=...), else in SLURM_JWT or GANTRY_JWT (scontrol token): "Bearer <jwt>";
2. with GANTRY_AUTH=munge, a MUNGE credential from the site's munged (``munge -n``, socket GANTRY_MUNGE_SOCKET);
3. a local token from the node's local authenticator: GANTRY_AUTH_SOCKET, else auth.sock beside the cluster's
   controller.addr, else /run/gantry/auth.sock. Its protocol: connect to the Unix socket, read one line (the
   token, or "ERROR <reason>"), close; the kernel tells the authenticator who connected (SO_PEERCRED). A local
   token lives 5 minutes and is fetched again after half of that;
4. a MUNGE credential, when munged's socket is there (GANTRY_MUNGE_SOCKET, else /run/munge/munge.socket.2);

else none, and the controller answers with what it accepts. Thread-safe.
"""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from typing import Callable, Mapping

from gantry.errors import CredentialUnavailable

SYSTEM_SOCKET = "/run/gantry/auth.sock"
DEFAULT_MUNGE_SOCKET = "/run/munge/munge.socket.2"
LOCAL_TOKEN_RENEW_SECONDS = 150.0  # half of a local token's lifetime (common Tokens.LOCAL_LIFETIME, 5 minutes)
ANSWER_WITHIN_SECONDS = 10.0


def local_token(path: str, timeout: float = ANSWER_WITHIN_SECONDS) -> str:
    """One token from the local authenticator listening on the Unix socket ``path``."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(path)
            data = b""
            while not data.endswith(b"\n") and len(data) < 8192:
                chunk = s.recv(8192)
                if not chunk:
                    break
                data += chunk
    except socket.timeout:
        raise CredentialUnavailable(f"the local authenticator at {path} did not answer within {timeout:g} s "
                                    "(is the node agent running?)") from None
    except OSError as e:
        raise CredentialUnavailable(f"cannot reach the local authenticator at {path}: {e.strerror or e}") from None
    line = data.decode("ascii", "replace").strip()
    if line.startswith("ERROR "):
        raise CredentialUnavailable(f"the local authenticator at {path} refused: {line[6:]}")
    if not line:
        raise CredentialUnavailable(f"the local authenticator at {path} answered nothing")
    return line


def munge_credential(environ: Mapping[str, str]) -> str | None:
    """A fresh MUNGE credential from ``munge -n`` (None when munge is not installed)."""
    munge = "/usr/bin/munge"
    if not os.access(munge, os.X_OK):
        return None
    command = [munge, "-n"]
    if environ.get("GANTRY_MUNGE_SOCKET", "").strip():
        command.append("--socket=" + environ["GANTRY_MUNGE_SOCKET"].strip())
    try:
        done = subprocess.run(command, capture_output=True, timeout=10, text=True)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CredentialUnavailable(f"cannot run munge: {e}") from None
    if done.returncode != 0:
        raise CredentialUnavailable(f"munge -n failed: {(done.stdout + done.stderr).strip()}")
    return done.stdout.strip()


class CallerCredential:
    """The ``authorization`` header's value for each call (None: send none)."""

    def __init__(self, environ: Mapping[str, str], cluster_dir: str | None, token: str | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self._environ = dict(environ)
        self._cluster_dir = cluster_dir
        self._token = token.strip() if token and token.strip() else self._jwt_from_environment()
        self._clock = clock
        self._lock = threading.Lock()
        self._local: str | None = None
        self._local_at = 0.0

    def _jwt_from_environment(self) -> str | None:
        for name in ("SLURM_JWT", "GANTRY_JWT"):
            value = self._environ.get(name, "").strip()
            if value:
                return value
        return None

    def local_socket(self) -> str | None:
        """The local authenticator's socket that applies, if any."""
        configured = self._environ.get("GANTRY_AUTH_SOCKET", "").strip()
        if configured:
            return configured
        if self._cluster_dir:
            beside = os.path.join(self._cluster_dir, "auth.sock")
            if os.path.exists(beside):
                return beside
        return SYSTEM_SOCKET if os.path.exists(SYSTEM_SOCKET) else None

    def header(self) -> str | None:
        """The header for the next call; CredentialUnavailable when one was expected and could not be had."""
        if self._token:
            return "Bearer " + self._token
        if self._environ.get("GANTRY_AUTH", "").strip().lower() == "munge":
            credential = munge_credential(self._environ)
            return "Munge " + credential if credential else None
        path = self.local_socket()
        if path:
            with self._lock:
                if self._local is None or self._clock() - self._local_at > LOCAL_TOKEN_RENEW_SECONDS:
                    self._local = local_token(path)
                    self._local_at = self._clock()
                return "Bearer " + self._local
        munge_socket = self._environ.get("GANTRY_MUNGE_SOCKET", "").strip() or DEFAULT_MUNGE_SOCKET
        if os.path.exists(munge_socket):
            credential = munge_credential(self._environ)
            return "Munge " + credential if credential else None
        return None
