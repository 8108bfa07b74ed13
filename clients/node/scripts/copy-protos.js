'use strict';
// npm pack's prepack step: copies the client API's .proto files from the repository into the package's proto/, so a
// packed tarball carries them; with --remove (postpack) deletes that copy again, so a checkout never reads a stale one
// (an install from the repository reads them in place; proto/ is not in git).
const fs = require('node:fs');
const path = require('node:path');

const from = path.resolve(__dirname, '../../../proto/src/main/proto/gantry/v1');
const copy = path.resolve(__dirname, '../proto');
if (process.argv.includes('--remove')) {
  fs.rmSync(copy, { recursive: true, force: true });
} else {
  fs.mkdirSync(path.join(copy, 'gantry/v1'), { recursive: true });
  for (const file of ['controller.proto', 'types.proto']) {
    fs.copyFileSync(path.join(from, file), path.join(copy, 'gantry/v1', file));
  }
  console.log(`copied controller.proto and types.proto to ${copy}`);
}
