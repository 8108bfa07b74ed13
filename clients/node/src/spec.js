'use strict';
// Building a SubmitJob request's JobSpec from what a program gives submit(), with sbatch's defaults for what it
// omits (cli BatchJobSpecs): the working directory and the submit directory are the process's, the environment is the
// process's (sbatch --export=ALL), the submit host is this host, and user, uid and gid are the process's own when the
// call's credential is the process's too (the controller takes them from the credential anyway, and refuses others:
// scheduler-svc RunAs). Pure: the process's facts come in as `context`.
const nodePath = require('node:path');

/** What sbatch --wrap submits for a command (cli BatchScript.wrap). */
function wrapScript(command) {
  return `#!/bin/sh\n# This script was created by sbatch --wrap.\n\n${command}\n`;
}

const JOB_VIEWS = { summary: 'JOB_VIEW_SUMMARY', full: 'JOB_VIEW_FULL', private: 'JOB_VIEW_PRIVATE' };

/** 'summary' | 'full' | 'private', or the enum's own name; undefined stays unset (the server's default, FULL). */
function jobView(view) {
  if (view === undefined || view === null) {
    return undefined;
  }
  if (typeof view === 'string' && JOB_VIEWS[view.toLowerCase()]) {
    return JOB_VIEWS[view.toLowerCase()];
  }
  if (Object.values(JOB_VIEWS).includes(view)) {
    return view;
  }
  throw new TypeError(`view: expected 'summary', 'full' or 'private', got ${JSON.stringify(view)}`);
}

/** A state as 'PENDING', 'pending' or 'JOB_STATE_PENDING', into the enum's name. */
function jobState(state) {
  if (typeof state !== 'string' || state.trim() === '') {
    throw new TypeError(`states: expected a job state name such as 'PENDING', got ${JSON.stringify(state)}`);
  }
  const upper = state.trim().toUpperCase();
  return upper.startsWith('JOB_STATE_') ? upper : `JOB_STATE_${upper}`;
}

function toTimestamp(field, date) {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new TypeError(`${field}: expected a valid Date, got ${JSON.stringify(date)}`);
  }
  const ms = date.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (ms - Math.floor(ms / 1000) * 1000) * 1e6 };
}

/** Only the string values of an environment (process.env may hold none other, but a caller's object might). */
function stringEnvironment(env) {
  const out = {};
  for (const [k, v] of Object.entries(env)) {
    if (typeof v === 'string') {
      out[k] = v;
    }
  }
  return out;
}

/**
 * The JobSpec for submit(script, options).
 *
 * @param script the batch script's text (starting with #!), or {wrap: 'command'} (sbatch --wrap)
 * @param options JobSpec fields in camelCase (partitions may be one string, "a,b" or an array; beginTime a Date)
 * @param context {cwd, env, host, owner: {user, uid, gid} | null, fields: Set of JobSpec field names in camelCase}
 * @throws {TypeError} naming the option when it is of the wrong kind or not a JobSpec field
 */
function jobSpec(script, options, context) {
  const opts = { ...(options ?? {}) };
  let text;
  if (typeof script === 'string') {
    text = script;
  } else if (script && typeof script === 'object' && typeof script.wrap === 'string') {
    text = wrapScript(script.wrap);
    if (opts.name === undefined) {
      opts.name = 'wrap';
    }
  } else {
    throw new TypeError("script: expected the script's text (starting with #!) or {wrap: 'command'}");
  }
  for (const key of Object.keys(opts)) {
    if (!context.fields.has(key) || key === 'script') {
      throw new TypeError(`${key}: not an option of submit (JobSpec fields in camelCase: ${[...context.fields].filter((f) => f !== 'script').join(', ')})`);
    }
  }
  const spec = { ...opts, script: text };
  if (typeof spec.partitions === 'string') {
    spec.partitions = spec.partitions.split(',');
  }
  if (spec.beginTime !== undefined) {
    spec.beginTime = toTimestamp('beginTime', spec.beginTime);
  }
  // sbatch -D: relative to the submit directory
  spec.workDir = spec.workDir === undefined ? context.cwd : nodePath.resolve(context.cwd, spec.workDir);
  spec.submitDir ??= context.cwd;
  spec.submitHost ??= context.host;
  if (spec.environment === undefined) {
    spec.environment = stringEnvironment(context.env);
  } else {
    spec.environment = stringEnvironment(spec.environment);
    // a job with no PATH finds no command its script names: the client's, unless the caller gave one
    if (spec.environment.PATH === undefined && typeof context.env.PATH === 'string') {
      spec.environment.PATH = context.env.PATH;
    }
  }
  if (context.owner && spec.user === undefined && spec.uid === undefined) {
    spec.user = context.owner.user;
    spec.uid = context.owner.uid;
    spec.gid ??= context.owner.gid;
  }
  return spec;
}

module.exports = { jobSpec, wrapScript, jobView, jobState, toTimestamp };
