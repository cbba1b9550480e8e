import { PHOTO_KIND_LABELS } from '#shared/features/records/records';
import type { OutboxItem } from './outbox-item';

/** What the item is, as a validator says it: 'Voto' or 'Foto Gobernador'. */
export const itemLabel = (item: OutboxItem): string =>
  item.kind === 'vote' ? 'Voto' : `Foto ${PHOTO_KIND_LABELS[item.photoKind]}`;

/** The vote's candidates, as the card shows a vote. */
export const voteChoice = (candidates: string[]): string =>
  candidates.length ? candidates.join(', ') : 'Ningún candidato';

/** The item's state in the words of the card: 'Guardado en el teléfono', 'Enviando n %', 'Enviado', 'Rechazado'. */
export function stateLabel(item: OutboxItem, progress: number | undefined): string {
  switch (item.state) {
    case 'saved':
      return 'Guardado en el teléfono';
    case 'sending':
      return `Enviando ${Math.max(0, Math.min(100, Math.floor(progress ?? 0)))} %`;
    case 'sent':
      return 'Enviado';
    case 'rejected':
      return 'Rechazado';
  }
}

export const stateClass: Record<OutboxItem['state'], string> = {
  saved: 'bg-amber-100 text-amber-950',
  sending: 'bg-sky-100 text-sky-950',
  sent: 'bg-emerald-100 text-emerald-950',
  rejected: 'bg-red-100 text-red-950',
};
