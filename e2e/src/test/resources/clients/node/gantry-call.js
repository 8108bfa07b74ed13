// A gRPC client of Gantry's client API in another language (Node, @grpc/grpc-js with no code generation), used by
// the security tests as a user's own program would be: it authenticates with a token and calls one method.
//
//   node gantry-call.js PROTO_DIR HOST:PORT METHOD 'JSON REQUEST'
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

main().catch((e) => { console.log('ERROR CLIENT ' + e.message); process.exit(1); });
