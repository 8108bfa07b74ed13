"""What submit() fills in where the caller says nothing, and when a job counts as finished."""

import datetime as dt
import unittest

import gantry
from gantry import jobs
from gantry.errors import GantryError
from gantry.v1 import types_pb2

import grpc


class BuildSpecTest(unittest.TestCase):
    def spec(self, **options):
        return jobs.build_spec("#!/bin/sh\ntrue\n", cwd="/home/u/w", environ={"PATH": "/usr/bin", "X": "1"},
                               host="login1", **options)

    def test_defaults_areWhatSbatchSends_workDirEnvironmentSubmitDirAndHost(self):
        spec = self.spec()
        self.assertEqual("/home/u/w", spec.work_dir)
        self.assertEqual({"PATH": "/usr/bin", "X": "1"}, dict(spec.environment))
        self.assertEqual(("/home/u/w", "login1"), (spec.submit_dir, spec.submit_host))

    def test_userUidGid_areLeftForTheControllerToSetFromTheCredential(self):
        spec = self.spec()
        self.assertEqual(("", 0, 0), (spec.user, spec.uid, spec.gid))
        self.assertEqual(("bob", 1001), (self.spec(user="bob", uid=1001).user, self.spec(uid=1001).uid))

    def test_relativeWorkDir_isMadeAbsoluteFromTheCurrentDirectory(self):
        self.assertEqual("/home/u/w/out", self.spec(work_dir="out").work_dir)
        self.assertEqual("/scratch", self.spec(work_dir="/scratch").work_dir)

    def test_anEnvironmentGiven_replacesTheProcesssOne(self):
        self.assertEqual({"ONLY": "this"}, dict(self.spec(environment={"ONLY": "this"}).environment))

    def test_options_areJobSpecFields_aRepeatedOneTakingOneString(self):
        spec = self.spec(partitions="debug", gres=["gpu:1"], min_nodes=2, hold=True, time_limit_seconds=60,
                         name=None)
        self.assertEqual((["debug"], ["gpu:1"], 2, True, 60), (list(spec.partitions), list(spec.gres), spec.min_nodes,
                                                                spec.hold, spec.time_limit_seconds))
        self.assertTrue(spec.HasField("min_nodes"))
        self.assertFalse(spec.HasField("ntasks"), "an option not given stays unset: the partition's default applies")

    def test_beginTime_takesADatetime(self):
        when = dt.datetime(2030, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
        self.assertEqual(int(when.timestamp()), self.spec(begin_time=when).begin_time.seconds)

    def test_anUnknownOption_isATypeErrorNamingIt(self):
        with self.assertRaisesRegex(TypeError, "unknown option 'partition'; options are JobSpec fields: .*partitions"):
            self.spec(partition="debug")


class WrapTest(unittest.TestCase):
    def test_wrap_makesAShScript_quotingAnArgumentList(self):
        self.assertEqual("#!/bin/sh\necho hi\n", gantry.wrap("echo hi"))
        self.assertEqual("#!/bin/sh\necho 'a b'\n", gantry.wrap(["echo", "a b"]))


class FinishedTest(unittest.TestCase):
    CASES = [
        ("pending", types_pb2.JOB_STATE_PENDING, False, False),
        ("running", types_pb2.JOB_STATE_RUNNING, False, False),
        ("suspended", types_pb2.JOB_STATE_SUSPENDED, False, False),
        ("cancelled_stillCompleting", types_pb2.JOB_STATE_CANCELLED, True, False),
        ("completed_stillCompleting", types_pb2.JOB_STATE_COMPLETED, True, False),
        ("completed", types_pb2.JOB_STATE_COMPLETED, False, True),
        ("failed", types_pb2.JOB_STATE_FAILED, False, True),
        ("timeout", types_pb2.JOB_STATE_TIMEOUT, False, True),
        ("unspecified", types_pb2.JOB_STATE_UNSPECIFIED, False, False),
    ]

    def test_finished_needsAnEndStateAndNoLongerCompleting(self):
        for name, state, completing, finished in self.CASES:
            with self.subTest(name):
                self.assertEqual(finished, gantry.is_finished(types_pb2.Job(state=state, completing=completing)))

    def test_stateName_isSqueuesWithCompletingFirst(self):
        self.assertEqual("RUNNING", gantry.state_name(types_pb2.Job(state=types_pb2.JOB_STATE_RUNNING)))
        self.assertEqual("COMPLETING", gantry.state_name(types_pb2.Job(state=types_pb2.JOB_STATE_CANCELLED,
                                                                       completing=True)))


class FilterTest(unittest.TestCase):
    def test_filters_takeNamesAndSingleValues(self):
        request = gantry.job_filter(ids=7, users="alice", states=["running", "JOB_STATE_PENDING"], view="full",
                                    page_size=7)
        self.assertEqual(([7], ["alice"], [types_pb2.JOB_STATE_RUNNING, types_pb2.JOB_STATE_PENDING], gantry.FULL, 7),
                         (list(request.job_ids), list(request.users), list(request.states), request.view,
                          request.page_size))

    def test_anUnknownStateName_isAValueErrorNamingIt(self):
        with self.assertRaisesRegex(ValueError, "JOB_STATE_DONE"):
            gantry.job_filter(states="done")


class ErrorTest(unittest.TestCase):
    def test_theFieldIsTakenFromTheServersMessage(self):
        error = GantryError(grpc.StatusCode.INVALID_ARGUMENT, "min_nodes: 9 nodes requested, partition debug has 4",
                            "SubmitJob")
        self.assertEqual(("min_nodes", grpc.StatusCode.INVALID_ARGUMENT), (error.field, error.code))
        self.assertEqual("SubmitJob: INVALID_ARGUMENT: min_nodes: 9 nodes requested, partition debug has 4", str(error))
        self.assertIsNone(GantryError(grpc.StatusCode.NOT_FOUND, "Invalid job id specified").field)


if __name__ == "__main__":
    unittest.main()
