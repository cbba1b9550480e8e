import { createHash, createPublicKey, verify } from 'node:crypto';
import readline from 'node:readline';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { auditRowHash } from '#server/platform/audit/audit-chain';
import { timestampImprint } from '#server/platform/timestamp/timestamp';
import { PACKAGE_FILES } from './evidence-package';

/*
 * `evidence:verify paquete.zip`: what LEEME.txt asks of sha256sum and openssl, in one command. Every file
 * against SHA256SUMS (none changed, none missing, none added), the signature of SHA256SUMS with the
 * package's public key, the hash of every audit row it carries recomputed from its content, and each
 * time-stamp against the chain head it claims: its imprint is that head's hash, and that head is the
 * package's (decision 095). The authority's signature of a stamp is openssl's (`openssl ts -verify`).
 */

export interface PackageReport {
  ok: boolean;
  fingerprint: string | null;
  files: number;
  auditRows: number;
  problems: string[];
}

const KEPT = new Set<string>([PACKAGE_FILES.sums, PACKAGE_FILES.signature, PACKAGE_FILES.publicKey]);
/** Read whole too: the head, the close and the stamps (small files). */
const READ = new Set<string>([PACKAGE_FILES.head, PACKAGE_FILES.stamp, PACKAGE_FILES.close, PACKAGE_FILES.closeStamp]);

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

interface PackageRow {
  seq: number;
  hash: string;
  prev_hash: string;
}

/** Checks an audit row's own hash from its content (a row of auditoria.jsonl or cadena-cabeza.json). */
function readRow(value: unknown, where: string): { row?: PackageRow; problem?: string } {
  const row = value as PackageRow & Parameters<typeof auditRowHash>[0];
  try {
    if (!row || typeof row !== 'object') throw new Error('not a row');
    if (auditRowHash(row) !== row.hash)
      return { row, problem: `${where}: la fila ${row.seq} no da su hash (fue cambiada).` };
    return { row };
  } catch {
    return { problem: `${where}: no es una fila de auditoría legible.` };
  }
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * A stamp against the head it claims: its imprint must be that head's hash. `head` undefined: the package
 * does not say which head (the stamp cannot be checked, and that is said).
 */
function stampProblems(
  name: string,
  reply: Buffer,
  head: { seq: number; hash: string } | undefined,
  whose: string,
): string[] {
  const stamped = timestampImprint(reply);
  if (!stamped) return [`${name}: no es un sello de tiempo RFC 3161 legible (con una huella SHA-256).`];
  if (!head) return [`${name} sella el hash ${stamped.digestHex} y el paquete no dice de qué fila de la cadena.`];
  if (stamped.digestHex !== head.hash) {
    return [
      `${name} (${stamped.genTime}) sella el hash ${stamped.digestHex}, no el de ${whose} (registro ${head.seq}, ${head.hash}).`,
    ];
  }
  return [];
}

export async function verifyEvidencePackage(file: string): Promise<PackageReport> {
  const problems: string[] = [];
  const hashes = new Map<string, string>();
  const kept = new Map<string, Buffer>();
  const chainHashes = new Map<number, string>();
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
        const keep = KEPT.has(entry.fileName) || READ.has(entry.fileName);
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
            const { row, problem } = readRow(parse(line), PACKAGE_FILES.audit);
            if (problem) problems.push(problem);
            // What the package says of each place of the chain: a row's hash, and its predecessor's.
            if (row && !problem) {
              chainHashes.set(Number(row.seq), row.hash);
              chainHashes.set(Number(row.seq) - 1, row.prev_hash);
            }
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
  problems.push(...packageStamps(kept, chainHashes));
  return { ok: problems.length === 0, fingerprint, files: hashes.size, auditRows, problems };
}

/**
 * The package's head row, and each time-stamp against the head it claims: sello-tiempo.tsr stamps
 * cadena-cabeza.json's hash; sello-cierre.tsr stamps the head cierre.json names, which must be a row of
 * the package's chain (its own row in cierre.json giving that hash, and agreeing with any row of
 * auditoria.jsonl at that place) and no later than the package's head.
 */
function packageStamps(kept: Map<string, Buffer>, chainHashes: Map<number, string>): string[] {
  const problems: string[] = [];
  const headFile = kept.get(PACKAGE_FILES.head);
  let head: PackageRow | undefined;
  if (headFile) {
    const read = readRow(parse(headFile.toString('utf8')), PACKAGE_FILES.head);
    if (read.problem) problems.push(read.problem);
    else head = read.row;
    if (head) chainHashes.set(Number(head.seq), head.hash);
  }
  const stamp = kept.get(PACKAGE_FILES.stamp);
  if (stamp) {
    problems.push(
      ...stampProblems(
        PACKAGE_FILES.stamp,
        stamp,
        head && { seq: Number(head.seq), hash: head.hash },
        PACKAGE_FILES.head,
      ),
    );
  }
  const closeFile = kept.get(PACKAGE_FILES.close);
  const closeStamp = kept.get(PACKAGE_FILES.closeStamp);
  if (!closeFile) {
    if (closeStamp) problems.push(`${PACKAGE_FILES.closeStamp} viene sin ${PACKAGE_FILES.close}.`);
    return problems;
  }
  const close = parse(closeFile.toString('utf8')) as
    | { chainHead?: { seq: number; hash: string } | null; chainHeadRow?: unknown }
    | undefined;
  const claimed = close?.chainHead ?? undefined;
  if (closeStamp)
    problems.push(
      ...stampProblems(PACKAGE_FILES.closeStamp, closeStamp, claimed, `la cabeza que nombra ${PACKAGE_FILES.close}`),
    );
  if (!claimed) return problems;
  const seq = Number(claimed.seq);
  if (head && seq > Number(head.seq)) {
    problems.push(`${PACKAGE_FILES.close} nombra el registro ${seq}, posterior a la cabeza del paquete (${head.seq}).`);
  }
  if (close?.chainHeadRow != null) {
    const { row, problem } = readRow(close.chainHeadRow, `${PACKAGE_FILES.close}`);
    if (problem) problems.push(problem);
    else if (row && (Number(row.seq) !== seq || row.hash !== claimed.hash)) {
      problems.push(
        `${PACKAGE_FILES.close}: su fila de la cadena (registro ${row.seq}, ${row.hash}) no es la cabeza que nombra.`,
      );
    }
  }
  const inChain = chainHashes.get(seq);
  if (inChain !== undefined && inChain !== claimed.hash) {
    problems.push(
      `${PACKAGE_FILES.close} nombra la cabeza ${seq} con hash ${claimed.hash}, y la cadena del paquete tiene otro en ese registro (${inChain}).`,
    );
  }
  return problems;
}
