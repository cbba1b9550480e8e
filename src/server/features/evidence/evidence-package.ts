import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { csvFile, cursorPages } from '#server/platform/export/csv-export';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import type { ChainRow, EvidenceRepository, PhotoState, RecordState } from './evidence.repository';
import type { EvidenceKey } from './evidence-key';
import { readme } from './evidence-readme';

/*
 * The evidence package (docs/decisions/074): a ZIP written as it is read (yazl), never whole in memory.
 * Each file passes through a SHA-256 on its way into the ZIP; SHA256SUMS lists them all at the end and
 * SHA256SUMS.sig signs it with the server's Ed25519 key, whose public half travels in the package.
 */

const PAGE = 1_000;

export const PACKAGE_FILES = {
  records: 'registros.csv',
  photos: 'fotos.csv',
  audit: 'auditoria.jsonl',
  head: 'cadena-cabeza.json',
  stamp: 'sello-tiempo.tsr',
  close: 'cierre.json',
  closeStamp: 'sello-cierre.tsr',
  readme: 'LEEME.txt',
  sums: 'SHA256SUMS',
  signature: 'SHA256SUMS.sig',
  publicKey: 'clave-publica.pem',
  missing: 'fotos-que-faltan.txt',
} as const;

export interface PackageInput {
  repo: EvidenceRepository;
  storage: PhotoStorage;
  key: EvidenceKey;
  /** One municipality's slug, or every one. */
  department: string | undefined;
  /** The chain's last row when the export began (the export's own audit row). */
  head: ChainRow;
  /** The RFC 3161 time-stamp reply for the head's hash, when an authority is configured. */
  stamp?: Buffer | undefined;
  /** The day's close, when it has closed: the chain's head its counts were taken at, and its time-stamp. */
  close?: CloseEvidence | undefined;
  at: Date;
}

/** What the package says of the close (decision 088). */
export interface CloseEvidence {
  closedAt: string;
  takenAt: string;
  chainHead: { seq: number; hash: string } | null;
  /** That head's row as the chain holds it now: evidence:verify recomputes its hash (decision 095). */
  chainHeadRow?: ChainRow | undefined;
  /** The RFC 3161 reply for chainHead.hash, when the authority gave one. */
  stamp: Buffer | null;
  stampedAt: string | null;
}

export interface PackageSummary {
  records: number;
  photos: number;
  auditRows: number;
  missingPhotos: number;
  /** SHA-256 of SHA256SUMS as signed. */
  sumsSha256: string;
}

const photoExtension = (contentType: string) => (contentType === 'image/heic' ? 'heic' : 'jpg');
export const photoPath = (p: PhotoState, department: string) =>
  `fotos/${department}/${p.record_id}-${p.kind}-${p.id}.${photoExtension(p.content_type)}`;

/** Starts writing the package; `stream` is the ZIP, `done` its summary once the last byte is out. */
export function writeEvidencePackage(input: PackageInput): { stream: Readable; done: Promise<PackageSummary> } {
  const zip = new ZipFile();
  const sums: string[] = [];
  const mtime = input.at;

  /** Adds one file, hashing its bytes as yazl reads them; resolves once they are all read. */
  async function add(name: string, source: Readable, compress: boolean): Promise<void> {
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    zip.addReadStream(hashing, name, { compress, mtime });
    await pipeline(source, hashing);
    sums.push(`${hash.digest('hex')}  ${name}`);
  }
  const text = (lines: AsyncIterable<string> | Iterable<string>) =>
    Readable.from(
      (async function* () {
        for await (const line of lines) yield Buffer.from(line, 'utf8');
      })(),
    );

  const records = () =>
    cursorPages({
      first: 0,
      size: PAGE,
      read: (after, size) => input.repo.recordsPage(after, size, input.department),
      next: (r: RecordState) => r.id,
    });

  const summary = { records: 0, photos: 0, auditRows: 0, missingPhotos: 0 };
  const missing: string[] = [];

  async function* countedRecords(): AsyncGenerator<RecordState[]> {
    for await (const page of records()) {
      summary.records += page.length;
      yield page;
    }
  }

  const recordLines = () =>
    csvFile(
      [
        'Registro',
        'Municipio',
        'Nombre',
        'Comunidad',
        'UBCH',
        'Estado',
        'Voto',
        'Votado por',
        'Votado en (UTC)',
        'Foto Gobernador',
        'Foto AN',
        'Foto CLEZ',
      ],
      countedRecords(),
      (r) => [
        r.id,
        r.department_slug,
        r.nombre,
        r.comunidad,
        r.ubch,
        r.status,
        r.vote_codes === null ? null : r.vote_codes === '' ? '(ninguno)' : r.vote_codes.replaceAll(',', ' '),
        r.voted_by,
        r.voted_at,
        r.gobernador_photo_id,
        r.an_photo_id,
        r.clez_photo_id,
      ],
    );

  async function* auditLines(): AsyncGenerator<string> {
    for await (const page of records()) {
      const rows = await input.repo.auditOf(page.map((r) => `record:${r.id}`));
      summary.auditRows += rows.length;
      yield rows.map((row) => `${JSON.stringify(chainRowJson(row))}\n`).join('');
    }
  }

  /** Each page's photos, with the path each has in the package. */
  async function* photoPages(): AsyncGenerator<{ photo: PhotoState; name: string }[]> {
    for await (const page of records()) {
      const slugs = new Map(page.map((r) => [r.id, r.department_slug]));
      const photos = await input.repo.photosOf(page.map((r) => r.id));
      yield photos.map((photo) => ({ photo, name: photoPath(photo, slugs.get(photo.record_id) ?? '') }));
    }
  }

  const photoIndex = () =>
    csvFile(
      [
        'Foto',
        'Registro',
        'Tipo',
        'Archivo',
        'SHA-256',
        'Bytes',
        'Subida por',
        'Subida en (UTC)',
        'Reemplazada en (UTC)',
        'Revisión',
        'Nota de la revisión',
        'Revisada por',
        'Revisada en (UTC)',
      ],
      photoPages(),
      ({ photo: p, name }) => [
        p.id,
        p.record_id,
        p.kind,
        name,
        p.sha256,
        p.size_bytes,
        p.uploaded_by,
        p.uploaded_at,
        p.replaced_at,
        p.review_verdict ?? 'sin revisar',
        p.review_note,
        p.reviewed_by,
        p.reviewed_at,
      ],
    );

  async function write(): Promise<PackageSummary> {
    await add(PACKAGE_FILES.records, text(recordLines()), true);
    await add(PACKAGE_FILES.audit, text(auditLines()), true);
    await add(PACKAGE_FILES.photos, text(photoIndex()), true);
    for await (const page of photoPages()) {
      for (const { photo, name } of page) {
        const file = await input.storage.get(photo.original_key);
        if (!file) {
          missing.push(`${name}\t${photo.sha256}`);
          continue;
        }
        // Stored bytes as they are: a JPEG does not compress.
        await add(name, file.stream, false);
        summary.photos += 1;
      }
    }
    if (missing.length > 0) await add(PACKAGE_FILES.missing, text([`${missing.join('\n')}\n`]), true);
    summary.missingPhotos = missing.length;
    await add(PACKAGE_FILES.head, text([`${JSON.stringify(chainRowJson(input.head), null, 2)}\n`]), true);
    if (input.stamp) await add(PACKAGE_FILES.stamp, Readable.from([input.stamp]), false);
    const { close } = input;
    if (close) {
      const described = {
        closedAt: close.closedAt,
        takenAt: close.takenAt,
        chainHead: close.chainHead,
        chainHeadRow: close.chainHeadRow ? chainRowJson(close.chainHeadRow) : null,
        stampedAt: close.stampedAt,
      };
      await add(PACKAGE_FILES.close, text([`${JSON.stringify(described, null, 2)}\n`]), true);
      if (close.stamp) await add(PACKAGE_FILES.closeStamp, Readable.from([close.stamp]), false);
    }
    await add(
      PACKAGE_FILES.readme,
      text([
        readme({
          ...summary,
          department: input.department,
          head: input.head,
          stamped: Boolean(input.stamp),
          close: close ? { closedAt: close.closedAt, head: close.chainHead, stamped: Boolean(close.stamp) } : undefined,
          fingerprint: input.key.fingerprint,
        }),
      ]),
      true,
    );
    const sumsFile = Buffer.from(`${sums.join('\n')}\n`, 'utf8');
    zip.addBuffer(sumsFile, PACKAGE_FILES.sums, { mtime });
    zip.addBuffer(input.key.sign(sumsFile), PACKAGE_FILES.signature, { mtime, compress: false });
    zip.addBuffer(Buffer.from(input.key.publicKeyPem, 'utf8'), PACKAGE_FILES.publicKey, { mtime });
    zip.end();
    return { ...summary, sumsSha256: createHash('sha256').update(sumsFile).digest('hex') };
  }

  const stream = zip.outputStream as Readable;
  // A failure half-way cuts the ZIP short: the download fails, it never looks whole.
  const done = write().catch((error: unknown) => {
    stream.destroy(error as Error);
    throw error;
  });
  return { stream, done };
}

/** An audit row as the package writes it: every column its hash covers, and the hashes. */
export function chainRowJson(row: ChainRow) {
  return {
    seq: row.seq,
    prev_hash: row.prev_hash,
    hash: row.hash,
    at: row.at,
    actor_email: row.actor_email,
    action: row.action,
    department_slug: row.department_slug,
    target: row.target,
    ip: row.ip,
    details: row.details,
  };
}
