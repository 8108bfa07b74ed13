"""The caller's credential: a token from the environment, else one from the local authenticator's socket."""

import os
import socket
import tempfile
import threading
import unittest

from gantry._credentials import CallerCredential, local_token
from gantry.errors import CredentialUnavailable


class FakeAuthenticator:
    """A Unix socket answering each connection with the next line of ``answers``, as node-agent's LocalAuthenticator."""

    def __init__(self, path, answers):
        self.path, self.answers, self.served = path, list(answers), 0
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(path)
        self.server.listen()
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                conn.sendall((self.answers[min(self.served, len(self.answers) - 1)] + "\n").encode())
                self.served += 1

    def close(self):
        self.server.close()


class CallerCredentialTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.sock = os.path.join(self.dir.name, "auth.sock")

    def tearDown(self):
        self.dir.cleanup()

    def test_jwtFromTheEnvironment_isSentAsBearer_slurmJwtFirst(self):
        self.assertEqual("Bearer a.b.c", CallerCredential({"SLURM_JWT": " a.b.c\n", "GANTRY_JWT": "x"}, None).header())
        self.assertEqual("Bearer x", CallerCredential({"GANTRY_JWT": "x"}, None).header())

    def test_anExplicitToken_winsOverTheEnvironment(self):
        self.assertEqual("Bearer mine", CallerCredential({"SLURM_JWT": "env"}, None, token="mine").header())

    def test_localToken_comesFromAuthSockBesideControllerAddr_andIsKeptUntilHalfItsLife(self):
        fake = FakeAuthenticator(self.sock, ["tok1", "tok2"])
        now = [0.0]
        try:
            credential = CallerCredential({}, self.dir.name, clock=lambda: now[0])
            self.assertEqual("Bearer tok1", credential.header())
            now[0] = 149.0
            self.assertEqual("Bearer tok1", credential.header())
            now[0] = 151.0
            self.assertEqual("Bearer tok2", credential.header(), "a local token is renewed after 150 s")
        finally:
            fake.close()

    def test_gantryAuthSocket_winsOverTheClustersSocket(self):
        other = os.path.join(self.dir.name, "other.sock")
        fake = FakeAuthenticator(other, ["theirs"])
        try:
            self.assertEqual("Bearer theirs", CallerCredential({"GANTRY_AUTH_SOCKET": other}, "/nonexistent").header())
        finally:
            fake.close()

    def test_anAuthenticatorsRefusal_isCredentialUnavailable_withItsReason(self):
        fake = FakeAuthenticator(self.sock, ["ERROR no such user"])
        try:
            with self.assertRaisesRegex(CredentialUnavailable, "refused: no such user"):
                local_token(self.sock)
        finally:
            fake.close()

    def test_anAbsentSocket_namedExplicitly_isCredentialUnavailable_namingIt(self):
        with self.assertRaisesRegex(CredentialUnavailable, "cannot reach the local authenticator at .*gone.sock"):
            CallerCredential({"GANTRY_AUTH_SOCKET": os.path.join(self.dir.name, "gone.sock")}, None).header()


if __name__ == "__main__":
    unittest.main()
