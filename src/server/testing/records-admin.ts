/** Data builders for the records back-office tests (not a test file itself). */
let next = 0;

/** A record for POST /api/admin/records that no earlier call repeats (each one another phone). */
export function newRecordBody(department = 'cabimas') {
  next++;
  return {
    department,
    comunidad: 'Sector Los Olivos',
    nombre: `Persona Nueva ${next}`,
    ubch: 'UBCH 110100001',
    telefono: `0414-${String(5_000_000 + next).padStart(7, '0')}`,
  };
}
