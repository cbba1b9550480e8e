/**
 * Zulia as a tile map: one square per municipality and, in Maracaibo's place, one per parish, laid out
 * roughly where each lies (the Guajira at the top, the lake in the middle, the east shore on the right,
 * the south of the lake at the bottom). Squares, not outlines: every department gets the same room,
 * and a parish of Maracaibo is as easy to see and to touch as Machiques. Columns 0 to 7, rows 0 to 10.
 */
export interface TilePlace {
  col: number;
  row: number;
  /** Two or three letters written on the square. */
  short: string;
}

export const ZULIA_COLUMNS = 8;
export const ZULIA_ROWS = 11;

/** Lake Maracaibo's squares (drawn as water, no department). */
export const ZULIA_LAKE = { col: 6, fromRow: 2, toRow: 8 } as const;

export const ZULIA_TILES: Readonly<Record<string, TilePlace>> = {
  'indigena-bolivariano-guajira': { col: 3, row: 0, short: 'GUA' },
  mara: { col: 2, row: 1, short: 'MAR' },
  'almirante-padilla': { col: 5, row: 1, short: 'APA' },
  miranda: { col: 7, row: 1, short: 'MIR' },
  'jesus-enrique-lossada': { col: 1, row: 3, short: 'JEL' },
  // Maracaibo's 18 parishes, north to south and west to east.
  'venancio-pulgar': { col: 2, row: 2, short: 'VP' },
  'idelfonso-vasquez': { col: 3, row: 2, short: 'IV' },
  'juana-de-avila': { col: 4, row: 2, short: 'JA' },
  coquivacoa: { col: 5, row: 2, short: 'COQ' },
  'antonio-borjas-romero': { col: 2, row: 3, short: 'ABR' },
  'raul-leoni': { col: 3, row: 3, short: 'RL' },
  'caracciolo-parra-perez': { col: 4, row: 3, short: 'CPP' },
  'olegario-villalobos': { col: 5, row: 3, short: 'OV' },
  'francisco-eugenio-bustamante': { col: 2, row: 4, short: 'FEB' },
  'cecilio-acosta': { col: 3, row: 4, short: 'CA' },
  chiquinquira: { col: 4, row: 4, short: 'CHI' },
  'santa-lucia': { col: 5, row: 4, short: 'SL' },
  'san-isidro': { col: 2, row: 5, short: 'SI' },
  'luis-hurtado-higuera': { col: 3, row: 5, short: 'LHH' },
  'cacique-mara': { col: 4, row: 5, short: 'CM' },
  bolivar: { col: 5, row: 5, short: 'BOL' },
  'manuel-dagnino': { col: 3, row: 6, short: 'MD' },
  'cristo-de-aranza': { col: 4, row: 6, short: 'CDA' },
  // The east shore, north to south.
  'santa-rita': { col: 7, row: 2, short: 'SR' },
  cabimas: { col: 7, row: 3, short: 'CAB' },
  'simon-bolivar': { col: 7, row: 4, short: 'SB' },
  lagunillas: { col: 7, row: 5, short: 'LAG' },
  baralt: { col: 7, row: 7, short: 'BAR' },
  // South of Maracaibo and around the south of the lake.
  'san-francisco': { col: 4, row: 7, short: 'SF' },
  'rosario-de-perija': { col: 2, row: 8, short: 'ROS' },
  'la-canada-de-urdaneta': { col: 5, row: 8, short: 'LCU' },
  'machiques-de-perija': { col: 1, row: 9, short: 'MAC' },
  sucre: { col: 7, row: 9, short: 'SUC' },
  'jesus-maria-semprun': { col: 0, row: 10, short: 'JMS' },
  catatumbo: { col: 2, row: 10, short: 'CAT' },
  colon: { col: 4, row: 10, short: 'COL' },
  'francisco-javier-pulgar': { col: 5, row: 10, short: 'FJP' },
};

/** Maracaibo's squares (columns 2 to 5, rows 2 to 6), outlined together on the map. */
export const MARACAIBO_BLOCK = { fromCol: 2, toCol: 5, fromRow: 2, toRow: 6 } as const;

/**
 * Where each department goes: its square on the map, or, for a department the map does not know (one
 * added later), a place in a row of its own under the map, in the order given.
 */
export function placeTiles<T extends { slug: string; title: string }>(
  departments: readonly T[],
): { placed: (T & TilePlace)[]; others: (T & { short: string })[] } {
  const placed: (T & TilePlace)[] = [];
  const others: (T & { short: string })[] = [];
  for (const d of departments) {
    const place = ZULIA_TILES[d.slug];
    if (place) placed.push({ ...d, ...place });
    else others.push({ ...d, short: d.title.slice(0, 3).toUpperCase() });
  }
  return { placed, others };
}
