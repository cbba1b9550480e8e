import { z } from 'zod';

export const agendaEventSchema = z.object({
  id: z.number().int(),
  fecha: z.string(),
  hora24h: z.string().nullable(),
  descripcion: z.string().nullable(),
  lugar: z.string().nullable(),
});
export type AgendaEvent = z.infer<typeof agendaEventSchema>;

export const agendaTodaySchema = z.object({
  /** Today's date in America/Caracas, decided by the server. */
  date: z.string(),
  leaderName: z.string(),
  events: z.array(agendaEventSchema),
});
export type AgendaToday = z.infer<typeof agendaTodaySchema>;
