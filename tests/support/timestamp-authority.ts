// A local RFC 3161 time-stamp authority made with Debian's `openssl ts`: a certificate authority and a
// time-stamping certificate (extendedKeyUsage timeStamping) made at start, and an HTTP server that
// answers each POSTed TimeStampReq (application/timestamp-query) with `openssl ts -reply`
// (application/timestamp-reply), one at a time. Used by the evidence package's tests.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TimestampAuthority {
  url: string;
  /** The authority's root certificate: `openssl ts -verify -CAfile`. */
  caFile: string;
  /** How many requests it answered. */
  answered(): number;
  /** While down, every request gets 503, as from an authority that is out of service. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

function makeCertificates(dir: string): void {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-subj',
    '/CN=Autoridad de pruebas',
    '-days',
    '3650',
    '-out',
    'ca.crt',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'tsa.key');
  openssl('req', '-new', '-key', 'tsa.key', '-subj', '/CN=Sellos de tiempo de pruebas', '-out', 'tsa.csr');
  fs.writeFileSync(
    path.join(dir, 'tsa-ext.cnf'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '3650',
    '-extfile',
    'tsa-ext.cnf',
    '-out',
    'tsa.crt',
  );
  fs.writeFileSync(path.join(dir, 'tsaserial'), '01\n');
  fs.writeFileSync(
    path.join(dir, 'tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = local',
      '[ local ]',
      `dir = ${dir}`,
      'serial = $dir/tsaserial',
      'signer_cert = $dir/tsa.crt',
      'certs = $dir/tsa.crt',
      'signer_key = $dir/tsa.key',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
}

export async function startTimestampAuthority(): Promise<TimestampAuthority> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-tsa-'));
  makeCertificates(dir);
  let answered = 0;
  let down = false;
  let queue = Promise.resolve();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      queue = queue.then(async () => {
        if (down) {
          res.writeHead(503).end();
          return;
        }
        if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
          res.writeHead(400).end();
          return;
        }
        const query = path.join(dir, 'peticion.tsq');
        const reply = path.join(dir, 'respuesta.tsr');
        fs.writeFileSync(query, Buffer.concat(chunks));
        try {
          await run('openssl', ['ts', '-reply', '-config', 'tsa.cnf', '-queryfile', query, '-out', reply], {
            cwd: dir,
          });
          answered += 1;
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(fs.readFileSync(reply));
        } catch {
          res.writeHead(500).end();
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    caFile: path.join(dir, 'ca.crt'),
    answered: () => answered,
    setDown(value) {
      down = value;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
