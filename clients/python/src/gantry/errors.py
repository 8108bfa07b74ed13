"""What the client raises: the controller's refusals, with their gRPC status code and the server's message."""

from __future__ import annotations

import re

import grpc

_FIELD = re.compile(r"^([a-z][a-z0-9_.]*): ")


class GantryError(Exception):
    """A call the controller (or the way to it) refused.

    ``code`` is the gRPC status (grpc.StatusCode: INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED,
    RESOURCE_EXHAUSTED, UNAUTHENTICATED, UNAVAILABLE, ...); ``message`` is the server's text, which for bad input
    names the field and the limit ("min_nodes: 9 nodes requested, partition debug has 4"); ``field`` is that field
    ("min_nodes"), or None when the message names none.
    """

    def __init__(self, code: grpc.StatusCode, message: str, method: str | None = None):
        self.code = code
        self.message = message
        self.method = method
        match = _FIELD.match(message)
        self.field = match.group(1) if match else None
        where = f"{method}: " if method else ""
        super().__init__(f"{where}{code.name}: {message}")

    @classmethod
    def of(cls, error: grpc.RpcError, method: str | None = None) -> "GantryError":
        """The GantryError of a failed call (a grpc.RpcError that is also a grpc.Call)."""
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        details = error.details() if hasattr(error, "details") else str(error)
        return cls(code or grpc.StatusCode.UNKNOWN, details or "", method)


class ControllerNotFound(GantryError):
    """No controller address is configured (GANTRY_CONTROLLER, GANTRY_RUN_DIR, ...), or one is malformed."""

    def __init__(self, message: str):
        super().__init__(grpc.StatusCode.FAILED_PRECONDITION, message)


class CredentialUnavailable(GantryError):
    """No credential could be had where one was expected (the local authenticator refused or did not answer)."""

    def __init__(self, message: str):
        super().__init__(grpc.StatusCode.UNAUTHENTICATED, message)
