/** Every client route in one place. */
export const paths = {
  home: '/',
  agenda: '/agenda',
  notas: '/notas',
  login: '/login',
  resultados: '/resultados',
  admin: '/admin',
  /** Registros in the back office, and its CSV import. */
  adminRecords: '/admin/registros',
  adminRecordsImport: '/admin/registros/importar',
  validation: (slug: string) => `/validation/${slug}`,
  /** Coordinators: what waits on each validator's phone, per department (one department or the first). */
  field: (slug?: string) => (slug ? `/campo/${slug}` : '/campo'),
  /** The votes and photos kept on this phone until the server has them. */
  outbox: '/envios',
  /** The photo review queue (admins and reviewers, decision 134). */
  revision: '/revision',
  /** The signed-in person's second factor and open sessions. */
  account: '/cuenta',
  /** The installed app's start: the signed-in person's department (or the last one, offline). */
  appStart: '/validation',
} as const;
