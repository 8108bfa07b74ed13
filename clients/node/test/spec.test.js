'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { jobSpec, wrapScript, jobView, jobState } = require('../src/spec');
const { api } = require('../src/wire');

const context = {
  cwd: '/home/alice/work',
  env: { PATH: '/usr/bin:/bin', HOME: '/home/alice' },
  host: 'login1',
  owner: { user: 'alice', uid: 1001, gid: 1001 },
  fields: api().specFields,
};

test("a script with no options gets sbatch's defaults: this directory, environment, host and user", () => {
  assert.deepEqual(jobSpec('#!/bin/sh\ntrue\n', undefined, context), {
    script: '#!/bin/sh\ntrue\n',
    workDir: '/home/alice/work',
    submitDir: '/home/alice/work',
    submitHost: 'login1',
    environment: { PATH: '/usr/bin:/bin', HOME: '/home/alice' },
    user: 'alice',
    uid: 1001,
    gid: 1001,
  });
});

test('{wrap} is the script sbatch --wrap makes, named "wrap"', () => {
  const spec = jobSpec({ wrap: 'hostname' }, {}, context);
  assert.equal(spec.script, '#!/bin/sh\n# This script was created by sbatch --wrap.\n\nhostname\n');
  assert.equal(spec.script, wrapScript('hostname'));
  assert.equal(spec.name, 'wrap');
  assert.equal(jobSpec({ wrap: 'hostname' }, { name: 'mine' }, context).name, 'mine');
});

test('options are JobSpec fields in camelCase; partitions may be one string; a relative workDir is the submit directory\'s', () => {
  const spec = jobSpec('#!/bin/sh\n', { partitions: 'debug,batch', timeLimitSeconds: 60, hold: true, workDir: 'out',
    beginTime: new Date(Date.UTC(2030, 0, 1, 0, 0, 1, 500)) }, context);
  assert.deepEqual(spec.partitions, ['debug', 'batch']);
  assert.equal(spec.timeLimitSeconds, 60);
  assert.equal(spec.hold, true);
  assert.equal(spec.workDir, '/home/alice/work/out');
  assert.deepEqual(spec.beginTime, { seconds: 1893456001, nanos: 500e6 });
});

test("a given environment is the job's, with the client's PATH when it has none", () => {
  assert.deepEqual(jobSpec('#!/bin/sh\n', { environment: { A: '1' } }, context).environment, { A: '1', PATH: '/usr/bin:/bin' });
  assert.deepEqual(jobSpec('#!/bin/sh\n', { environment: { PATH: '/opt/bin' } }, context).environment, { PATH: '/opt/bin' });
});

test('with a token (owner unknown) user, uid and gid are left to the controller; given ones are kept', () => {
  const spec = jobSpec('#!/bin/sh\n', {}, { ...context, owner: null });
  assert.equal(spec.user, undefined);
  assert.equal(spec.uid, undefined);
  assert.deepEqual([jobSpec('#!/bin/sh\n', { user: 'bob' }, context)].map((s) => [s.user, s.uid]), [['bob', undefined]]);
});

test('bad options are refused naming the option', () => {
  assert.throws(() => jobSpec(42, {}, context), /^TypeError: script: expected/);
  assert.throws(() => jobSpec('#!/bin/sh\n', { partiton: 'debug' }, context), /^TypeError: partiton: not an option of submit/);
  assert.throws(() => jobSpec('#!/bin/sh\n', { script: 'x' }, context), /^TypeError: script: not an option of submit/);
  assert.throws(() => jobSpec('#!/bin/sh\n', { beginTime: 'tomorrow' }, context), /^TypeError: beginTime: expected a valid Date/);
});

test('views and states take short names', () => {
  assert.equal(jobView('summary'), 'JOB_VIEW_SUMMARY');
  assert.equal(jobView('JOB_VIEW_FULL'), 'JOB_VIEW_FULL');
  assert.equal(jobView(undefined), undefined);
  assert.throws(() => jobView('short'), /^TypeError: view: expected 'summary', 'full' or 'private', got "short"/);
  assert.equal(jobState('pending'), 'JOB_STATE_PENDING');
  assert.equal(jobState('JOB_STATE_RUNNING'), 'JOB_STATE_RUNNING');
  assert.throws(() => jobState(''), /^TypeError: states:/);
});
