'use strict';
// GantryClient: gantry.v1.Controller (proto/src/main/proto/gantry/v1/controller.proto) for Node programs. Every call
// carries the caller's credential; a unary call the controller's rate limit refuses is sent again a second later, as
// Slurm's commands do; with several controller addresses (an active controller and its standby) calls follow the
// active one, and a unary call answered UNAVAILABLE is sent to the next address at once (cli ControllerChannels).
const os = require('node:os');
const nodeFs = require('node:fs');
const grpc = require('@grpc/grpc-js');
const { locateController, controllerCa, parseAddress } = require('./locate');
const { chooseCredential, CallerCredential } = require('./credential');
const { jobSpec, jobView, jobState } = require('./spec');
const { api, fromWire, GantryError, toGantryError, isFinished } = require('./wire');

/** How long one call may take by default (the commands' CALL_TIMEOUT). */
const CALL_TIMEOUT_MS = 30_000;
/** The largest answer taken: twice the largest max_script_size (cli ControllerChannels.MAX_ANSWER_BYTES). */
const MAX_ANSWER_BYTES = 2 * (128 << 20);
/** How long connect() waits to learn which of several controllers is active. */
const PROBE_WITHIN_MS = 1500;
const ALL_STATES = ['PENDING', 'RUNNING', 'SUSPENDED', 'COMPLETED', 'CANCELLED', 'FAILED', 'TIMEOUT', 'NODE_FAIL',
  'PREEMPTED', 'OUT_OF_MEMORY'].map((s) => `JOB_STATE_${s}`);

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => {
    clearTimeout(timer);
    reject(signal.reason);
  }, { once: true });
});

function ids(jobIds, field) {
  const list = Array.isArray(jobIds) ? jobIds : [jobIds];
  for (const id of list) {
    if (!Number.isSafeInteger(Number(id)) || Number(id) <= 0) {
      throw new TypeError(`${field}: expected positive job ids, got ${JSON.stringify(id)}`);
    }
  }
  return list.map(Number);
}

/** ListJobs' filter from listJobs()' options. */
function listRequest(filter = {}) {
  const known = ['jobIds', 'users', 'partitions', 'states', 'arrayJobIds', 'pageSize', 'pageToken', 'view'];
  for (const key of Object.keys(filter)) {
    if (!known.includes(key)) {
      throw new TypeError(`${key}: not a filter of listJobs (${known.join(', ')})`);
    }
  }
  const request = { ...filter, view: jobView(filter.view) };
  if (filter.jobIds !== undefined) {
    request.jobIds = ids(filter.jobIds, 'jobIds');
  }
  if (filter.states !== undefined) {
    request.states = (Array.isArray(filter.states) ? filter.states : [filter.states]).map(jobState);
  }
  for (const key of ['users', 'partitions']) {
    if (typeof filter[key] === 'string') {
      request[key] = [filter[key]];
    }
  }
  return request;
}

class GantryClient {
  /** Use connect(). */
  constructor({ addresses, channelCredentials, credential, owner, callTimeoutMs, env, cwd }) {
    this.addresses = addresses;
    this.channelCredentials = channelCredentials;
    this.credential = credential;
    this.owner = owner;
    this.callTimeoutMs = callTimeoutMs;
    this.env = env;
    this.cwd = cwd;
    this.stubs = new Map();
    this.current = 0;
  }

  /** The controller address calls go to now. */
  get address() {
    return this.addresses[this.current];
  }

  stub(index = this.current) {
    const address = this.addresses[index];
    if (!this.stubs.has(address)) {
      this.stubs.set(address, new (api().Controller)(address, this.channelCredentials, {
        'grpc.max_receive_message_length': MAX_ANSWER_BYTES,
      }));
    }
    return this.stubs.get(address);
  }

  /** The call's metadata with the caller's credential; none to be had is UNAUTHENTICATED naming why. */
  async metadata(method) {
    const metadata = new grpc.Metadata();
    let header;
    try {
      header = await this.credential.header();
    } catch (e) {
      throw new GantryError(grpc.status.UNAUTHENTICATED, e.message, method);
    }
    if (header !== null) {
      metadata.set('authorization', header);
    }
    return metadata;
  }

  /** Calls a unary method (its proto name, e.g. 'GetJob'); rejects with a GantryError. */
  async call(method, request, { timeoutMs = this.callTimeoutMs, signal } = {}) {
    const deadline = Date.now() + timeoutMs;
    let failovers = this.addresses.length - 1;
    for (;;) {
      const index = this.current;
      const metadata = await this.metadata(method);
      let cancel;
      try {
        return await new Promise((resolve, reject) => {
          const call = this.stub(index)[method](request, metadata, { deadline }, (error, answer) => (error ? reject(error) : resolve(answer)));
          cancel = () => call.cancel();
          signal?.addEventListener('abort', cancel, { once: true });
        });
      } catch (error) {
        if (signal?.aborted) {
          throw signal.reason;
        }
        if (error.code === grpc.status.RESOURCE_EXHAUSTED && String(error.details).startsWith('rate limit:') && Date.now() + 1000 < deadline) {
          await sleep(1000, signal);
          continue;
        }
        if (error.code === grpc.status.UNAVAILABLE && failovers > 0) {
          failovers -= 1;
          this.follow(index, error.metadata);
          continue;
        }
        throw toGantryError(error, method);
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
    }
  }

  /** After `index` answered UNAVAILABLE: the address a standby's redirect names, else the next one. */
  follow(index, trailers) {
    const named = trailers?.get('gantry-active-controller')?.[0];
    const at = named ? this.addresses.indexOf(String(named)) : -1;
    this.current = at >= 0 ? at : (index + 1) % this.addresses.length;
  }

  /** A server stream as an async iterator of its plain answers; leaving the loop cancels the call. */
  async *stream(method, request, signal) {
    const call = this.stub()[method](request, await this.metadata(method));
    const cancel = () => call.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    call.on('error', () => {}); // seen by the iterator below; after a cancel by us, nothing to report
    try {
      for await (const answer of call) {
        yield fromWire(answer);
      }
    } catch (error) {
      if (signal?.aborted) {
        throw signal.reason;
      }
      throw toGantryError(error, method);
    } finally {
      signal?.removeEventListener('abort', cancel);
      call.cancel();
    }
  }

  /**
   * Queues a batch job (sbatch) and returns its id, once the job is durable in the controller's database.
   * @param script the script's text, starting with #!, or {wrap: 'command'}
   * @param options JobSpec fields in camelCase (partitions, timeLimitSeconds, minNodes, stdoutPath, hold, ...)
   */
  async submit(script, options = {}) {
    const spec = jobSpec(script, options, {
      cwd: this.cwd, env: this.env, host: os.hostname(), owner: this.owner, fields: api().specFields,
    });
    const answer = await this.call('SubmitJob', { spec });
    return answer.jobId;
  }

  /** One job, finished or not (scontrol show job); view 'summary' | 'full' (default) | 'private'. */
  async getJob(jobId, { view } = {}) {
    const [id] = ids(jobId, 'jobId');
    return fromWire((await this.call('GetJob', { jobId: id, view: jobView(view) })).job);
  }

  /**
   * The matching jobs' pages, one ListJobs call each (resumable: a page's nextPageToken, given back as pageToken with
   * the same filter, continues from it); the last page has an empty nextPageToken.
   */
  async *listJobPages(filter = {}) {
    const request = listRequest(filter);
    for (;;) {
      const page = fromWire(await this.call('ListJobs', request));
      yield page;
      if (!page.nextPageToken) {
        return;
      }
      request.pageToken = page.nextPageToken;
    }
  }

  /** The matching jobs (squeue), ordered by id, read as StreamJobs' pages on one stream. */
  async *listJobs(filter = {}, { signal } = {}) {
    for await (const page of this.stream('StreamJobs', listRequest(filter), signal)) {
      yield* page.jobs;
    }
  }

  /** The matching jobs now, then each change of one of them, until the loop is left or `signal` aborts. */
  async *watchJobs(filter = {}, { signal } = {}) {
    if (filter.pageSize !== undefined || filter.pageToken !== undefined) {
      throw new TypeError('pageSize, pageToken: not filters of watchJobs');
    }
    for await (const answer of this.stream('WatchJobs', { filter: listRequest(filter) }, signal)) {
      yield answer.job;
    }
  }

  /**
   * Waits until the job is finished (isFinished: ended and no longer completing) and returns it in the full view.
   * Follows it with WatchJobs; a watch the controller ends (a restart, a client too far behind) is looked at and
   * opened again. Rejects NOT_FOUND for an unknown id, or with `signal`'s reason (AbortSignal.timeout(ms) for a limit).
   */
  async waitJob(jobId, { signal } = {}) {
    const [id] = ids(jobId, 'jobId');
    for (;;) {
      const job = await this.getJob(id, { view: 'summary' });
      if (isFinished(job)) {
        return this.getJob(id);
      }
      try {
        for await (const seen of this.watchJobs({ jobIds: [id], states: ALL_STATES, view: 'summary' }, { signal })) {
          if (isFinished(seen)) {
            return this.getJob(id);
          }
        }
      } catch (error) {
        if (signal?.aborted || ![grpc.status.UNAVAILABLE, grpc.status.RESOURCE_EXHAUSTED, grpc.status.CANCELLED].includes(error.code)) {
          throw error;
        }
      }
      await sleep(1000, signal);
    }
  }

  /**
   * Cancels jobs (scancel), or with {signal: 1..64} sends that signal to their processes instead. Resolves with one
   * result per id, in order: {jobId, ok, error, code} (code a gRPC status code: 7 PERMISSION_DENIED, 5 NOT_FOUND,
   * 9 FAILED_PRECONDITION; 0 when ok); a refused id does not stop the others.
   */
  async cancel(jobIds, { signal = 0 } = {}) {
    const answer = await this.call('CancelJob', { jobIds: ids(jobIds, 'jobIds'), signal });
    return answer.results;
  }

  /** A JSON web token for the caller (scontrol token), lifespan in seconds (0: 1800); for another user: administrators. */
  async createToken({ lifespanSeconds = 0, username = '' } = {}) {
    const answer = await this.call('CreateToken', { lifespanSeconds, username });
    return { token: answer.token, username: answer.username, expiresAt: new Date(answer.expiresAtSeconds * 1000) };
  }

  /** Closes the connections; calls made after fail. */
  close() {
    for (const stub of this.stubs.values()) {
      stub.close();
    }
    this.stubs.clear();
  }
}

/** The user the process runs as, or null where the platform has no uids. */
function processOwner() {
  if (typeof process.getuid !== 'function') {
    return null;
  }
  return { user: os.userInfo().username, uid: process.getuid(), gid: process.getgid() };
}

/**
 * A client of the controller, found and authenticated as the commands are (see locate.js and credential.js).
 * @param options {controller: 'host:port' | string[], token, ca, authSocket, env, cwd, callTimeoutMs}
 */
async function connect(options = {}) {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const located = options.controller
    ? { addresses: (Array.isArray(options.controller) ? options.controller : [options.controller]).map(parseAddress), clusterDir: null }
    : locateController(env, cwd);
  const ca = options.ca ?? controllerCa(env, located.clusterDir);
  const choice = chooseCredential(env, located.clusterDir, options);
  const client = new GantryClient({
    addresses: located.addresses,
    channelCredentials: ca ? grpc.credentials.createSsl(nodeFs.readFileSync(ca)) : grpc.credentials.createInsecure(),
    credential: new CallerCredential(choice),
    // a token may be another user's (a service acting for its users): then the controller alone says whose the job is
    owner: choice.kind === 'token' ? null : processOwner(),
    callTimeoutMs: options.callTimeoutMs ?? CALL_TIMEOUT_MS,
    env,
    cwd,
  });
  if (located.addresses.length > 1) {
    await preferActive(client);
  }
  return client;
}

/**
 * Asks every controller a cheap question at once and sends the calls to the first that answers: the active one (a
 * standby answers UNAVAILABLE, a frozen one not at all). None within PROBE_WITHIN_MS: the first address.
 */
async function preferActive(client) {
  const metadata = await client.metadata('ListPartitions').catch(() => new grpc.Metadata());
  const deadline = Date.now() + PROBE_WITHIN_MS;
  const probes = client.addresses.map((_, index) => new Promise((resolve, reject) => {
    client.stub(index).ListPartitions({}, metadata, { deadline }, (error) => (error ? reject(error) : resolve(index)));
  }));
  client.current = await Promise.any(probes).catch(() => 0);
}

module.exports = { connect, GantryClient, isFinished, ALL_STATES };
