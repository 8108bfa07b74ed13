'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chooseCredential, localToken, CallerCredential } = require('../src/credential');

const noFiles = { statSync() { throw new Error('ENOENT'); } };
const files = (...paths) => ({ statSync(p) { if (!paths.includes(p)) throw new Error('ENOENT'); return {}; } });

test('the credential that applies, first match wins', () => {
  assert.deepEqual(chooseCredential({ SLURM_JWT: ' t1 ', GANTRY_JWT: 't2' }, '/r', {}, noFiles), { kind: 'token', token: 't1' });
  assert.deepEqual(chooseCredential({ GANTRY_JWT: 't2' }, '/r', {}, noFiles), { kind: 'token', token: 't2' });
  assert.deepEqual(chooseCredential({ SLURM_JWT: 't1' }, '/r', { token: 'given' }, noFiles), { kind: 'token', token: 'given' });
  assert.deepEqual(chooseCredential({ GANTRY_AUTH: 'munge', GANTRY_MUNGE_SOCKET: '/m' }, '/r', {}, noFiles), { kind: 'munge', socket: '/m' });
  assert.deepEqual(chooseCredential({ GANTRY_AUTH_SOCKET: '/a.sock' }, '/r', {}, noFiles), { kind: 'local', socket: '/a.sock' });
  assert.deepEqual(chooseCredential({}, '/r', {}, files('/r/auth.sock')), { kind: 'local', socket: '/r/auth.sock' });
  assert.deepEqual(chooseCredential({}, '/r', {}, files('/run/gantry/auth.sock')), { kind: 'local', socket: '/run/gantry/auth.sock' });
  assert.deepEqual(chooseCredential({}, null, {}, files('/run/munge/munge.socket.2')), { kind: 'munge', socket: null });
  assert.deepEqual(chooseCredential({}, null, {}, noFiles), { kind: 'none' });
});

/** A local authenticator answering `lines` in turn, one per connection. */
async function authenticator(t, lines) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-auth-'));
  const socket = path.join(dir, 'auth.sock');
  let n = 0;
  const server = net.createServer((c) => c.end(`${lines[Math.min(n++, lines.length - 1)]}\n`));
  await new Promise((resolve) => server.listen(socket, resolve));
  t.after(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { socket, connections: () => n };
}

test('a local token: one line from the socket; "ERROR reason" and no socket are errors naming the socket', async (t) => {
  const ok = await authenticator(t, ['tok-1']);
  assert.equal(await localToken(ok.socket), 'tok-1');
  const refusing = await authenticator(t, ['ERROR unknown uid 4242']);
  await assert.rejects(localToken(refusing.socket), { message: `the local authenticator at ${refusing.socket} refused: unknown uid 4242` });
  await assert.rejects(localToken('/nonexistent/auth.sock'), /cannot reach the local authenticator at \/nonexistent\/auth.sock/);
});

test('a local token is reused for half its lifetime, then taken again', async (t) => {
  const auth = await authenticator(t, ['tok-1', 'tok-2']);
  let now = 0;
  const credential = new CallerCredential({ kind: 'local', socket: auth.socket }, () => now);
  assert.equal(await credential.header(), 'Bearer tok-1');
  now = 149_000;
  assert.equal(await credential.header(), 'Bearer tok-1');
  assert.equal(auth.connections(), 1);
  now = 151_000;
  assert.equal(await credential.header(), 'Bearer tok-2');
  assert.equal(await new CallerCredential({ kind: 'token', token: 'jwt' }).header(), 'Bearer jwt');
  assert.equal(await new CallerCredential({ kind: 'none' }).header(), null);
});
