import type { NotasAdminQuery } from '#shared/features/notas/notas.admin';

/** Query keys of the notas editor, under the notas' own tree so a change refreshes the public list too. */
export const notasAdminKeys = {
  all: ['notas'] as const,
  lists: () => ['notas', 'admin', 'list'] as const,
  list: (query: NotasAdminQuery) => ['notas', 'admin', 'list', query] as const,
  one: (id: number) => ['notas', 'admin', 'one', id] as const,
};
