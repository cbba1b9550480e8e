import { createHash, createPublicKey, verify } from 'node:crypto';
import readline from 'node:readline';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { auditRowHash } from '#server/platform/audit/audit-chain';
import { PACKAGE_FILES } from './evidence-package';

/*
 * `evidence:verify paquete.zip`: what LEEME.txt asks of sha256sum and openssl, in one command. Every file
 * against SHA256SUMS (none changed, none missing, none added), the signature of SHA256SUMS with the
 * package's public key, and the hash of every audit row it carries recomputed from its content.
 */

export interface PackageReport {
  ok: boolean;
  fingerprint: string | null;
  files: number;
  auditRows: number;
  problems: string[];
}

const KEPT = new Set<string>([PACKAGE_FILES.sums, PACKAGE_FILES.signature, PACKAGE_FILES.publicKey]);

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, strictFileNames: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

/** Checks an audit row's own hash from its content (a row of auditoria.jsonl or cadena-cabeza.json). */
function rowProblem(text: string, where: string): string | undefined {
  try {
    const row = JSON.parse(text);
    return auditRowHash(row) === row.hash ? undefined : `${where}: la fila ${row.seq} no da su hash (fue cambiada).`;
  } catch {
    return `${where}: no es una fila de auditoría legible.`;
  }
}

export async function verifyEvidencePackage(file: string): Promise<PackageReport> {
  const problems: string[] = [];
  const hashes = new Map<string, string>();
  const kept = new Map<string, Buffer>();
  let auditRows = 0;
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (error) {
    return {
      ok: false,
      fingerprint: null,
      files: 0,
      auditRows: 0,
      problems: [`No es un ZIP legible: ${(error as Error).message}`],
    };
  }
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      void (async () => {
        const stream = await entryStream(zip, entry);
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        const keep = KEPT.has(entry.fileName) || entry.fileName === PACKAGE_FILES.head;
        const hashing = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            hash.update(chunk);
            if (keep) chunks.push(chunk);
            callback(null, chunk);
          },
        });
        const read = pipeline(stream, hashing);
        if (entry.fileName === PACKAGE_FILES.audit) {
          for await (const line of readline.createInterface({ input: hashing, crlfDelay: Infinity })) {
            if (!line) continue;
            auditRows += 1;
            const problem = rowProblem(line, PACKAGE_FILES.audit);
            if (problem) problems.push(problem);
          }
        } else {
          hashing.resume();
        }
        await read;
        hashes.set(entry.fileName, hash.digest('hex'));
        if (chunks.length > 0) kept.set(entry.fileName, Buffer.concat(chunks));
        zip.readEntry();
      })().catch(reject);
    });
    zip.readEntry();
  }).catch((error: unknown) => problems.push(`El ZIP está dañado: ${(error as Error).message}`));
  zip.close();

  const sums = kept.get(PACKAGE_FILES.sums);
  const signature = kept.get(PACKAGE_FILES.signature);
  const publicKeyPem = kept.get(PACKAGE_FILES.publicKey);
  let fingerprint: string | null = null;
  if (!sums || !signature || !publicKeyPem) {
    problems.push(`Faltan ${PACKAGE_FILES.sums}, ${PACKAGE_FILES.signature} o ${PACKAGE_FILES.publicKey}.`);
  } else {
    try {
      const key = createPublicKey(publicKeyPem);
      fingerprint = createHash('sha256')
        .update(key.export({ type: 'spki', format: 'der' }))
        .digest('hex');
      if (!verify(null, sums, key, signature)) problems.push(`La firma de ${PACKAGE_FILES.sums} no es válida.`);
    } catch {
      problems.push(`${PACKAGE_FILES.publicKey} no es una clave pública legible.`);
    }
    const listed = new Set<string>();
    for (const line of sums.toString('utf8').split('\n')) {
      if (!line) continue;
      const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
      if (!match) {
        problems.push(`${PACKAGE_FILES.sums}: línea ilegible «${line}».`);
        continue;
      }
      const [, expected, name] = match as unknown as [string, string, string];
      listed.add(name);
      const actual = hashes.get(name);
      if (actual === undefined) problems.push(`${name}: falta en el paquete.`);
      else if (actual !== expected) problems.push(`${name}: cambió (su SHA-256 no es el de ${PACKAGE_FILES.sums}).`);
    }
    for (const name of hashes.keys()) {
      if (!listed.has(name) && !KEPT.has(name)) problems.push(`${name}: no está en ${PACKAGE_FILES.sums} (añadido).`);
    }
  }
  const head = kept.get(PACKAGE_FILES.head);
  if (head) {
    const problem = rowProblem(head.toString('utf8'), PACKAGE_FILES.head);
    if (problem) problems.push(problem);
  }
  return { ok: problems.length === 0, fingerprint, files: hashes.size, auditRows, problems };
}
