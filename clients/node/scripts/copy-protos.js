'use strict';
// npm pack's prepack step: copies the client API's .proto files from the repository into the package's proto/, so a
// packed tarball carries them (an install from the repository reads them in place; proto/ is not in git).
const fs = require('node:fs');
const path = require('node:path');

const from = path.resolve(__dirname, '../../../proto/src/main/proto/gantry/v1');
const to = path.resolve(__dirname, '../proto/gantry/v1');
fs.mkdirSync(to, { recursive: true });
for (const file of ['controller.proto', 'types.proto']) {
  fs.copyFileSync(path.join(from, file), path.join(to, file));
}
console.log(`copied controller.proto and types.proto to ${to}`);
