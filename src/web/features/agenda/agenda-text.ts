import type { AgendaToday } from '#shared/features/agenda/agenda';
import { formatHour12, spanishDayTitle } from '#shared/platform/format';
import { messages } from '#shared/platform/messages';

export interface DisplayEvent {
  id: number;
  time: string;
  description: string;
  place: string;
}

/** Events with the spec's fallbacks for missing or malformed values. */
export function toDisplayEvents(agenda: AgendaToday): DisplayEvent[] {
  return agenda.events.map((e) => ({
    id: e.id,
    time: formatHour12(e.hora24h) ?? messages.agenda.timeUnavailable,
    description: e.descripcion?.trim() || messages.agenda.descriptionUnavailable,
    place: e.lugar?.trim() || messages.agenda.placeUnavailable,
  }));
}

export function agendaTitle(agenda: AgendaToday): string {
  return spanishDayTitle(agenda.date);
}

/** Plain text ready to paste in WhatsApp (asterisks make bold there). */
export function agendaAsText(agenda: AgendaToday): string {
  const lines = [`*AGENDA ${agendaTitle(agenda)}*`, `*${agenda.leaderName}*`, ''];
  for (const e of toDisplayEvents(agenda)) {
    lines.push(`🕒 *${e.time}*`, e.description, `📍 ${e.place}`, '');
  }
  return lines.join('\n').trimEnd();
}
