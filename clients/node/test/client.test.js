'use strict';
// The client's transport rules against fake controllers (grpc-js servers in this process): the credential on every
// call, a rate-limited call sent again, a standby's UNAVAILABLE followed to the active controller, and refusals as
// GantryErrors. The real controller is exercised by e2e/ (NodeClientE2ETest).
const test = require('node:test');
const assert = require('node:assert/strict');
const grpc = require('@grpc/grpc-js');
const { connect, GantryError } = require('../src/index');
const { api } = require('../src/wire');

/** A fake controller answering GetJob and ListPartitions with `answer(call)` (a value, or an error to refuse with). */
async function fakeController(t, answer) {
  const server = new grpc.Server();
  const seen = [];
  const handle = (call, callback) => {
    seen.push({ request: call.request, authorization: call.metadata.get('authorization')[0] });
    const result = answer(call, seen.length);
    if (result instanceof Error) {
      callback(result);
    } else {
      callback(null, result);
    }
  };
  server.addService(api().Controller.service, { GetJob: handle, ListPartitions: handle, SubmitJob: handle });
  const port = await new Promise((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(),
    (error, p) => (error ? reject(error) : resolve(p))));
  t.after(() => server.forceShutdown());
  return { address: `127.0.0.1:${port}`, seen };
}

const refusal = (code, details, trailers) => Object.assign(new Error(details), { code, details, metadata: trailers });

test('every call carries the token as a Bearer header, and a refusal is a GantryError with the code and message', async (t) => {
  const fake = await fakeController(t, (call) => (call.request.jobId === 7 ? { job: { jobId: 7, state: 'JOB_STATE_RUNNING' } }
    : refusal(grpc.status.NOT_FOUND, `job_id: ${call.request.jobId} not found`)));
  const gantry = await connect({ controller: fake.address, token: 'jwt-1', env: {} });
  t.after(() => gantry.close());
  assert.equal((await gantry.getJob(7)).state, 'JOB_STATE_RUNNING');
  await assert.rejects(gantry.getJob(8), (e) => e instanceof GantryError && e.codeName === 'NOT_FOUND'
    && e.details === 'job_id: 8 not found' && e.method === 'GetJob');
  assert.deepEqual(fake.seen.map((s) => s.authorization), ['Bearer jwt-1', 'Bearer jwt-1']);
});

test('a call refused by the rate limit is sent again a second later; other refusals are not', async (t) => {
  const fake = await fakeController(t, (call, n) => (n === 1 ? refusal(grpc.status.RESOURCE_EXHAUSTED, 'rate limit: 10 requests a second')
    : { job: { jobId: call.request.jobId } }));
  const gantry = await connect({ controller: fake.address, env: {} });
  t.after(() => gantry.close());
  const started = Date.now();
  assert.equal((await gantry.getJob(3)).jobId, 3);
  assert.equal(fake.seen.length, 2);
  assert.ok(Date.now() - started >= 900, `${Date.now() - started} ms`);
});

test('of two controllers the active one is used, and a standby\'s redirect is followed', async (t) => {
  const trailers = new grpc.Metadata();
  const active = await fakeController(t, () => ({ job: { jobId: 1, state: 'JOB_STATE_PENDING' } }));
  trailers.set('gantry-active-controller', active.address);
  const standby = await fakeController(t, () => refusal(grpc.status.UNAVAILABLE, 'standby controller', trailers));
  const gantry = await connect({ controller: [standby.address, active.address], env: {} });
  t.after(() => gantry.close());
  assert.equal(gantry.address, active.address, 'the probe found the active one');
  gantry.current = 0; // as if the controllers had swapped since
  assert.equal((await gantry.getJob(1)).state, 'JOB_STATE_PENDING');
  assert.equal(gantry.address, active.address);
});

test('no credential to be had is UNAUTHENTICATED naming the local authenticator, before anything is sent', async (t) => {
  const fake = await fakeController(t, () => ({ job: {} }));
  const gantry = await connect({ controller: fake.address, authSocket: '/nonexistent/auth.sock', env: {} });
  t.after(() => gantry.close());
  await assert.rejects(gantry.getJob(1), (e) => e instanceof GantryError && e.codeName === 'UNAUTHENTICATED'
    && /cannot reach the local authenticator at \/nonexistent\/auth.sock/.test(e.details));
  assert.equal(fake.seen.length, 0);
});

test('submit sends sbatch\'s defaults and resolves with the job id', async (t) => {
  const fake = await fakeController(t, () => ({ jobId: 42 }));
  const gantry = await connect({ controller: fake.address, token: 't', env: { PATH: '/bin', X: '1' }, cwd: '/home/u/w' });
  t.after(() => gantry.close());
  assert.equal(await gantry.submit({ wrap: 'true' }, { partitions: ['debug'], minNodes: 2 }), 42);
  const { spec } = fake.seen[0].request;
  assert.equal(spec.workDir, '/home/u/w');
  assert.deepEqual(spec.environment, { PATH: '/bin', X: '1' });
  assert.deepEqual(spec.partitions, ['debug']);
  assert.equal(spec.minNodes, 2);
  assert.equal(spec.user, '', 'with a token the controller says whose the job is');
});
