/** Query keys of the agenda editor, under the agenda's own tree so a change refreshes the public day too. */
export const agendaAdminKeys = {
  all: ['agenda'] as const,
  range: (from: string, to: string) => ['agenda', 'admin', from, to] as const,
};
