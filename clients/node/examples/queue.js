#!/usr/bin/env node
// Lists the queue as squeue does: pending and running jobs (and those just finished), one line each.
//   node examples/queue.js [user]
'use strict';
const { connect } = require('..'); // in your project: require('gantry-client')

const SHORT = { PENDING: 'PD', RUNNING: 'R', SUSPENDED: 'S', COMPLETED: 'CD', CANCELLED: 'CA', FAILED: 'F', TIMEOUT: 'TO',
  NODE_FAIL: 'NF', PREEMPTED: 'PR', OUT_OF_MEMORY: 'OOM' };

function time(seconds = 0) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

async function main() {
  const gantry = await connect();
  try {
    const filter = { view: 'summary', pageSize: 500 };
    if (process.argv[2]) {
      filter.users = [process.argv[2]];
    }
    console.log(['JOBID', 'PARTITION', 'NAME', 'USER', 'ST', 'TIME', 'NODES', 'NODELIST(REASON)'].join('\t'));
    for await (const job of gantry.listJobs(filter)) {
      const state = job.state.replace('JOB_STATE_', '');
      const where = state === 'PENDING' ? `(${job.reason})` : job.nodeList;
      console.log([job.jobId, job.partition, job.name, job.spec.user, job.completing ? 'CG' : SHORT[state] ?? state,
        time(job.timeUsedSeconds), job.numNodes, where].join('\t'));
    }
  } finally {
    gantry.close();
  }
}

main().catch((e) => {
  console.error(`queue: ${e.message}`);
  process.exitCode = 1;
});
