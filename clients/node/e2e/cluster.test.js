'use strict';
// The client against a live local cluster, run by e2e NodeClientE2ETest (GANTRY_RUN_DIR names the cluster; the
// working directory is the test user's, where jobs write their output). Not a unit test: `npm test` runs test/ only.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { connect, isFinished, GantryError, ALL_STATES } = require('..');

if (!process.env.GANTRY_RUN_DIR) {
  throw new Error('GANTRY_RUN_DIR must name a running local cluster (bin/gantry up --run-dir DIR)');
}
const me = os.userInfo().username;
let gantry;

test.before(async () => {
  gantry = await connect();
});
test.after(() => gantry.close());

test('a submitted script runs as its submitter, in its directory, and waitJob returns it finished', async () => {
  const id = await gantry.submit('#!/bin/sh\necho "hello $SLURM_JOB_ID from $(id -un) in $PWD"\n', { name: 'hello', timeLimitSeconds: 60 });
  assert.ok(Number.isInteger(id) && id > 0, String(id));
  const job = await gantry.waitJob(id, { signal: AbortSignal.timeout(60_000) });
  assert.ok(isFinished(job));
  assert.equal(job.state, 'JOB_STATE_COMPLETED');
  assert.equal(job.exitCode, 0);
  assert.equal(job.name, 'hello');
  assert.equal(job.spec.user, me);
  assert.equal(job.spec.uid, process.getuid());
  assert.equal(job.spec.workDir, process.cwd());
  assert.ok(job.endTime instanceof Date && job.endTime >= job.startTime, `${job.startTime} .. ${job.endTime}`);
  const out = fs.readFileSync(path.join(process.cwd(), `slurm-${id}.out`), 'utf8');
  assert.equal(out, `hello ${id} from ${me} in ${process.cwd()}\n`);
});

test('a wrapped command that fails ends FAILED with its exit code', async () => {
  const id = await gantry.submit({ wrap: 'echo about to fail; exit 3' }, { stdoutPath: 'fail-%j.log' });
  const job = await gantry.waitJob(id, { signal: AbortSignal.timeout(60_000) });
  assert.equal(job.state, 'JOB_STATE_FAILED');
  assert.equal(job.exitCode, 3);
  assert.equal(job.name, 'wrap');
  assert.equal(fs.readFileSync(`fail-${id}.log`, 'utf8'), 'about to fail\n');
});

test('30 held jobs list in pages of 7, in id order, resumable from a page token, and cancel with one result each', async () => {
  const ids = [];
  for (let i = 0; i < 30; i += 1) {
    ids.push(await gantry.submit({ wrap: 'true' }, { hold: true, name: `held-${i}` }));
  }
  const pages = [];
  for await (const page of gantry.listJobPages({ jobIds: ids, pageSize: 7, view: 'summary' })) {
    pages.push(page);
  }
  assert.deepEqual(pages.map((p) => p.jobs.length), [7, 7, 7, 7, 2]);
  assert.deepEqual(pages.flatMap((p) => p.jobs.map((j) => j.jobId)), ids);
  assert.deepEqual(pages.flatMap((p) => p.jobs.map((j) => j.state)), ids.map(() => 'JOB_STATE_PENDING'));
  assert.equal(pages[4].nextPageToken, '');

  const resumed = [];
  for await (const page of gantry.listJobPages({ jobIds: ids, pageSize: 7, view: 'summary', pageToken: pages[2].nextPageToken })) {
    resumed.push(...page.jobs.map((j) => j.jobId));
  }
  assert.deepEqual(resumed, ids.slice(21));

  const streamed = [];
  for await (const job of gantry.listJobs({ jobIds: ids, pageSize: 7, states: 'pending', users: me })) {
    streamed.push([job.jobId, job.hold]); // the full view: the hold is not among squeue's fields
  }
  assert.deepEqual(streamed, ids.map((id) => [id, 'JOB_HOLD_USER']));

  const results = await gantry.cancel(ids);
  assert.deepEqual(results.map((r) => [r.jobId, r.ok, r.code]), ids.map((id) => [id, true, 0]));
  const after = [];
  for await (const job of gantry.listJobs({ jobIds: ids, states: ALL_STATES })) {
    after.push(job.state);
  }
  assert.deepEqual(after, ids.map(() => 'JOB_STATE_CANCELLED'));
});

test('cancel answers per job: a running job is killed, an unknown id is NOT_FOUND, the others go on', async () => {
  const running = await gantry.submit({ wrap: 'sleep 600' });
  const seen = [];
  for await (const job of gantry.watchJobs({ jobIds: [running], states: ALL_STATES, view: 'summary' })) {
    seen.push(job.state);
    if (job.state === 'JOB_STATE_RUNNING') {
      break;
    }
  }
  assert.equal(seen.at(-1), 'JOB_STATE_RUNNING', seen.join());
  const [killed, unknown] = await gantry.cancel([running, 99999999]);
  assert.deepEqual([killed.jobId, killed.ok, killed.code], [running, true, 0]);
  assert.deepEqual([unknown.jobId, unknown.ok, unknown.code], [99999999, false, 5]);
  assert.match(unknown.error, /Invalid job id/);
  const job = await gantry.waitJob(running, { signal: AbortSignal.timeout(60_000) });
  assert.equal(job.state, 'JOB_STATE_CANCELLED');
  assert.equal(job.completing, false);
});

test('a watch shows a job now, then its changes', async () => {
  const id = await gantry.submit({ wrap: 'true' }, { hold: true });
  const states = [];
  for await (const job of gantry.watchJobs({ jobIds: [id], states: ALL_STATES, view: 'summary' }, { signal: AbortSignal.timeout(60_000) })) {
    states.push(`${job.state}${job.completing ? '+CG' : ''}`);
    if (states.length === 1) {
      await gantry.cancel(id);
    }
    if (isFinished(job)) {
      break;
    }
  }
  assert.equal(states[0], 'JOB_STATE_PENDING');
  assert.equal(states.at(-1), 'JOB_STATE_CANCELLED');
});

test('bad input is refused with the gRPC code and a message naming the field', async () => {
  const refusal = (promise) => promise.then(() => assert.fail('expected a refusal'), (e) => e);
  const partition = await refusal(gantry.submit({ wrap: 'true' }, { partitions: 'nope' }));
  assert.ok(partition instanceof GantryError, String(partition));
  assert.equal(partition.code, 3);
  assert.equal(partition.codeName, 'INVALID_ARGUMENT');
  assert.match(partition.details, /^partitions: invalid partition name specified: nope/);
  assert.equal(partition.method, 'SubmitJob');

  const nodes = await refusal(gantry.submit({ wrap: 'true' }, { minNodes: 9 }));
  assert.match(nodes.details, /^min_nodes: 9 nodes requested, partition debug has 2/);
  const time = await refusal(gantry.submit({ wrap: 'true' }, { timeLimitSeconds: 7200 }));
  assert.match(time.details, /^time_limit_seconds: .*MaxTime/);
  const script = await refusal(gantry.submit('echo no interpreter\n'));
  assert.match(script.details, /^script: must start with #!/);
  const unknown = await refusal(gantry.getJob(99999999));
  assert.equal(unknown.codeName, 'NOT_FOUND');
  await assert.rejects(gantry.submit({ wrap: 'true' }, { partiton: 'debug' }), /^TypeError: partiton: not an option of submit/);
});

test('a token from createToken authenticates a client of its own, and the controller makes the job its user\'s', async () => {
  const { token, username, expiresAt } = await gantry.createToken({ lifespanSeconds: 600 });
  assert.equal(username, me);
  assert.ok(expiresAt > new Date() && expiresAt <= new Date(Date.now() + 601_000), String(expiresAt));
  const withToken = await connect({ token });
  try {
    const id = await withToken.submit({ wrap: 'true' }, { hold: true });
    const job = await withToken.getJob(id);
    assert.equal(job.spec.user, me);
    assert.equal(job.spec.uid, process.getuid());
    assert.deepEqual((await withToken.cancel(id)).map((r) => r.ok), [true]);
  } finally {
    withToken.close();
  }
  const forged = await connect({ token: `${token.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}` });
  try {
    const refused = await forged.getJob(1).then(() => null, (e) => e);
    assert.equal(refused?.codeName, 'UNAUTHENTICATED', String(refused));
  } finally {
    forged.close();
  }
});

test('the examples run: submit and wait, list the queue, cancel', async () => {
  const { execFile } = require('node:child_process');
  const example = (name, ...args) => new Promise((resolve) => {
    execFile(process.execPath, [path.join(__dirname, '..', 'examples', name), ...args], { timeout: 120_000 },
      (error, stdout, stderr) => resolve({ exit: error ? error.code : 0, stdout, stderr }));
  });
  const submitted = await example('submit-and-wait.js', 'echo from the example');
  assert.equal(submitted.exit, 0, JSON.stringify(submitted));
  assert.match(submitted.stdout, /^Submitted batch job (\d+)\njob \1 COMPLETED exit 0:0 on n\d\nfrom the example\n$/);

  const held = await gantry.submit({ wrap: 'true' }, { hold: true, name: 'queued' });
  const queue = await example('queue.js', me);
  assert.equal(queue.exit, 0, JSON.stringify(queue));
  assert.match(queue.stdout, /^JOBID\tPARTITION\tNAME\tUSER\tST\tTIME\tNODES\tNODELIST\(REASON\)\n/);
  // its reason: JobHeldUser once a scheduling pass has looked at it
  assert.match(queue.stdout, new RegExp(`\n${held}\tdebug\tqueued\t${me}\tPD\t0:00\t1\t\\(\\w*\\)\n`));

  const cancelled = await example('cancel.js', String(held), '99999999');
  assert.equal(cancelled.exit, 1, JSON.stringify(cancelled));
  assert.match(cancelled.stdout, new RegExp(`^job ${held}: cancelled\njob 99999999: Invalid job id specified \\(code 5\\)\n$`));
  assert.equal((await gantry.getJob(held)).state, 'JOB_STATE_CANCELLED');
});
