import type { NewRecord } from '#server/core/records/records.repository';

/** Small deterministic generator (mulberry32): the same demo every time. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const FIRST_NAMES = [
  'María',
  'José',
  'Luis',
  'Carmen',
  'Ana',
  'Carlos',
  'Yusmary',
  'Jesús',
  'Rosa',
  'Pedro',
  'Yolimar',
  'Juan',
  'Luisa',
  'Rafael',
  'Dayana',
  'Wilmer',
  'Maritza',
  'Jorge',
  'Yelitza',
  'Franklin',
  'Nelly',
  'Richard',
  'Omaira',
  'Ender',
  'Gabriela',
  'Deivis',
  'Zulay',
  'Antonio',
  'Mariela',
  'Orlando',
  'Yajaira',
  'Eduardo',
  'Xiomara',
  'Alexander',
  'Marbelis',
  'Néstor',
  'Iraima',
  'Heberto',
  'Lisbeth',
  'Ramón',
] as const;

const LAST_NAMES = [
  'González',
  'Rodríguez',
  'Pérez',
  'Fernández',
  'Urdaneta',
  'Fuenmayor',
  'Villalobos',
  'Finol',
  'Montiel',
  'Chourio',
  'Atencio',
  'Paz',
  'Romero',
  'Morillo',
  'Bracho',
  'Portillo',
  'Ferrer',
  'Sánchez',
  'Parra',
  'Rincón',
  'Hernández',
  'Añez',
  'Boscán',
  'Ortega',
  'Machado',
  'Soto',
  'Prieto',
  'Márquez',
  'Gutiérrez',
  'Nava',
  'Semprún',
  'Oquendo',
] as const;

const PLACE_TYPES = ['Sector', 'Barrio', 'Urb.', 'Comunidad', 'Caserío'] as const;
const PLACE_NAMES = [
  'Los Olivos',
  'La Pomona',
  'San Jacinto',
  'El Milagro',
  '18 de Octubre',
  'Santa Rosa',
  'Los Haticos',
  'La Limpia',
  'Valle Frío',
  'El Marite',
  'Cujicito',
  'Las Tarabas',
  'La Chinita',
  'Sabaneta',
  'Los Estanques',
  'El Manzanillo',
  'Raúl Leoni',
  'Carabobo',
  'San José',
  'Bella Vista',
  'Ziruma',
  'Amparo',
  'Panamericano',
  'La Rotaria',
] as const;

const PHONE_PREFIXES = ['0414', '0424', '0412', '0416', '0426', '0261'] as const;

export function fakePhone(random: () => number): string {
  const digits = String(Math.floor(random() * 10_000_000)).padStart(7, '0');
  return `${pick(random, PHONE_PREFIXES)}-${digits}`;
}

export function fakeName(random: () => number): string {
  const first = pick(random, FIRST_NAMES);
  const second = random() < 0.4 ? ` ${pick(random, FIRST_NAMES)}` : '';
  return `${first}${second} ${pick(random, LAST_NAMES)} ${pick(random, LAST_NAMES)}`;
}

/**
 * Believable procedure records for one department: a handful of communities, each with two or three
 * UBCH (by the CNE's nine-digit centre codes), people with Venezuelan names and phones. Sorted by
 * community, as an import from the field would be.
 */
export function fakeRecords(
  departmentId: number,
  departmentIndex: number,
  count: number,
  random: () => number,
  sourcePrefix?: string,
): NewRecord[] {
  const communities = Array.from(
    { length: Math.max(3, Math.min(8, Math.ceil(count / 25))) },
    () => `${pick(random, PLACE_TYPES)} ${pick(random, PLACE_NAMES)}`,
  );
  const uniqueCommunities = [...new Set(communities)];
  const ubchBase = 110_100_000 + departmentIndex * 1000;
  const records = Array.from({ length: count }, (_, i) => {
    const communityIndex = Math.floor(random() * uniqueCommunities.length);
    const ubchIndex = communityIndex * 3 + Math.floor(random() * 3);
    return {
      departmentId,
      sourceId: sourcePrefix ? `${sourcePrefix}-${i + 1}` : null,
      comunidad: uniqueCommunities[communityIndex] as string,
      nombre: fakeName(random),
      ubch: `UBCH ${ubchBase + ubchIndex + 1}`,
      telefono: fakePhone(random),
    };
  });
  return records.sort((a, b) => a.comunidad.localeCompare(b.comunidad, 'es') || a.nombre.localeCompare(b.nombre, 'es'));
}
