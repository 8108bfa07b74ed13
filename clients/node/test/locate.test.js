'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseAddress, locateController, controllerCa, NOT_CONFIGURED } = require('../src/locate');

/** A file system holding `files` (path -> text) and nothing else. */
function fakeFs(files) {
  return {
    statSync(p) {
      if (!(p in files)) {
        throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      }
      return { isFile: () => true };
    },
    readFileSync(p) {
      return files[p];
    },
  };
}

test('parseAddress takes host:port and [ipv6]:port, and names what it refuses', () => {
  assert.equal(parseAddress(' 127.0.0.1:6817\n'), '127.0.0.1:6817');
  assert.equal(parseAddress('[::1]:6817'), '[::1]:6817');
  for (const bad of ['localhost', ':6817', 'host:', '::1:6817', 'host:0', 'host:70000', 'host:x']) {
    assert.throws(() => parseAddress(bad), new RegExp(`got "${bad.replace(/[[\]]/g, '\\$&')}"`), bad);
  }
});

test('GANTRY_CONTROLLER wins, commas listing a controller and its standby', () => {
  const found = locateController({ GANTRY_CONTROLLER: 'a:1,b:2', GANTRY_RUN_DIR: '/run' }, '/', fakeFs({ '/run/controller.addr': 'c:3\n' }));
  assert.deepEqual(found, { addresses: ['a:1', 'b:2'], clusterDir: null });
});

test('GANTRY_RUN_DIR/controller.addr: one address a line, relative to the working directory', () => {
  const fs = fakeFs({ '/home/u/run/controller.addr': '127.0.0.1:7001\n127.0.0.1:7002\n' });
  assert.deepEqual(locateController({ GANTRY_RUN_DIR: 'run' }, '/home/u', fs),
    { addresses: ['127.0.0.1:7001', '127.0.0.1:7002'], clusterDir: '/home/u/run' });
});

test('.gantry/controller.addr in the working directory or a parent, then the state home', () => {
  assert.equal(locateController({}, '/p/q/r', fakeFs({ '/p/.gantry/controller.addr': 'h:1' })).clusterDir, '/p/.gantry');
  assert.equal(locateController({ HOME: '/home/u' }, '/x', fakeFs({ '/home/u/.local/state/gantry/controller.addr': 'h:1' })).clusterDir,
    '/home/u/.local/state/gantry');
  assert.equal(locateController({ HOME: '/home/u', XDG_STATE_HOME: '/s' }, '/x', fakeFs({ '/s/gantry/controller.addr': 'h:1' })).clusterDir,
    '/s/gantry');
});

test('no controller configured, or a malformed address, is an error saying what to do', () => {
  assert.throws(() => locateController({}, '/x', fakeFs({})), { message: NOT_CONFIGURED });
  assert.throws(() => locateController({ GANTRY_CONTROLLER: 'nope' }, '/x', fakeFs({})),
    /invalid controller address in GANTRY_CONTROLLER: expected host:port, got "nope"/);
  assert.throws(() => locateController({ GANTRY_RUN_DIR: '/r' }, '/x', fakeFs({ '/r/controller.addr': '\n' })),
    /invalid controller address in \/r\/controller.addr: no address/);
});

test('TLS: GANTRY_CONTROLLER_CA, else controller-ca.crt beside controller.addr, else plaintext', () => {
  const fs = fakeFs({ '/r/controller-ca.crt': 'PEM' });
  assert.equal(controllerCa({ GANTRY_CONTROLLER_CA: '/etc/ca.pem' }, '/r', fs), '/etc/ca.pem');
  assert.equal(controllerCa({}, '/r', fs), '/r/controller-ca.crt');
  assert.equal(controllerCa({}, '/other', fs), null);
  assert.equal(controllerCa({}, null, fs), null);
});
