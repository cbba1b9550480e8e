// The encoding of an uploaded CSV, decided from its bytes, and its text read in that encoding.
import fs from 'node:fs';
import type { ImportProblem } from '#shared/features/records-import/records-import';
import type { ByteFacts } from './records-import.upload';

export type CsvEncoding = 'utf-8' | 'utf-8-bom' | 'latin-1';

/**
 * UTF-8 (with or without byte order mark) when every byte is valid UTF-8; Latin-1 (Windows-1252, what
 * Excel writes as "CSV" on Spanish Windows) when some bytes are not and none looks like UTF-8. Anything
 * else is explained, not guessed.
 */
export function decideEncoding(facts: ByteFacts): { encoding: CsvEncoding } | { problem: ImportProblem } {
  const problem = (reason: string, line: number | null = null) => ({ problem: { line, column: null, reason } });
  const h = facts.head;
  if (facts.bytes === 0) return problem('El archivo está vacío.');
  if ((h[0] === 0xff && h[1] === 0xfe) || (h[0] === 0xfe && h[1] === 0xff)) {
    return problem(
      'El archivo está en UTF-16 (Excel lo llama «Texto Unicode»). Guárdalo como «CSV UTF-8 (delimitado por comas)» y vuelve a intentarlo.',
    );
  }
  if (h[0] === 0x50 && h[1] === 0x4b && h[2] === 0x03 && h[3] === 0x04) {
    return problem(
      'Es un libro de Excel (.xlsx), no un CSV. En Excel: Archivo › Guardar como › «CSV UTF-8 (delimitado por comas)».',
    );
  }
  if (h[0] === 0xd0 && h[1] === 0xcf && h[2] === 0x11 && h[3] === 0xe0) {
    return problem('Es un libro de Excel antiguo (.xls), no un CSV. Guárdalo como «CSV UTF-8 (delimitado por comas)».');
  }
  if (facts.nulBytes > 0) {
    return problem(
      'El archivo tiene bytes nulos: no es un archivo de texto CSV (¿es una hoja de cálculo o una imagen?).',
    );
  }
  const bom = h[0] === 0xef && h[1] === 0xbb && h[2] === 0xbf;
  if (facts.invalidUtf8 === 0) return { encoding: bom ? 'utf-8-bom' : 'utf-8' };
  if (bom || facts.utf8Sequences > 0) {
    return problem(
      `El archivo mezcla codificaciones: tiene letras en UTF-8 y ${facts.invalidUtf8} ${
        facts.invalidUtf8 === 1 ? 'byte que no es' : 'bytes que no son'
      } UTF-8 (el primero en la línea ${facts.firstInvalidLine}). Guárdalo de nuevo como «CSV UTF-8».`,
      facts.firstInvalidLine,
    );
  }
  return { encoding: 'latin-1' };
}

/**
 * The file chunk by chunk, with the bytes read so far: as it is when it is UTF-8 (the CSV reader takes
 * bytes and drops a byte order mark), decoded to text when it is Latin-1.
 */
export async function* readText(
  file: string,
  encoding: CsvEncoding,
): AsyncGenerator<{ text: string | Buffer; bytes: number }> {
  // WHATWG's "latin1" is Windows-1252, a superset that also has € and the curly quotes.
  const decoder = encoding === 'latin-1' ? new TextDecoder('windows-1252') : null;
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 32 * 1024 })) {
    bytes += (chunk as Buffer).length;
    yield { text: decoder ? decoder.decode(chunk as Buffer, { stream: true }) : (chunk as Buffer), bytes };
  }
  if (decoder) yield { text: decoder.decode(), bytes };
}
