// Receiving an uploaded CSV: streamed to a temporary file while its bytes are checked for the encoding.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { HttpError } from '#server/platform/http/errors';
import { receiveToFile, type UploadLimits, type UploadStream } from '#server/platform/lib/receive-file';
import { recordsImportMessages } from '#shared/features/records-import/records-import';

/** What the bytes of the upload say about its encoding, counted while it is written to disk. */
export interface ByteFacts {
  bytes: number;
  /** The first bytes, to recognise a byte order mark or a spreadsheet file. */
  head: Buffer;
  nulBytes: number;
  /** Bytes that cannot be UTF-8, and the line of the first one. */
  invalidUtf8: number;
  firstInvalidLine: number | null;
  /** Well-formed UTF-8 sequences of two to four bytes (accented letters written as UTF-8). */
  utf8Sequences: number;
}

export interface ReceivedCsv {
  file: string;
  facts: ByteFacts;
  discard(): Promise<void>;
}

/** Counts NUL bytes and checks UTF-8 (Unicode table 3-7) across chunks, one pass, no copies. */
function createByteScanner() {
  const facts: ByteFacts = {
    bytes: 0,
    head: Buffer.alloc(0),
    nulBytes: 0,
    invalidUtf8: 0,
    firstInvalidLine: null,
    utf8Sequences: 0,
  };
  let line = 1;
  let need = 0;
  let lo = 0x80;
  let hi = 0xbf;
  const invalid = () => {
    facts.invalidUtf8++;
    facts.firstInvalidLine ??= line;
  };
  return {
    facts,
    update(chunk: Buffer): void {
      if (facts.head.length < 4) facts.head = Buffer.concat([facts.head, chunk.subarray(0, 4 - facts.head.length)]);
      facts.bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i] as number;
        if (need === 0) {
          if (b < 0x80) {
            if (b === 0x0a) line++;
            else if (b === 0) facts.nulBytes++;
          } else if (b >= 0xc2 && b <= 0xdf) need = 1;
          else if (b === 0xe0) {
            need = 2;
            lo = 0xa0;
          } else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) need = 2;
          else if (b === 0xed) {
            need = 2;
            hi = 0x9f;
          } else if (b === 0xf0) {
            need = 3;
            lo = 0x90;
          } else if (b >= 0xf1 && b <= 0xf3) need = 3;
          else if (b === 0xf4) {
            need = 3;
            hi = 0x8f;
          } else invalid();
        } else if (b >= lo && b <= hi) {
          lo = 0x80;
          hi = 0xbf;
          if (--need === 0) facts.utf8Sequences++;
        } else {
          // A sequence cut short: count it and read this byte again as the start of something new.
          invalid();
          need = 0;
          lo = 0x80;
          hi = 0xbf;
          i--;
        }
      }
    },
    end(): void {
      if (need > 0) invalid();
      need = 0;
    },
  };
}

const UPLOAD_SUFFIX = '.csv.part';

const FileTooLarge = () => new HttpError(413, recordsImportMessages.fileTooLarge);
const UploadAborted = () => new HttpError(400, recordsImportMessages.uploadAborted);

/**
 * Streams the uploaded CSV to a temporary file while counting what its bytes say about the encoding.
 * Only a chunk is ever in memory. Too large (413) or cut off (400): nothing is left behind.
 */
export async function receiveCsv(source: UploadStream, options: UploadLimits): Promise<ReceivedCsv> {
  const scanner = createByteScanner();
  const scan = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (scanner.facts.bytes + chunk.length > options.maxBytes) return done(FileTooLarge());
      scanner.update(chunk);
      done(null, chunk);
    },
  });
  const file = await receiveToFile(source, {
    tempDir: options.tempDir,
    suffix: UPLOAD_SUFFIX,
    idleMs: options.idleMs ?? 60_000,
    inspect: scan,
    tooLarge: FileTooLarge,
    aborted: UploadAborted,
  });
  scanner.end();
  return { file, facts: scanner.facts, discard: () => fsp.rm(file, { force: true }) };
}

/** Removes temporary uploads a crash left behind. */
export async function removeStaleImports(dir: string, olderThanMs = 60 * 60 * 1000): Promise<void> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const cutoff = Date.now() - olderThanMs;
  for (const name of names) {
    if (!name.endsWith(UPLOAD_SUFFIX)) continue;
    const file = path.join(dir, name);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat?.isFile() && stat.mtimeMs < cutoff) await fsp.rm(file, { force: true });
  }
}
