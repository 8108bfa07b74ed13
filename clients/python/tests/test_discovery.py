"""Finding the controller as the commands do: GANTRY_CONTROLLER, the run directory's controller.addr, TLS's CA."""

import os
import tempfile
import unittest

from gantry._discovery import Address, controller_ca, locate
from gantry.errors import ControllerNotFound


class AddressTest(unittest.TestCase):
    def test_parse_acceptsHostPortAndBracketedIpv6(self):
        for text, host, port, target in [("localhost:6817", "localhost", 6817, "localhost:6817"),
                                         (" 127.0.0.1:1 ", "127.0.0.1", 1, "127.0.0.1:1"),
                                         ("[::1]:6817", "::1", 6817, "[::1]:6817")]:
            with self.subTest(text=text):
                address = Address.parse(text)
                self.assertEqual((host, port, target), (address.host, address.port, address.target()))

    def test_parse_refusesWhatIsNotHostPort_sayingWhatWasExpected(self):
        for text, expected in [("localhost", "expected host:port"), ("::1:80", "IPv6 in brackets"),
                               ("h:x", "expected host:port"), ("h:70000", "port out of range")]:
            with self.subTest(text=text), self.assertRaisesRegex(ValueError, expected):
                Address.parse(text)


class LocateTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.run = os.path.join(self.dir.name, "run")
        os.mkdir(self.run)
        self.empty = {"HOME": self.dir.name}

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.run, name), "w") as f:
            f.write(text)

    def test_gantryController_wins_andListsEveryCommaSeparatedAddress(self):
        self.write("controller.addr", "127.0.0.1:9\n")
        found = locate({**self.empty, "GANTRY_CONTROLLER": "a:1,b:2", "GANTRY_RUN_DIR": self.run}, self.dir.name)
        self.assertEqual([Address("a", 1), Address("b", 2)], list(found.addresses))
        self.assertEqual(self.run, found.cluster_dir, "the run directory still gives the socket and the CA")

    def test_runDirsAddressFile_givesEachLine_aControllerAndItsStandby(self):
        self.write("controller.addr", "127.0.0.1:7001\n127.0.0.1:7002\n\n")
        found = locate({**self.empty, "GANTRY_RUN_DIR": self.run}, "/")
        self.assertEqual([Address("127.0.0.1", 7001), Address("127.0.0.1", 7002)], list(found.addresses))
        self.assertEqual(self.run, found.cluster_dir)

    def test_relativeRunDir_isTakenFromTheCurrentDirectory(self):
        self.write("controller.addr", "h:1\n")
        self.assertEqual(self.run, locate({**self.empty, "GANTRY_RUN_DIR": "run"}, self.dir.name).cluster_dir)

    def test_dotGantryInAParentDirectory_isFound(self):
        os.makedirs(os.path.join(self.dir.name, ".gantry"))
        with open(os.path.join(self.dir.name, ".gantry", "controller.addr"), "w") as f:
            f.write("h:2\n")
        deep = os.path.join(self.dir.name, "a", "b")
        os.makedirs(deep)
        self.assertEqual((Address("h", 2),), locate(self.empty, deep).addresses)

    def test_nothingConfigured_isControllerNotFound_sayingWhatToSet(self):
        with self.assertRaisesRegex(ControllerNotFound, "GANTRY_CONTROLLER=host:port"):
            locate(self.empty, self.dir.name)

    def test_malformedAddress_namesWhereItCameFrom(self):
        self.write("controller.addr", "nonsense\n")
        with self.assertRaisesRegex(ControllerNotFound, "invalid controller address in .*controller.addr: expected"):
            locate({**self.empty, "GANTRY_RUN_DIR": self.run}, "/")

    def test_ca_isGantryControllerCa_elseTheClustersCertificate_elseNone(self):
        self.assertIsNone(controller_ca({}, self.run))
        self.write("controller-ca.crt", "PEM")
        self.assertEqual(os.path.join(self.run, "controller-ca.crt"), controller_ca({}, self.run))
        self.assertEqual("/etc/ca.pem", controller_ca({"GANTRY_CONTROLLER_CA": "/etc/ca.pem"}, self.run))


if __name__ == "__main__":
    unittest.main()
