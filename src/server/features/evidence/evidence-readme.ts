import type { ChainRow } from './evidence.repository';

/** LEEME.txt: what the package holds and how anyone checks it with sha256sum and openssl. */
export function readme(p: {
  department: string | undefined;
  records: number;
  photos: number;
  auditRows: number;
  missingPhotos: number;
  head: ChainRow;
  stamped: boolean;
  /** The day's close: the chain's head its counts were taken at, and whether the authority stamped it. */
  close?: { closedAt: string; head: { seq: number; hash: string } | null; stamped: boolean } | undefined;
  fingerprint: string;
}): string {
  const closeHash = p.close?.head?.hash;
  const lines = [
    'PAQUETE DE EVIDENCIAS DE COMANDO',
    '================================',
    '',
    `Alcance: ${p.department ? `el municipio ${p.department}` : 'todos los municipios'}.`,
    `Contiene ${p.records} registros (trámites), ${p.photos} fotos de actas y ${p.auditRows} filas del registro de auditoría.`,
    ...(p.missingPhotos > 0
      ? [`ATENCIÓN: ${p.missingPhotos} fotos no estaban en el almacenamiento; las nombra fotos-que-faltan.txt.`]
      : []),
    `Cadena de auditoría al exportar: registro ${p.head.seq}, hash ${p.head.hash}.`,
    '',
    'Archivos',
    '  registros.csv       cada registro: municipio, nombre, voto, quién votó y cuándo (UTC), fotos.',
    '  fotos.csv           cada foto (actual o reemplazada): archivo, SHA-256, quién la subió y cuándo.',
    '  fotos/              cada foto tal como se guardó, byte por byte.',
    '  auditoria.jsonl     las filas de auditoría de esos registros, una por línea, con sus hashes.',
    '  cadena-cabeza.json  la última fila de la cadena al exportar (la de esta exportación).',
    ...(p.stamped ? ['  sello-tiempo.tsr    sello de tiempo RFC 3161 del hash de esa última fila.'] : []),
    ...(p.close
      ? [
          '  cierre.json         el cierre de la jornada: cuándo, y la fila de la cadena (seq y hash) a la que',
          '                      corresponden los resultados al cierre, con esa fila entera (chainHeadRow).',
        ]
      : []),
    ...(p.close?.stamped
      ? ['  sello-cierre.tsr    sello de tiempo RFC 3161 del hash de esa fila, pedido al cerrar.']
      : []),
    '  SHA256SUMS          el SHA-256 de cada archivo anterior.',
    '  SHA256SUMS.sig      firma Ed25519 de SHA256SUMS con la clave del servidor.',
    '  clave-publica.pem   la clave pública que comprueba esa firma.',
    '',
    'Cómo comprobarlo (Linux; en macOS, "shasum -a 256 -c" en vez de "sha256sum -c")',
    '',
    '1. Descomprimir el paquete en una carpeta nueva y entrar en ella:',
    '     unzip paquete.zip -d paquete',
    '     cd paquete',
    '',
    '2. Comprobar que ningún archivo cambió (cada línea debe decir "La suma coincide" u "OK"):',
    '     sha256sum -c SHA256SUMS',
    '',
    '3. Comprobar la firma de SHA256SUMS (debe decir "Signature Verified Successfully"):',
    '     openssl pkeyutl -verify -pubin -inkey clave-publica.pem -rawin -in SHA256SUMS -sigfile SHA256SUMS.sig',
    '',
    '4. Comprobar que la clave es la del servidor: esta orden debe mostrar la huella que se ve en Ajustes',
    '   y en el registro de auditoría del servidor,',
    `     ${p.fingerprint}`,
    '   y la orden es:',
    '     openssl pkey -pubin -in clave-publica.pem -outform DER | sha256sum',
    '',
    ...(p.stamped
      ? [
          '5. Comprobar el sello de tiempo con el certificado de la autoridad que lo emitió (tsa.pem):',
          `     openssl ts -verify -digest ${p.head.hash} -in sello-tiempo.tsr -CAfile tsa.pem`,
          '   (debe decir "Verification: OK"). Muestra que esa cadena existía en ese momento: nadie pudo',
          '   reescribirla después sin que su hash cambie.',
          '',
        ]
      : []),
    ...(p.close?.stamped && closeHash
      ? [
          `${p.stamped ? '6' : '5'}. Comprobar el sello del cierre de la misma manera, con el hash de cierre.json:`,
          `     openssl ts -verify -digest ${closeHash} -in sello-cierre.tsr -CAfile tsa.pem`,
          '   (debe decir "Verification: OK"). Muestra que la cadena tenía ese hash al cerrar la jornada.',
          '',
        ]
      : []),
    'El hash de cada fila de auditoría es el SHA-256 (en hexadecimal) del JSON',
    '  ["comando-audit-v1", seq, prev_hash, at, actor_email, action, department_slug, target, ip, details]',
    'escrito sin espacios (JSON.stringify, RFC 8785), y prev_hash es el hash de la fila anterior de la cadena.',
    '',
    'Con el código de Comando, todo lo anterior en una orden (de los sellos de tiempo comprueba que sellan el',
    'hash de la fila que nombran; la firma de la autoridad, con openssl ts -verify como arriba):',
    '  npm run cli -- evidence:verify paquete.zip',
    '',
  ];
  return lines.join('\n');
}
