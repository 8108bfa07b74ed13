"""The Controller service's stub, made from the service's descriptor in controller_pb2.

grpcio-tools' protoc plugin is not on Maven Central and Debian's grpc-tools cannot compile proto3 ``optional``, so
there is no generated ``controller_pb2_grpc.py``. This module makes the same stub from the descriptor protoc did
generate: one callable per RPC, named as in controller.proto (``stub.SubmitJob(request)``,
``stub.WatchJobs(request)`` for a server stream). A method added to controller.proto appears here once the
_pb2 modules are regenerated; nothing to edit.
"""

from __future__ import annotations

import grpc

from gantry.v1 import controller_pb2

SERVICE = controller_pb2.DESCRIPTOR.services_by_name["Controller"]


def _message_class(descriptor):
    """The generated class of a request or response message (all of them live in controller_pb2)."""
    return getattr(controller_pb2, descriptor.name)


class ControllerStub:
    """Every RPC of gantry.v1.Controller on ``channel``, as grpcio's generated stubs offer them."""

    def __init__(self, channel: grpc.Channel):
        for method in SERVICE.methods:
            path = f"/{SERVICE.full_name}/{method.name}"
            request = _message_class(method.input_type)
            response = _message_class(method.output_type)
            if method.client_streaming:
                raise TypeError(f"{path}: client streaming is not supported by this stub")
            make = channel.unary_stream if method.server_streaming else channel.unary_unary
            setattr(self, method.name, make(path, request_serializer=request.SerializeToString,
                                            response_deserializer=response.FromString))
