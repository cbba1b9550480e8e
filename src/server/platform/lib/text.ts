// Text helpers the CSV import and the Airtable import share.

const NON_ASCII = /[\u0080-\uffff]/;

/** Lowercase without accents: "María Pérez" and "maria perez" find each other. */
export function foldText(value: string): string {
  // Plain ASCII (most of what an import holds: phones, most names and communities) has no accents to
  // take off, and Unicode normalisation costs more than everything else done to it.
  if (!NON_ASCII.test(value)) return value.toLowerCase();
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** 'Machiques de Perijá', 'MACHIQUES-DE-PERIJA' and 'machiques de perija' name one municipality. */
export const departmentKey = (value: string) =>
  foldText(value)
    .trim()
    .replace(/[\s_]+/g, '-');

/** A value quoted in a reason shown to people, cut short when long. */
export const quoteValue = (value: string) => `«${value.length > 60 ? `${value.slice(0, 59)}…` : value}»`;
