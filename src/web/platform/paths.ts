/** Every client route in one place. */
export const paths = {
  home: '/',
  agenda: '/agenda',
  notas: '/notas',
  login: '/login',
  resultados: '/resultados',
  admin: '/admin',
  validation: (slug: string) => `/validation/${slug}`,
} as const;
