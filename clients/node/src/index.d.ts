// Types of gantry-client's public API. Messages mirror proto/src/main/proto/gantry/v1/types.proto and controller.proto
// with camelCase field names; 64-bit integers are numbers, enums their names, timestamps Dates (null when unset), and
// an unset `optional` field is undefined.

export type JobState =
  | 'JOB_STATE_UNSPECIFIED' | 'JOB_STATE_PENDING' | 'JOB_STATE_RUNNING' | 'JOB_STATE_SUSPENDED'
  | 'JOB_STATE_COMPLETED' | 'JOB_STATE_CANCELLED' | 'JOB_STATE_FAILED' | 'JOB_STATE_TIMEOUT'
  | 'JOB_STATE_NODE_FAIL' | 'JOB_STATE_PREEMPTED' | 'JOB_STATE_OUT_OF_MEMORY';

/** A state as a filter: the enum's name, or its short form in any case ('PENDING', 'running'). */
export type JobStateName = JobState | string;

export type JobHold = 'JOB_HOLD_UNSPECIFIED' | 'JOB_HOLD_USER' | 'JOB_HOLD_ADMIN';

/** How much of a job an answer carries: squeue's fields, scontrol's, or those plus the script and environment. */
export type JobView = 'summary' | 'full' | 'private' | 'JOB_VIEW_SUMMARY' | 'JOB_VIEW_FULL' | 'JOB_VIEW_PRIVATE';

export interface Gres {
  name: string;
  type: string;
  count: number;
  indices: number[];
}

export interface NodeAllocation {
  node: string;
  cpus: number;
  memoryMb: number;
  coreIds: number[];
  gres: Gres[];
}

/** What a job asks for (sbatch's options; see types.proto's JobSpec for each field's option and default). */
export interface JobSpec {
  name: string;
  script: string;
  argv: string[];
  workDir: string;
  stdoutPath: string;
  stderrPath: string;
  partitions: string[];
  minNodes?: number;
  maxNodes?: number;
  ntasks?: number;
  cpusPerTask?: number;
  memPerNodeMb?: number;
  timeLimitSeconds?: number;
  environment: Record<string, string>;
  user: string;
  uid: number;
  gid: number;
  submitDir: string;
  submitHost: string;
  ntasksPerNode?: number;
  memPerCpuMb?: number;
  gres: string[];
  exclusive: boolean;
  constraint: string;
  nodelist: string;
  exclude: string;
  contiguous: boolean;
  oversubscribe: boolean;
  account: string;
  qos: string;
  nice?: number;
  hold: boolean;
  beginTime: Date | null;
  dependency: string;
  array: string;
  requeue?: boolean;
  exclusiveUser: boolean;
}

/** submit()'s options: any JobSpec field but the script; partitions may also be one name or "a,b". */
export type SubmitOptions = Partial<Omit<JobSpec, 'script' | 'partitions' | 'beginTime'>> & {
  partitions?: string | string[];
  /** -b/--begin: not eligible before it. */
  beginTime?: Date;
};

/** A job as the controller knows it (squeue, scontrol show job). */
export interface Job {
  jobId: number;
  spec: JobSpec | null;
  state: JobState;
  /** Processes still being killed or reported (squeue CG): not finished yet. */
  completing: boolean;
  reason: string;
  partition: string;
  nodes: string[];
  nodeList: string;
  numNodes: number;
  numCpus: number;
  numTasks: number;
  timeLimitSeconds: number;
  submitTime: Date | null;
  eligibleTime: Date | null;
  startTime: Date | null;
  endTime: Date | null;
  exitCode: number;
  exitSignal: number;
  priority: number;
  memPerNodeMb: number;
  batchHost: string;
  cpusPerTask: number;
  maxNodes: number;
  allocation: NodeAllocation[];
  lastStateChange: Date | null;
  minNodes: number;
  partitions: string[];
  name: string;
  ntasksPerNode: number;
  memPerCpuMb: number;
  gres: Gres[];
  exclusive: boolean;
  constraint: string;
  reqNodes: string[];
  excNodes: string[];
  contiguous: boolean;
  oversubscribe: boolean;
  account: string;
  qos: string;
  nice: number;
  dependency: string;
  requeue: boolean;
  restartCount: number;
  hold: JobHold;
  arrayJobId: number;
  arrayTaskId?: number;
  arrayTaskSpec: string;
  schedNodes: string[];
  schedNodeList: string;
  suspendSeconds: number;
  runSeconds: number;
  adminPriority: boolean;
  arrayMaxRunning: number;
  beginTime: Date | null;
  preemptTime: Date | null;
  preemptEligibleTime: Date | null;
  adminSuspended: boolean;
  backfillPreemptable: boolean;
  timeUsedSeconds?: number;
  schedByBackfill: boolean;
  schedInLastBackfill: boolean;
  lastSchedEval: Date | null;
}

/** ListJobs' filters: a job must match every one given. */
export interface JobFilter {
  jobIds?: number[];
  users?: string | string[];
  partitions?: string | string[];
  /** Empty: jobs not yet finished, plus finished ones within MinJobAge. */
  states?: JobStateName | JobStateName[];
  arrayJobIds?: number[];
  view?: Exclude<JobView, 'private' | 'JOB_VIEW_PRIVATE'>;
}

export interface PageOptions {
  /** At most this many jobs a page: 0 is 1000, above 10000 counts as 10000. */
  pageSize?: number;
  /** A page's nextPageToken: continue from there (with the same filter). */
  pageToken?: string;
}

export interface JobPage {
  jobs: Job[];
  /** Empty on the last page. */
  nextPageToken: string;
}

/** The outcome of cancel() for one job. */
export interface CancelResult {
  jobId: number;
  ok: boolean;
  /** Slurm's text when not ok, e.g. "Job/step already completing or completed". */
  error: string;
  /** A gRPC status code when not ok: 7 PERMISSION_DENIED, 5 NOT_FOUND, 9 FAILED_PRECONDITION; 0 when ok. */
  code: number;
}

export interface Token {
  token: string;
  username: string;
  expiresAt: Date;
}

export interface ConnectOptions {
  /** "host:port" (several: an active controller and its standby); default: GANTRY_CONTROLLER, else controller.addr. */
  controller?: string | string[];
  /** A JSON web token to send (default: SLURM_JWT or GANTRY_JWT, else the node's local authenticator). */
  token?: string;
  /** The local authenticator's socket (default: GANTRY_AUTH_SOCKET, else auth.sock beside controller.addr). */
  authSocket?: string;
  /** A CA certificate file (PEM) for a controller serving TLS (default: GANTRY_CONTROLLER_CA, else controller-ca.crt). */
  ca?: string;
  /** The environment to discover from and to submit (default: process.env). */
  env?: Record<string, string | undefined>;
  /** The directory to discover from and to submit in (default: process.cwd()). */
  cwd?: string;
  /** How long one unary call may take, in milliseconds (default 30000). */
  callTimeoutMs?: number;
}

/** A call's refusal or failure: the gRPC status and the server's message, which names the field and the limit. */
export declare class GantryError extends Error {
  /** The gRPC status code, e.g. 3 (INVALID_ARGUMENT). */
  readonly code: number;
  /** Its name, e.g. 'INVALID_ARGUMENT'. */
  readonly codeName: string;
  /** The server's message, e.g. "partitions: invalid partition name specified: nope (known: debug)". */
  readonly details: string;
  /** The RPC, e.g. 'SubmitJob'. */
  readonly method: string;
}

export declare class GantryClient {
  /** The controller address calls go to now. */
  readonly address: string;
  /** Queues a batch job and resolves with its id. Defaults: this directory, this environment, this user. */
  submit(script: string | { wrap: string }, options?: SubmitOptions): Promise<number>;
  getJob(jobId: number, options?: { view?: JobView }): Promise<Job>;
  /** The matching jobs, ordered by id (StreamJobs: pages on one stream). */
  listJobs(filter?: JobFilter & { pageSize?: number }, options?: { signal?: AbortSignal }): AsyncGenerator<Job, void, undefined>;
  /** The matching jobs page by page (ListJobs), resumable from a page's nextPageToken. */
  listJobPages(filter?: JobFilter & PageOptions): AsyncGenerator<JobPage, void, undefined>;
  /** The matching jobs now, then each change of one of them, until the loop is left or the signal aborts. */
  watchJobs(filter?: JobFilter, options?: { signal?: AbortSignal }): AsyncGenerator<Job, void, undefined>;
  /** Resolves with the job, in the full view, once isFinished(job). */
  waitJob(jobId: number, options?: { signal?: AbortSignal }): Promise<Job>;
  /** Cancels (signal 0) or signals (1..64) jobs: one result per id, in order. */
  cancel(jobIds: number | number[], options?: { signal?: number }): Promise<CancelResult[]>;
  /** scontrol token: lifespan in seconds (0: 1800); another user's for administrators only. */
  createToken(options?: { lifespanSeconds?: number; username?: string }): Promise<Token>;
  /** Any unary method of gantry.v1.Controller by its proto name (e.g. 'HoldJob'), with the loader's plain objects. */
  call(method: string, request: object, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<any>;
  close(): void;
}

/** A client of the controller, found and authenticated as Gantry's commands are. */
export declare function connect(options?: ConnectOptions): Promise<GantryClient>;

/** Not PENDING, RUNNING or SUSPENDED, and not completing. */
export declare function isFinished(job: Pick<Job, 'state' | 'completing'>): boolean;

/** The script sbatch --wrap submits for a command. */
export declare function wrapScript(command: string): string;

/** Every job state but UNSPECIFIED: a filter that matches finished jobs too. */
export declare const ALL_STATES: JobState[];
