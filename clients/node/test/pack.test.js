'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const packageDir = path.resolve(__dirname, '..');

test('npm pack makes a tarball that carries the .proto files and loads them, and leaves no copy in the checkout', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-pack-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const [{ filename, files }] = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', dir],
    { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).replace(/^[^[]*/, ''));
  const paths = files.map((f) => f.path);
  for (const needed of ['proto/gantry/v1/controller.proto', 'proto/gantry/v1/types.proto', 'src/index.js', 'src/index.d.ts']) {
    assert.ok(paths.includes(needed), `${needed} not in ${paths.join(', ')}`);
  }
  assert.ok(!paths.some((p) => p.startsWith('test/') || p.startsWith('e2e/') || p.startsWith('node_modules/')), paths.join(', '));
  assert.ok(!fs.existsSync(path.join(packageDir, 'proto')), 'postpack removes the copy');

  // unpacked away from the repository (its dependencies linked in), it reads its own copy
  execFileSync('tar', ['xzf', path.join(dir, filename), '-C', dir]);
  fs.symlinkSync(path.join(packageDir, 'node_modules'), path.join(dir, 'package', 'node_modules'));
  const wire = require(path.join(dir, 'package', 'src', 'wire.js'));
  assert.equal(wire.protoDir(), path.join(dir, 'package', 'proto'));
  assert.equal(typeof wire.api().Controller.service.SubmitJob.path, 'string');
});
