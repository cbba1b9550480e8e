import { MARACAIBO_PARISHES } from '#shared/platform/parishes';

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
    // Maracaibo's 18 parishes, then Zulia's other municipalities.
    ...MARACAIBO_PARISHES,
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
