'use strict';
// The caller's credential, sent on every call as the "authorization" header, taken as Gantry's commands take it (cli
// CallerCredential; docs/security.md), from the first that applies:
//   1. a token given to connect() ({token}), else a JSON web token in SLURM_JWT or GANTRY_JWT (scontrol token);
//   2. with GANTRY_AUTH=munge, a MUNGE credential from munged (`munge -n`, socket GANTRY_MUNGE_SOCKET);
//   3. a local token from the node's local authenticator: GANTRY_AUTH_SOCKET, else auth.sock beside the local
//      cluster's controller.addr, else /run/gantry/auth.sock. Its protocol: connect to the Unix socket and read one
//      line, the token or "ERROR <reason>"; the authenticator knows the caller from the socket's peer credentials;
//   4. a MUNGE credential, when munged's socket is there (GANTRY_MUNGE_SOCKET, else /run/munge/munge.socket.2);
// else none, and the controller answers with what it accepts (UNAUTHENTICATED naming it).
const net = require('node:net');
const nodePath = require('node:path');
const nodeFs = require('node:fs');
const { execFile } = require('node:child_process');

const SYSTEM_SOCKET = '/run/gantry/auth.sock';
const DEFAULT_MUNGE_SOCKET = '/run/munge/munge.socket.2';
const MUNGE = '/usr/bin/munge';
/** How long a local token is used before a fresh one is taken: half of its 5-minute lifetime (Tokens.LOCAL_LIFETIME). */
const LOCAL_TOKEN_REUSE_MS = 150_000;
/** How long to wait for the local authenticator's answer. */
const ANSWER_WITHIN_MS = 10_000;

function exists(fs, p) {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
}

function nonBlank(v) {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/**
 * Which credential applies, decided from the environment and the files there (pure apart from `fs`).
 * @returns {{kind: 'token', token: string} | {kind: 'local', socket: string} | {kind: 'munge', socket: string|null} | {kind: 'none'}}
 */
function chooseCredential(env, clusterDir, given = {}, fs = nodeFs) {
  const token = nonBlank(given.token) ?? nonBlank(env.SLURM_JWT) ?? nonBlank(env.GANTRY_JWT);
  if (token) {
    return { kind: 'token', token };
  }
  const mungeSocket = nonBlank(env.GANTRY_MUNGE_SOCKET);
  if ((env.GANTRY_AUTH ?? '').toLowerCase() === 'munge') {
    return { kind: 'munge', socket: mungeSocket };
  }
  const configured = nonBlank(given.authSocket) ?? nonBlank(env.GANTRY_AUTH_SOCKET);
  if (configured) {
    return { kind: 'local', socket: configured };
  }
  if (clusterDir && exists(fs, nodePath.join(clusterDir, 'auth.sock'))) {
    return { kind: 'local', socket: nodePath.join(clusterDir, 'auth.sock') };
  }
  if (exists(fs, SYSTEM_SOCKET)) {
    return { kind: 'local', socket: SYSTEM_SOCKET };
  }
  if (exists(fs, mungeSocket ?? DEFAULT_MUNGE_SOCKET)) {
    return { kind: 'munge', socket: mungeSocket };
  }
  return { kind: 'none' };
}

/** One token from the local authenticator at `socket` (a Unix socket): one line, the token or "ERROR reason". */
function localToken(socket, withinMs = ANSWER_WITHIN_MS) {
  return new Promise((resolve, reject) => {
    let data = '';
    let done = false;
    const finish = (error, token) => {
      if (!done) {
        done = true;
        connection.destroy();
        if (error) {
          reject(error);
        } else {
          resolve(token);
        }
      }
    };
    const connection = net.connect({ path: socket });
    connection.setTimeout(withinMs, () => finish(new Error(`the local authenticator at ${socket} did not answer within ${withinMs} ms (is the node agent running?)`)));
    connection.on('data', (chunk) => {
      data += chunk.toString('ascii');
      if (data.includes('\n')) {
        connection.end();
      }
    });
    connection.on('end', () => {
      const line = data.split('\n')[0].trim();
      if (line.startsWith('ERROR ')) {
        finish(new Error(`the local authenticator at ${socket} refused: ${line.slice(6)}`));
      } else if (line === '') {
        finish(new Error(`the local authenticator at ${socket} answered nothing`));
      } else {
        finish(null, line);
      }
    });
    connection.on('error', (e) => finish(new Error(`cannot reach the local authenticator at ${socket}: ${e.message}`)));
  });
}

/** A fresh MUNGE credential from munged (single use: one per call). */
function mungeCredential(socket) {
  return new Promise((resolve, reject) => {
    if (!exists(nodeFs, MUNGE)) {
      reject(new Error(`GANTRY_AUTH=munge, but ${MUNGE} is not installed`));
      return;
    }
    const args = socket ? ['-n', `--socket=${socket}`] : ['-n'];
    execFile(MUNGE, args, { timeout: ANSWER_WITHIN_MS }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`munge -n failed: ${(stderr || error.message).trim()}`));
      } else {
        resolve(stdout.trim());
      }
    });
  });
}

/**
 * The "authorization" header's value for each call, or null for none. A local token is reused for half its lifetime,
 * then taken again, so a long-lived program stays authenticated; a MUNGE credential is taken anew for every call.
 */
class CallerCredential {
  /** @param choice what chooseCredential returned; @param now milliseconds, a monotonic clock (tests pass a fake) */
  constructor(choice, now = () => performance.now()) {
    this.choice = choice;
    this.now = now;
    this.cached = null;
    this.cachedAt = 0;
  }

  async header() {
    switch (this.choice.kind) {
      case 'token':
        return `Bearer ${this.choice.token}`;
      case 'munge':
        return `Munge ${await mungeCredential(this.choice.socket)}`;
      case 'local':
        if (this.cached === null || this.now() - this.cachedAt > LOCAL_TOKEN_REUSE_MS) {
          const pending = localToken(this.choice.socket).then((token) => `Bearer ${token}`);
          this.cached = pending;
          this.cachedAt = this.now();
          pending.catch(() => {
            if (this.cached === pending) {
              this.cached = null; // the next call asks again
            }
          });
        }
        return this.cached;
      default:
        return null;
    }
  }
}

module.exports = { chooseCredential, localToken, CallerCredential, SYSTEM_SOCKET };
