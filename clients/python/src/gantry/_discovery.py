"""Where the controller is, as the gantry commands find it (cli ControllerLocator and ControllerChannels).

First match wins:

1. GANTRY_CONTROLLER: "host:port", several separated by commas (an active controller and its standby);
2. $GANTRY_RUN_DIR/controller.addr (a local cluster's run directory);
3. .gantry/controller.addr in the current directory or any parent;
4. ${XDG_STATE_HOME:-$HOME/.local/state}/gantry/controller.addr.

An address file lists one address a line. The controller serves TLS when a CA is given: GANTRY_CONTROLLER_CA, else
controller-ca.crt beside the address file (gantry up --public-tls). Pure but for reading files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping

from gantry.errors import ControllerNotFound

ADDRESS_FILE = "controller.addr"
CA_FILE = "controller-ca.crt"


@dataclass(frozen=True)
class Address:
    """Where scheduler-svc's client API listens: a host name or address (IPv6 without brackets) and 1..65535."""

    host: str
    port: int

    @staticmethod
    def parse(text: str) -> "Address":
        """'host:port' or '[ipv6]:port'; ValueError saying what was expected otherwise."""
        s = text.strip()
        colon = s.rfind(":")
        if colon <= 0 or colon == len(s) - 1:
            raise ValueError(f'expected host:port, got "{s}"')
        host = s[:colon]
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        elif ":" in host:
            raise ValueError(f'expected host:port (IPv6 in brackets), got "{s}"')
        try:
            port = int(s[colon + 1:])
        except ValueError:
            raise ValueError(f'expected host:port, got "{s}"') from None
        if not 1 <= port <= 65535:
            raise ValueError(f"port out of range: {port}")
        return Address(host, port)

    def target(self) -> str:
        """The gRPC target: host:port, an IPv6 address in brackets."""
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class Location:
    """The controller addresses found, in order, and the directory of the address file they came from (if any)."""

    addresses: tuple[Address, ...]
    cluster_dir: str | None


def address_file(environ: Mapping[str, str], cwd: str) -> str | None:
    """The address file that applies, if any (GANTRY_CONTROLLER aside)."""
    run_dir = environ.get("GANTRY_RUN_DIR", "")
    if run_dir.strip():
        path = os.path.join(cwd, run_dir, ADDRESS_FILE)
        if os.path.isfile(path):
            return os.path.normpath(path)
    directory = os.path.abspath(cwd)
    while True:
        path = os.path.join(directory, ".gantry", ADDRESS_FILE)
        if os.path.isfile(path):
            return path
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    state = environ.get("XDG_STATE_HOME", "").strip()
    if not state and environ.get("HOME", "").strip():
        state = os.path.join(environ["HOME"], ".local", "state")
    if state:
        path = os.path.join(state, "gantry", ADDRESS_FILE)
        if os.path.isfile(path):
            return path
    return None


def parse_addresses(text: str, source: str) -> tuple[Address, ...]:
    """Every address in ``text`` (lines or commas); ControllerNotFound naming ``source`` when one is malformed."""
    parts = [p for p in text.replace(",", "\n").splitlines() if p.strip()]
    try:
        if not parts:
            raise ValueError("no address")
        return tuple(Address.parse(p) for p in parts)
    except ValueError as e:
        raise ControllerNotFound(f"invalid controller address in {source}: {e}") from None


def locate(environ: Mapping[str, str], cwd: str) -> Location:
    """The configured controller addresses; ControllerNotFound when none is configured or one is malformed."""
    configured = environ.get("GANTRY_CONTROLLER", "")
    if configured.strip():
        found = address_file(environ, cwd)  # still the cluster's: its auth.sock and CA
        return Location(parse_addresses(configured, "GANTRY_CONTROLLER"), os.path.dirname(found) if found else None)
    path = address_file(environ, cwd)
    if path is None:
        raise ControllerNotFound("no controller configured: set GANTRY_CONTROLLER=host:port, or GANTRY_RUN_DIR to a "
                                 "local cluster's run directory (gantry up)")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ControllerNotFound(f"cannot read {path}: {e.strerror}") from None
    return Location(parse_addresses(text, path), os.path.dirname(path))


def controller_ca(environ: Mapping[str, str], cluster_dir: str | None) -> str | None:
    """The CA (PEM file) that vouches for the controller's TLS port, or None for plaintext."""
    configured = environ.get("GANTRY_CONTROLLER_CA", "").strip()
    if configured:
        return configured
    if cluster_dir and os.path.exists(os.path.join(cluster_dir, CA_FILE)):
        return os.path.join(cluster_dir, CA_FILE)
    return None
