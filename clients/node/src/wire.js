'use strict';
// The client API's messages as JavaScript values: the .proto files loaded at run time (no generated code), and
// answers turned into plain objects with Dates for timestamps.
//
// The .proto files: the repository's proto/src/main/proto when the package sits in a checkout at clients/node (an
// install from the repository), else the package's own proto/ (the copy a packed tarball carries, made by `npm pack`
// through the prepack script): one source of truth, never a second copy in git.
const nodePath = require('node:path');
const nodeFs = require('node:fs');
const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');

const PACKAGE_DIR = nodePath.resolve(__dirname, '..');
const PROTO_FILES = ['gantry/v1/controller.proto', 'gantry/v1/types.proto'];

/** The directory holding gantry/v1/controller.proto for this installation. */
function protoDir(fs = nodeFs) {
  const candidates = [nodePath.resolve(PACKAGE_DIR, '../../proto/src/main/proto'), nodePath.join(PACKAGE_DIR, 'proto')];
  const found = candidates.find((dir) => fs.existsSync(nodePath.join(dir, PROTO_FILES[0])));
  if (!found) {
    throw new Error(`gantry-client: no gantry/v1/controller.proto in ${candidates.join(' or ')} (pack the package with npm pack, which copies them)`);
  }
  return found;
}

let loaded = null;

/**
 * The Controller service and the JobSpec's field names, loaded once. 64-bit integers are JavaScript numbers (job ids,
 * seconds, priorities stay far below 2^53), enums their names ('JOB_STATE_RUNNING'), unset fields their defaults.
 */
function api() {
  if (loaded === null) {
    const definition = loader.loadSync(PROTO_FILES[0], {
      includeDirs: [protoDir()], longs: Number, enums: String, defaults: true, oneofs: true,
    });
    const specType = definition['gantry.v1.JobSpec'].type;
    loaded = {
      Controller: grpc.loadPackageDefinition(definition).gantry.v1.Controller,
      specFields: new Set(specType.field.map((f) => f.jsonName || camel(f.name))),
    };
  }
  return loaded;
}

function camel(name) {
  return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

function isTimestamp(v) {
  const keys = Object.keys(v);
  return keys.length === 2 && typeof v.seconds === 'number' && typeof v.nanos === 'number';
}

/**
 * An answer as a plain value: google.protobuf.Timestamps become Dates (an unset one stays null), and the loader's
 * markers of which `optional` field is set ("_timeLimitSeconds") are dropped (an unset optional is undefined).
 */
function fromWire(value) {
  if (Array.isArray(value)) {
    return value.map(fromWire);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (isTimestamp(value)) {
    return new Date(value.seconds * 1000 + Math.floor(value.nanos / 1e6));
  }
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (!k.startsWith('_')) {
      out[k] = fromWire(v);
    }
  }
  return out;
}

/** A refusal or failure of a call: the gRPC status code and the server's message, which names the field and the limit. */
class GantryError extends Error {
  constructor(code, details, method, metadata) {
    const codeName = grpc.status[code] ?? String(code);
    super(`${codeName}: ${details}`);
    this.name = 'GantryError';
    /** The gRPC status code (grpc.status), e.g. 3 for INVALID_ARGUMENT. */
    this.code = code;
    /** Its name, e.g. 'INVALID_ARGUMENT'. */
    this.codeName = codeName;
    /** The server's message as it sent it, e.g. "partitions: invalid partition name specified: nope (known: debug)". */
    this.details = details;
    /** The RPC, e.g. 'SubmitJob'. */
    this.method = method;
    this.metadata = metadata;
  }
}

function toGantryError(error, method) {
  if (error instanceof GantryError || typeof error?.code !== 'number') {
    return error;
  }
  return new GantryError(error.code, error.details ?? error.message, method, error.metadata);
}

const UNFINISHED = new Set(['JOB_STATE_UNSPECIFIED', 'JOB_STATE_PENDING', 'JOB_STATE_RUNNING', 'JOB_STATE_SUSPENDED']);

/**
 * Whether a job is over: its state is not PENDING, RUNNING or SUSPENDED, and it is not completing (squeue's CG: its
 * processes are still being killed or reported, so its output file may not be whole yet).
 */
function isFinished(job) {
  return !UNFINISHED.has(job.state) && !job.completing;
}

module.exports = { api, protoDir, fromWire, GantryError, toGantryError, isFinished, PROTO_FILES, PACKAGE_DIR };
