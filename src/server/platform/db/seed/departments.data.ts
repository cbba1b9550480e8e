/**
 * The departments of spec section 2 and 6, in the spec's order. Where the spec withheld a name
 * (`{name}`), we use the public names of Maracaibo's parishes and Zulia's municipalities
 * (docs/decisions/003-department-names.md).
 */
export interface DepartmentSeed {
  slug: string;
  title: string;
  kind: 'page' | 'municipality';
}

export const STAFF_PAGES: DepartmentSeed[] = [
  { slug: 'resultados', title: 'Resultados', kind: 'page' },
  { slug: 'notas', title: 'Notas', kind: 'page' },
  { slug: 'agenda', title: 'Agenda', kind: 'page' },
];

export const MUNICIPALITIES: DepartmentSeed[] = (
  [
    // Maracaibo's 18 parishes.
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
    // Zulia's municipalities (Maracaibo is covered by its parishes above).
    ['almirante-padilla', 'Almirante Padilla'],
    ['baralt', 'Baralt'],
    ['cabimas', 'Cabimas'],
    ['catatumbo', 'Catatumbo'],
    ['colon', 'Colón'],
    ['francisco-javier-pulgar', 'Francisco Javier Pulgar'],
    ['jesus-enrique-lossada', 'Jesús Enrique Lossada'],
    ['jesus-maria-semprun', 'Jesús María Semprún'],
    ['la-canada-de-urdaneta', 'La Cañada de Urdaneta'],
    ['lagunillas', 'Lagunillas'],
    ['machiques-de-perija', 'Machiques de Perijá'],
    ['mara', 'Mara'],
    ['miranda', 'Miranda'],
    ['indigena-bolivariano-guajira', 'Indígena Bolivariano Guajira'],
    ['rosario-de-perija', 'Rosario de Perijá'],
    ['san-francisco', 'San Francisco'],
    ['santa-rita', 'Santa Rita'],
    ['simon-bolivar', 'Simón Bolívar'],
    ['sucre', 'Sucre'],
  ] as const
).map(([slug, title]) => ({ slug, title, kind: 'municipality' as const }));

export const CANDIDATES = [
  { code: 'FA', name: 'Fernando Álvarez', colour: '#1D4ED8', photoUrl: '/candidatos/fa.svg' },
  { code: 'LC', name: 'Luisa Contreras', colour: '#B45309', photoUrl: '/candidatos/lc.svg' },
  { code: 'NR', name: 'Nelson Rincón', colour: '#047857', photoUrl: '/candidatos/nr.svg' },
] as const;
