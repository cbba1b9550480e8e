/**
 * Maracaibo's 18 parishes (parroquias), in the spec's order. Maracaibo is validated parish by parish:
 * each is a validation list of its own, stored like a municipality (kind 'municipality') but named a
 * parish wherever a screen says what a department is (docs/ARCHITECTURE.md, glossary).
 */
export const MARACAIBO_PARISHES = [
  ['antonio-borjas-romero', 'Antonio Borjas Romero'],
  ['bolivar', 'Bolívar'],
  ['cacique-mara', 'Cacique Mara'],
  ['caracciolo-parra-perez', 'Caracciolo Parra Pérez'],
  ['cecilio-acosta', 'Cecilio Acosta'],
  ['chiquinquira', 'Chiquinquirá'],
  ['coquivacoa', 'Coquivacoa'],
  ['cristo-de-aranza', 'Cristo de Aranza'],
  ['francisco-eugenio-bustamante', 'Francisco Eugenio Bustamante'],
  ['idelfonso-vasquez', 'Idelfonso Vásquez'],
  ['san-isidro', 'San Isidro'],
  ['santa-lucia', 'Santa Lucía'],
  ['juana-de-avila', 'Juana de Ávila'],
  ['luis-hurtado-higuera', 'Luis Hurtado Higuera'],
  ['manuel-dagnino', 'Manuel Dagnino'],
  ['olegario-villalobos', 'Olegario Villalobos'],
  ['raul-leoni', 'Raúl Leoni'],
  ['venancio-pulgar', 'Venancio Pulgar'],
] as const;

const PARISH_SLUGS: ReadonlySet<string> = new Set(MARACAIBO_PARISHES.map(([slug]) => slug));

/** What a department is, in a word: 'Página' (Resultados, Notas, Agenda), 'Parroquia' or 'Municipio'. */
export function departmentKindLabel(department: { slug: string; kind: 'page' | 'municipality' }): string {
  if (department.kind === 'page') return 'Página';
  return PARISH_SLUGS.has(department.slug) ? 'Parroquia' : 'Municipio';
}
