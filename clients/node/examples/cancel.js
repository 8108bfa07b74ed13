#!/usr/bin/env node
// Cancels jobs (scancel), or sends them a signal instead, and prints the outcome for each.
//   node examples/cancel.js [--signal=N] JOBID...
'use strict';
const { connect } = require('..'); // in your project: require('gantry-client')

async function main() {
  const args = process.argv.slice(2);
  const signalArg = args.find((a) => a.startsWith('--signal='));
  const ids = args.filter((a) => a !== signalArg).map(Number);
  if (ids.length === 0) {
    throw new Error('usage: node examples/cancel.js [--signal=N] JOBID...');
  }
  const gantry = await connect();
  try {
    const results = await gantry.cancel(ids, { signal: signalArg ? Number(signalArg.slice(9)) : 0 });
    for (const r of results) {
      console.log(r.ok ? `job ${r.jobId}: ${signalArg ? 'signalled' : 'cancelled'}` : `job ${r.jobId}: ${r.error} (code ${r.code})`);
    }
    process.exitCode = results.every((r) => r.ok) ? 0 : 1;
  } finally {
    gantry.close();
  }
}

main().catch((e) => {
  console.error(`cancel: ${e.message}`);
  process.exitCode = 1;
});
