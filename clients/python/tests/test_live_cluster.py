"""The client against a running cluster: the one GANTRY_RUN_DIR names (e2e PythonClientE2ETest starts one whose
default partition "debug" has MaxTime 60 minutes and room for a job). Skipped without GANTRY_RUN_DIR."""

import os
import tempfile
import unittest

import grpc

import gantry
import gantry.v1.types_pb2

RUN_DIR = os.environ.get("GANTRY_RUN_DIR", "")


@unittest.skipUnless(RUN_DIR, "needs a live cluster: GANTRY_RUN_DIR=<its run directory>")
class LiveClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = gantry.connect()
        cls.work = tempfile.mkdtemp(prefix="gantry-py-")  # the job runs as this user and writes its output here

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    def test_aSubmittedScriptRuns_andWaitReturnsItFinished_withItsOutputFile(self):
        job_id = self.client.submit("#!/bin/sh\necho \"hello from $SLURM_JOB_ID as $(id -un) in $(pwd)\"\n",
                                    work_dir=self.work, name="py-hello")
        job = self.client.wait(job_id, timeout=60)
        self.assertTrue(gantry.is_finished(job))
        self.assertEqual(("COMPLETED", 0, "py-hello"), (gantry.state_name(job), job.exit_code, job.name))
        self.assertEqual(os.getuid(), job.spec.uid, "the controller set the owner from the credential")
        with open(os.path.join(self.work, f"slurm-{job_id}.out")) as f:
            self.assertEqual(f"hello from {job_id} as {job.spec.user} in {self.work}\n", f.read())

    def test_wrap_runsACommandWithTheSubmittersPath(self):
        os.environ["GANTRY_PY_MARK"] = "marked"
        try:
            job_id = self.client.submit(wrap="echo $GANTRY_PY_MARK; exit 3", work_dir=self.work)
        finally:
            del os.environ["GANTRY_PY_MARK"]
        job = self.client.wait(job_id, timeout=60)
        self.assertEqual(("FAILED", 3, "wrap"), (gantry.state_name(job), job.exit_code, job.name))
        with open(os.path.join(self.work, f"slurm-{job_id}.out")) as f:
            self.assertEqual("marked\n", f.read())

    def test_heldJobs_listInPages_andCancelAnswersPerJob(self):
        ids = [self.client.submit(wrap="true", work_dir=self.work, hold=True) for _ in range(30)]
        pages = list(self.client.pages(ids=ids, page_size=7))
        self.assertEqual([7, 7, 7, 7, 2], [len(p.jobs) for p in pages])
        self.assertEqual(ids, [j.job_id for p in pages for j in p.jobs])
        self.assertTrue(all(p.next_page_token for p in pages[:-1]) and not pages[-1].next_page_token)
        streamed = list(self.client.list(ids=ids, page_size=7, states="pending"))
        self.assertEqual(ids, [j.job_id for j in streamed], "StreamJobs reads every page on one stream")
        self.assertEqual(gantry.v1.types_pb2.JOB_HOLD_USER, self.client.get(ids[0]).hold)
        second = self.client.page_after(pages[0].next_page_token, ids=ids, page_size=7)
        self.assertEqual(ids[7:14], [j.job_id for j in second.jobs])

        results = self.client.cancel(ids + [999999])
        self.assertEqual(ids + [999999], [r.job_id for r in results])
        self.assertTrue(all(r.ok for r in results[:-1]), [r.error for r in results if not r.ok])
        self.assertEqual((False, grpc.StatusCode.NOT_FOUND.value[0]), (results[-1].ok, results[-1].code))
        self.assertTrue(results[-1].error, "a refused id says why")
        cancelled = self.client.wait(ids[0], timeout=30)
        self.assertEqual("CANCELLED", gantry.state_name(cancelled))

    def test_watch_seesAHeldJob_thenItsCancellation(self):
        job_id = self.client.submit(wrap="true", work_dir=self.work, hold=True)
        seen = []
        for job in self.client.watch(job_id, timeout=30):
            seen.append(gantry.state_name(job))
            if len(seen) == 1:
                self.client.cancel(job_id)
            if gantry.is_finished(job):
                break
        self.assertEqual("PENDING", seen[0])
        self.assertEqual("CANCELLED", seen[-1])

    def test_badInput_isGantryError_namingTheField(self):
        cases = [({"partitions": "nope"}, "partitions", "nope"),
                  ({"min_nodes": 0}, "min_nodes", "at least 1")]
        for options, field, words in cases:
            with self.subTest(field), self.assertRaises(gantry.GantryError) as refused:
                self.client.submit(wrap="true", work_dir=self.work, **options)
            self.assertEqual((grpc.StatusCode.INVALID_ARGUMENT, field), (refused.exception.code, refused.exception.field))
            self.assertIn(words, refused.exception.message)
        with self.assertRaises(gantry.GantryError) as refused:
            self.client.submit("echo no interpreter line\n", work_dir=self.work)
        self.assertEqual(("script", grpc.StatusCode.INVALID_ARGUMENT), (refused.exception.field, refused.exception.code))
        with self.assertRaises(gantry.GantryError) as unknown:
            self.client.get(987654321)
        self.assertEqual(grpc.StatusCode.NOT_FOUND, unknown.exception.code)

    def test_createToken_givesAJwtThatAuthenticatesAnotherClient_orSaysJwtIsOff(self):
        try:
            token = self.client.create_token(lifespan=600)
        except gantry.GantryError as e:
            self.assertEqual(grpc.StatusCode.FAILED_PRECONDITION, e.code, e)
            self.skipTest(f"the cluster has no auth/jwt: {e.message}")
        self.assertEqual(3, len(token.token.split(".")))
        with gantry.connect(token=token.token) as other:
            job_id = other.submit(wrap="true", work_dir=self.work, hold=True)
            self.assertEqual(token.username, other.get(job_id).spec.user)
            self.assertTrue(other.cancel(job_id)[0].ok)


if __name__ == "__main__":
    unittest.main()
