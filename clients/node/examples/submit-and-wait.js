#!/usr/bin/env node
// Submits a command as a batch job (sbatch --wrap), waits until it is finished and prints its state and output.
//   node examples/submit-and-wait.js ['command']      (default: hostname)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { connect } = require('..'); // in your project: require('gantry-client')

async function main() {
  const gantry = await connect();
  try {
    const id = await gantry.submit({ wrap: process.argv[2] ?? 'hostname' }, { timeLimitSeconds: 60 });
    console.log(`Submitted batch job ${id}`);
    const job = await gantry.waitJob(id, { signal: AbortSignal.timeout(10 * 60_000) });
    console.log(`job ${id} ${job.state.replace('JOB_STATE_', '')} exit ${job.exitCode}:${job.exitSignal} on ${job.nodeList}`);
    const out = path.join(job.spec.workDir, `slurm-${id}.out`); // the default stdoutPath, slurm-%j.out
    process.stdout.write(fs.readFileSync(out, 'utf8'));
    process.exitCode = job.state === 'JOB_STATE_COMPLETED' ? 0 : 1;
  } finally {
    gantry.close();
  }
}

main().catch((e) => {
  console.error(`submit-and-wait: ${e.message}`);
  process.exitCode = 1;
});
