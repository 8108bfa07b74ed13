// A gRPC client of Gantry's client API in another language (Node, @grpc/grpc-js with no code generation), used by
// the security tests as a user's own program would be: it authenticates with a token and calls one method.
//
//   node gantry-call.js PROTO_DIR HOST:PORT METHOD 'JSON REQUEST'
//   node gantry-call.js PROTO_DIR HOST:PORT WatchFlood '{"count":N,"holdSeconds":S,"report":FILE}'
//
// WatchFlood is an attack: it opens N idle WatchJobs streams at once, waits until each has answered (its first update)
// or ended, writes {"opened":…,"refused":{"CODE description":count}} to FILE, holds the open ones S seconds more
// (reading nothing) and exits.
//
// The credential: GANTRY_AUTHORIZATION sent as it is (e.g. "Munge <credential>"), else SLURM_JWT (a token from
// `scontrol token`), else a local token read from the node's local authenticator (GANTRY_AUTH_SOCKET: connect, read
// one line). Prints the answer as JSON and exits 0, or prints
// "ERROR <code name> <description>" and exits 1.
'use strict';
const net = require('net');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');

const [protoDir, address, method, json] = process.argv.slice(2);

function localToken(socket) {
  return new Promise((resolve, reject) => {
    let data = '';
    const c = net.connect({ path: socket });
    c.on('data', (d) => { data += d.toString('ascii'); });
    c.on('end', () => (data.startsWith('ERROR ') ? reject(new Error(data.trim())) : resolve(data.trim())));
    c.on('error', reject);
  });
}

async function main() {
  const token = process.env.SLURM_JWT || (process.env.GANTRY_AUTH_SOCKET ? await localToken(process.env.GANTRY_AUTH_SOCKET) : '');
  const definition = loader.loadSync(path.join(protoDir, 'gantry/v1/controller.proto'),
    { includeDirs: [protoDir], keepCase: false, longs: String, enums: String, defaults: false, oneofs: true });
  const api = grpc.loadPackageDefinition(definition).gantry.v1;
  const client = new api.Controller(address, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  if (process.env.GANTRY_AUTHORIZATION) {
    metadata.add('authorization', process.env.GANTRY_AUTHORIZATION);
  } else if (token) {
    metadata.add('authorization', 'Bearer ' + token);
  }
  if (method === 'WatchFlood') {
    return flood(client, metadata, JSON.parse(json));
  }
  const name = method.charAt(0).toLowerCase() + method.slice(1);
  client[name](JSON.parse(json || '{}'), metadata, (err, answer) => {
    if (err) {
      console.log('ERROR ' + grpc.status[err.code] + ' ' + err.details);
      process.exit(1);
    }
    console.log(JSON.stringify(answer));
    process.exit(0);
  });
}

function flood(client, metadata, { count, holdSeconds, report }) {
  const fs = require('fs');
  let opened = 0;
  let settled = 0;
  const refused = {};
  const streams = [];
  const settle = () => {
    settled += 1;
    if (settled === count) {
      fs.writeFileSync(report, JSON.stringify({ opened, refused }));
      setTimeout(() => process.exit(0), holdSeconds * 1000);
    }
  };
  for (let i = 0; i < count; i += 1) {
    const call = client.watchJobs({}, metadata);
    let first = true;
    call.on('data', () => {
      if (first) {
        first = false;
        opened += 1;
        call.pause(); // idle from now on: reads nothing more
        settle();
      }
    });
    call.on('error', (err) => {
      if (first) {
        first = false;
        const key = grpc.status[err.code] + ' ' + err.details;
        refused[key] = (refused[key] || 0) + 1;
        settle();
      }
    });
    streams.push(call);
  }
}

main().catch((e) => { console.log('ERROR CLIENT ' + e.message); process.exit(1); });
