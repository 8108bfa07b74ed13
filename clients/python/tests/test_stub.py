"""The Controller stub made from the descriptor has every RPC of controller.proto, of the right kind."""

import unittest

import grpc

from gantry.v1 import controller_pb2
from gantry.v1.controller_grpc import SERVICE, ControllerStub


class ControllerStubTest(unittest.TestCase):
    def test_everyRpc_isACallableOfItsKind(self):
        channel = grpc.insecure_channel("localhost:1")
        try:
            stub = ControllerStub(channel)
            streams = {m.name for m in SERVICE.methods if m.server_streaming}
            self.assertEqual({"StreamJobs", "WatchJobs"}, streams)
            for method in SERVICE.methods:
                with self.subTest(method.name):
                    kind = grpc.UnaryStreamMultiCallable if method.name in streams else grpc.UnaryUnaryMultiCallable
                    self.assertIsInstance(getattr(stub, method.name), kind)
            self.assertGreaterEqual(len(SERVICE.methods), 20)
        finally:
            channel.close()

    def test_optionalFields_compiledFromProto3Optional_tellUnsetFromZero(self):
        request = controller_pb2.UpdateJobRequest(job_ids=[1], nice=0)
        self.assertTrue(request.HasField("nice"))
        self.assertFalse(request.HasField("min_nodes"))


if __name__ == "__main__":
    unittest.main()
