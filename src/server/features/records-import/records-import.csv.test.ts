import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, unguardCell } from '#server/platform/lib/csv';
import { CsvFileError, readCsv } from './records-import.csv';

async function read(chunks: Iterable<string | Uint8Array>, maxRowChars = 1_000) {
  const rows: { line: number; fields: string[] }[] = [];
  const reader = readCsv(chunks, { maxRowChars });
  for await (const { fields, line } of reader) rows.push({ line, fields });
  return { rows, separator: reader.separator };
}

/** What reading throws, or undefined. */
async function thrownBy(reading: Promise<unknown>): Promise<unknown> {
  try {
    await reading;
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The same text cut at every position must read the same (chunks arrive anywhere). */
async function readEverySplit(text: string) {
  const whole = await read([text]);
  for (let i = 1; i < text.length; i++) {
    expect(await read([text.slice(0, i), text.slice(i)]), `cut at ${i}`).toEqual(whole);
  }
  expect(await read([...text]), 'one character at a time').toEqual(whole);
  return whole;
}

describe('readCsv', () => {
  it('reads semicolons, quotes, doubled quotes, separators and line breaks inside quotes', async () => {
    const text =
      'Comunidades;Nombre;UBCH;Telefono;rephrase\r\n' +
      'Sector 1;"Pérez; María";"UBCH ""1""";0414-1;cabimas\r\n' +
      '"Barrio\r\nAlto";José;U2;0414-2;cabimas\n' +
      'X;Y;Z;W;V';
    const { rows, separator } = await readEverySplit(text);
    expect(separator).toBe(';');
    expect(rows).toEqual([
      { line: 1, fields: ['Comunidades', 'Nombre', 'UBCH', 'Telefono', 'rephrase'] },
      { line: 2, fields: ['Sector 1', 'Pérez; María', 'UBCH "1"', '0414-1', 'cabimas'] },
      { line: 3, fields: ['Barrio\r\nAlto', 'José', 'U2', '0414-2', 'cabimas'] },
      { line: 5, fields: ['X', 'Y', 'Z', 'W', 'V'] },
    ]);
  });

  it('detects commas and tabs from the header, and keeps the other separators as text', async () => {
    expect((await read(['a,b;c,d\n1,2;3,4\n'])).rows[1]?.fields).toEqual(['1', '2;3', '4']);
    expect((await read(['a\tb\tc\n1\t2,5\t3'])).rows[1]?.fields).toEqual(['1', '2,5', '3']);
    expect((await read(['"a;b",c,d\n'])).separator).toBe(',');
  });

  it('reports blank lines and trailing separators as they are, and lone CR line ends', async () => {
    const { rows } = await readEverySplit('a;b\r\r\n;\r1;2;\r');
    expect(rows).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: [''] },
      { line: 3, fields: ['', ''] },
      { line: 4, fields: ['1', '2', ''] },
    ]);
  });

  it('keeps a quote inside an unquoted field as text and allows spaces after a closing quote', async () => {
    expect((await read(['a;b\nJuan "el Negro" Pérez;"x"  \n'])).rows[1]?.fields).toEqual([
      'Juan "el Negro" Pérez',
      'x',
    ]);
  });

  it('refuses quotes left open, with the line where the field starts', async () => {
    const error = (await thrownBy(read(['a;b\n1;2\n3;"abierta\n4;5\n']))) as CsvFileError | undefined;
    expect(error).toBeInstanceOf(CsvFileError);
    expect(error?.line).toBe(3);
    expect(error?.message).toBe(
      'Comillas sin cerrar: el campo que empieza en la línea 3 no se cierra antes del fin del archivo.',
    );
  });

  it('refuses text after a closing quote', async () => {
    await expect(read(['a;b\n"x"y;2\n'])).rejects.toThrow(
      'Comillas mal cerradas en la línea 2: después de cerrar unas comillas debe venir un punto y coma o el fin de la línea.',
    );
  });

  it('stops at a row longer than the limit without holding it whole', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    let given = 0;
    const oneMegabyte = function* () {
      yield 'a;b\n1;';
      for (; given < 64; given++) yield chunk;
    };
    const thrown = await thrownBy(read(oneMegabyte(), 64 * 1024));
    expect(given).toBeLessThan(64);
    expect(thrown).toBeInstanceOf(CsvFileError);
    expect((thrown as CsvFileError).message).toBe(
      'La línea 2 tiene más de 64 KB: no parece una fila de este archivo (¿unas comillas sin cerrar?).',
    );
    // A header that never ends is refused too.
    await expect(read(['y'.repeat(2000), 'y'], 1024)).rejects.toThrow(/La línea 1 tiene más de 1 KB/);
  });
});

describe('csv export cells', () => {
  it('quotes what must be quoted and guards formulas; the import undoes the guard', async () => {
    expect(csvCell('simple')).toBe('simple');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('dice "hola"')).toBe('"dice ""hola"""');
    expect(csvCell('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+58 414 1234567')).toBe("'+58 414 1234567");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(12)).toBe('12');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 1, null])).toBe('a;1;\r\n');
    expect(unguardCell("'+58 414 1234567")).toBe('+58 414 1234567');
    expect(unguardCell("'=1+1")).toBe('=1+1');
    expect(unguardCell("'hola")).toBe("'hola");
  });
});

describe('readCsv on files that trip hand-written readers', () => {
  it('reads a quoted field with a CRLF inside as one field and counts it as one line', async () => {
    const { rows } = await readEverySplit('a;b\r\n"Barrio\r\nAlto";x\r\n"1\r\n2\r\n3";y\r\nz;w\r\n');
    expect(rows).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['Barrio\r\nAlto', 'x'] },
      { line: 4, fields: ['1\r\n2\r\n3', 'y'] },
      { line: 7, fields: ['z', 'w'] },
    ]);
    // A problem after such fields is still placed on its own line.
    await expect(read(['a;b\r\n"Barrio\r\nAlto";x\r\n"y"z;w\r\n'])).rejects.toThrow(
      /^Comillas mal cerradas en la línea 4:/,
    );
  });

  it('drops a byte order mark and still finds the semicolons after it', async () => {
    const { rows, separator } = await readEverySplit('\uFEFFComunidades;Nombre,apellido;UBCH\r\nS;Ana, Pérez;U\r\n');
    expect(separator).toBe(';');
    expect(rows).toEqual([
      { line: 1, fields: ['Comunidades', 'Nombre,apellido', 'UBCH'] },
      { line: 2, fields: ['S', 'Ana, Pérez', 'U'] },
    ]);
  });

  it('gives a trailing separator its empty last field, with or without a final line break', async () => {
    expect((await readEverySplit('a;b;\r\n1;2;\r\n3;4;')).rows).toEqual([
      { line: 1, fields: ['a', 'b', ''] },
      { line: 2, fields: ['1', '2', ''] },
      { line: 3, fields: ['3', '4', ''] },
    ]);
    expect((await read(['a,b,\n"1",2,\n'])).rows[1]?.fields).toEqual(['1', '2', '']);
  });

  it('reads rows wider and narrower than the header as they are, and places the rows after them', async () => {
    expect((await readEverySplit('a;b\r\n1;2;\r\n3;4;;\r\n5\r\n"6\r\n7";8;\r\n9;10')).rows).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2', ''] },
      { line: 3, fields: ['3', '4', '', ''] },
      { line: 4, fields: ['5'] },
      { line: 5, fields: ['6\r\n7', '8', ''] },
      { line: 7, fields: ['9', '10'] },
    ]);
  });

  it('reports a quote left open on the last line, without a final line break, with that line', async () => {
    const thrown = await thrownBy(read(['a;b\r\n1;2\r\n"dos\r\nlíneas";3\r\n4;"abierta']));
    expect(thrown).toBeInstanceOf(CsvFileError);
    expect((thrown as CsvFileError).line).toBe(5);
    expect((thrown as CsvFileError).message).toBe(
      'Comillas sin cerrar: el campo que empieza en la línea 5 no se cierra antes del fin del archivo.',
    );
  });
});

describe('readCsv on bytes', () => {
  it('reads a UTF-8 file as bytes, however its chunks cut its letters', async () => {
    const bytes = Buffer.from('\uFEFFNombre;Comunidad\r\nJosé Añez;"Ñemby, «Alta»"\r\nMaría;Perijá\r\n');
    const whole = await read([bytes.toString('utf8').replace(/^\uFEFF/, '')]);
    expect(whole.rows[1]?.fields).toEqual(['José Añez', 'Ñemby, «Alta»']);
    for (let i = 1; i < bytes.length; i++) {
      expect(await read([bytes.subarray(0, i), bytes.subarray(i)]), `cut at byte ${i}`).toEqual(whole);
    }
  });
});
