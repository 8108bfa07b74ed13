'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const grpc = require('@grpc/grpc-js');
const { api, fromWire, isFinished, GantryError, toGantryError } = require('../src/wire');

test('isFinished: ended and not completing', () => {
  const cases = [
    ['JOB_STATE_PENDING', false, false],
    ['JOB_STATE_RUNNING', false, false],
    ['JOB_STATE_SUSPENDED', false, false],
    ['JOB_STATE_COMPLETED', true, false], // still being reported: its output may not be whole yet
    ['JOB_STATE_COMPLETED', false, true],
    ['JOB_STATE_CANCELLED', false, true],
    ['JOB_STATE_FAILED', false, true],
    ['JOB_STATE_TIMEOUT', false, true],
    ['JOB_STATE_UNSPECIFIED', false, false],
  ];
  for (const [state, completing, finished] of cases) {
    assert.equal(isFinished({ state, completing }), finished, `${state} completing=${completing}`);
  }
});

test('answers as plain values: timestamps are Dates or null, unset optionals undefined', () => {
  const { Controller } = api();
  const method = Controller.service.GetJob;
  const wire = method.responseDeserialize(method.responseSerialize({
    job: { jobId: 7, state: 'JOB_STATE_RUNNING', submitTime: { seconds: 1700000000, nanos: 250e6 }, spec: { timeLimitSeconds: 60 } },
  }));
  const job = fromWire(wire).job;
  assert.equal(job.jobId, 7);
  assert.equal(job.state, 'JOB_STATE_RUNNING');
  assert.deepEqual(job.submitTime, new Date(1700000000250));
  assert.equal(job.startTime, null);
  assert.equal(job.spec.timeLimitSeconds, 60);
  assert.equal(job.spec.minNodes, undefined);
  assert.equal(job.timeUsedSeconds, undefined);
  assert.ok(!Object.keys(job.spec).some((k) => k.startsWith('_')), Object.keys(job.spec).join());
});

test('a gRPC error becomes a GantryError with the status code and the server message', () => {
  const error = toGantryError({ code: grpc.status.INVALID_ARGUMENT, details: 'partitions: invalid partition name specified: nope' }, 'SubmitJob');
  assert.ok(error instanceof GantryError);
  assert.ok(error instanceof Error);
  assert.equal(error.code, 3);
  assert.equal(error.codeName, 'INVALID_ARGUMENT');
  assert.equal(error.details, 'partitions: invalid partition name specified: nope');
  assert.equal(error.message, 'INVALID_ARGUMENT: partitions: invalid partition name specified: nope');
  assert.equal(error.method, 'SubmitJob');
  const plain = new TypeError('x');
  assert.equal(toGantryError(plain, 'SubmitJob'), plain, 'not a gRPC error: left as it is');
});
