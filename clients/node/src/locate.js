'use strict';
// Where the controller is, found as Gantry's commands find it (cli ControllerLocator, ControllerChannels), first match
// wins:
//   1. GANTRY_CONTROLLER: "host:port", or several separated by commas (an active controller and its standby);
//   2. $GANTRY_RUN_DIR/controller.addr (GANTRY_RUN_DIR relative to the working directory);
//   3. .gantry/controller.addr in the working directory or any parent;
//   4. ${XDG_STATE_HOME:-$HOME/.local/state}/gantry/controller.addr.
// An address file lists one address a line (the local-cluster launcher writes the active controller's and its
// standby's). Pure apart from the file system, which comes in (tests pass a fake).
const nodePath = require('node:path');
const nodeFs = require('node:fs');

const ADDRESS_FILE = 'controller.addr';
const CA_FILE = 'controller-ca.crt';
const NOT_CONFIGURED = 'cannot find the Gantry controller: set GANTRY_CONTROLLER=host:port or start a local cluster with bin/gantry up';

/**
 * Parses "host:port" or "[ipv6]:port" into the form gRPC dials ("host:port", IPv6 in brackets).
 * @throws {Error} naming the text when it is not of that form
 */
function parseAddress(text) {
  const s = text.trim();
  const colon = s.lastIndexOf(':');
  if (colon <= 0 || colon === s.length - 1) {
    throw new Error(`expected host:port, got "${s}"`);
  }
  const host = s.slice(0, colon);
  const portText = s.slice(colon + 1);
  if (!(host.startsWith('[') && host.endsWith(']')) && host.includes(':')) {
    throw new Error(`expected host:port (IPv6 in brackets), got "${s}"`);
  }
  if (!/^\d+$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
    throw new Error(`expected host:port with a port 1..65535, got "${s}"`);
  }
  return `${host}:${Number(portText)}`;
}

function parseAll(text, source) {
  try {
    const all = text.split(/[,\n]/).filter((part) => part.trim() !== '').map(parseAddress);
    if (all.length === 0) {
      throw new Error('no address');
    }
    return all;
  } catch (e) {
    throw new Error(`invalid controller address in ${source}: ${e.message}`);
  }
}

function isFile(fs, p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The address file that applies (GANTRY_CONTROLLER aside), or null. */
function addressFile(env, cwd, fs = nodeFs) {
  if (env.GANTRY_RUN_DIR && env.GANTRY_RUN_DIR.trim() !== '') {
    const p = nodePath.resolve(cwd, env.GANTRY_RUN_DIR, ADDRESS_FILE);
    if (isFile(fs, p)) {
      return p;
    }
  }
  for (let dir = nodePath.resolve(cwd); ; dir = nodePath.dirname(dir)) {
    const p = nodePath.join(dir, '.gantry', ADDRESS_FILE);
    if (isFile(fs, p)) {
      return p;
    }
    if (nodePath.dirname(dir) === dir) {
      break;
    }
  }
  const stateHome = env.XDG_STATE_HOME && env.XDG_STATE_HOME.trim() !== '' ? env.XDG_STATE_HOME
    : env.HOME && env.HOME.trim() !== '' ? nodePath.join(env.HOME, '.local', 'state') : null;
  if (stateHome) {
    const p = nodePath.join(stateHome, 'gantry', ADDRESS_FILE);
    if (isFile(fs, p)) {
      return p;
    }
  }
  return null;
}

/**
 * Every configured controller address, in order, with the local cluster's directory when an address file named them
 * (its auth.sock and controller-ca.crt are found beside it).
 * @returns {{addresses: string[], clusterDir: string|null}}
 * @throws {Error} when none is configured, or one configured is malformed
 */
function locateController(env, cwd, fs = nodeFs) {
  if (env.GANTRY_CONTROLLER && env.GANTRY_CONTROLLER.trim() !== '') {
    return { addresses: parseAll(env.GANTRY_CONTROLLER, 'GANTRY_CONTROLLER'), clusterDir: null };
  }
  const file = addressFile(env, cwd, fs);
  if (file === null) {
    throw new Error(NOT_CONFIGURED);
  }
  return { addresses: parseAll(fs.readFileSync(file, 'utf8'), file), clusterDir: nodePath.dirname(file) };
}

/**
 * The CA (PEM file) that vouches for the controller's public port when it serves TLS: GANTRY_CONTROLLER_CA, else
 * controller-ca.crt beside the local cluster's controller.addr (gantry up --public-tls); null: plaintext.
 */
function controllerCa(env, clusterDir, fs = nodeFs) {
  if (env.GANTRY_CONTROLLER_CA && env.GANTRY_CONTROLLER_CA.trim() !== '') {
    return env.GANTRY_CONTROLLER_CA.trim();
  }
  if (clusterDir) {
    const p = nodePath.join(clusterDir, CA_FILE);
    if (isFile(fs, p)) {
      return p;
    }
  }
  return null;
}

module.exports = { parseAddress, locateController, addressFile, controllerCa, NOT_CONFIGURED };
