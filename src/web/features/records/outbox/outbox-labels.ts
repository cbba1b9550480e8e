import { formatBytes, formatPercent } from '#shared/platform/format';
import { PHOTO_KIND_LABELS } from '#shared/platform/records';
import type { OutboxItem } from './outbox-item';

/** What the item is, as a validator says it: 'Voto' or 'Foto Gobernador'. */
export const itemLabel = (item: OutboxItem): string =>
  item.kind === 'vote' ? 'Voto' : `Foto ${PHOTO_KIND_LABELS[item.photoKind]}`;

/** The vote's candidates, as the card shows a vote. */
export const voteChoice = (candidates: string[]): string =>
  candidates.length ? candidates.join(', ') : 'Ningún candidato';

/** Every byte left the phone; the server has not answered yet (it still checks and stores the photo). */
export const AWAITING_SERVER_LABEL = 'Esperando al servidor';

/**
 * The item's state in the words of the card: 'Guardado en el teléfono', 'Enviando n %', then, once
 * every byte left, 'Esperando al servidor' until the server answers, 'Enviado', then 'Asegurado' once the
 * off-machine copy has it too (decision 135), or 'Rechazado'.
 */
export function stateLabel(item: OutboxItem, progress: number | undefined): string {
  switch (item.state) {
    case 'saved':
      return 'Guardado en el teléfono';
    case 'sending': {
      const percent = Math.max(0, Math.min(100, Math.floor(progress ?? 0)));
      return percent >= 100 ? AWAITING_SERVER_LABEL : `Enviando ${formatPercent(percent, 0)}`;
    }
    case 'sent':
      return item.securedAt ? 'Asegurado' : 'Enviado';
    case 'rejected':
      return 'Rechazado';
  }
}

/** The badge's colours: an item 'Asegurado' is told apart from one only 'Enviado'. */
export const itemStateClass = (item: OutboxItem): string =>
  item.state === 'sent' && item.securedAt ? 'bg-emerald-700 text-white' : stateClass[item.state];

export const stateClass: Record<OutboxItem['state'], string> = {
  saved: 'bg-amber-100 text-amber-950',
  sending: 'bg-sky-100 text-sky-950',
  sent: 'bg-emerald-100 text-emerald-950',
  rejected: 'bg-red-100 text-red-950',
};

/**
 * What right-sizing saved, as the card shows it ('3,8 MB -> 610 kB') and as it is read aloud; null when
 * the original is sent.
 */
export function sizeSaved(item: OutboxItem): { shown: string; spoken: string } | null {
  if (item.kind !== 'photo' || !item.file.originalSize) return null;
  const size = item.file.size ?? item.file.data?.byteLength;
  if (!size) return null;
  const [from, to] = [formatBytes(item.file.originalSize), formatBytes(size)];
  return { shown: `${from} -> ${to}`, spoken: `Foto reducida de ${from} a ${to}` };
}

/** What the phone says when it cannot keep an item, or sends items again after a restore (decision 135). */
export const outboxMessages = {
  notKept: 'no hay espacio en este teléfono para conservar la foto hasta que quede asegurada. El servidor ya la tiene.',
  resending: (count: number) =>
    count === 1
      ? 'El servidor se restauró desde su copia y le faltaba 1 envío de este teléfono: se vuelve a enviar.'
      : `El servidor se restauró desde su copia y le faltaban ${count} envíos de este teléfono: se vuelven a enviar.`,
} as const;
