import { useState } from 'react';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { SMS_OUTCOME_LABELS, type SmsMessage, type SmsOutcome, smsMessagesText } from '#shared/features/sms/sms';
import { formatDateTime } from '#web/platform/lib/format';
import { useDebouncedValue } from '#web/platform/lib/use-debounced-value';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { badgeClass, buttonClass, cardClass } from '#web/platform/ui/back-office';
import { DepartmentSelect, TextField } from '#web/platform/ui/fields';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { useSmsMessages } from '../api/get-sms-messages';
import { SmsStatusPanel } from './sms-status';

const OUTCOME_BADGE: Record<SmsOutcome, string> = {
  recibido: badgeClass.neutral,
  aplicado: badgeClass.ok,
  repetido: badgeClass.ok,
  rechazado: badgeClass.danger,
  malformado: badgeClass.danger,
  limitado: badgeClass.danger,
  enviado: badgeClass.neutral,
  fallido: badgeClass.danger,
};

/**
 * 'Mensajes': every SMS received and sent for votes by SMS, newest first, with what came of each
 * (applied, refused and why, badly written), by municipality and by number.
 */
export default function SmsMessagesPage({ departments }: { departments: AdminDepartment[] }) {
  useDocumentTitle('Mensajes · Administración');
  const [department, setDepartment] = useState('');
  const [phoneDraft, setPhoneDraft] = useState('');
  const phone = useDebouncedValue(phoneDraft.trim());
  const messages = useSmsMessages({ department, phone });
  const items = messages.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section aria-labelledby="mensajes-titulo" className="flex flex-col gap-4">
      <h2 id="mensajes-titulo" className="text-2xl font-bold text-stone-900">
        {smsMessagesText.title}
      </h2>
      <p className="text-stone-700">
        Los SMS que los validadores envían para votar (V código candidatos) y las respuestas que reciben.
      </p>
      <SmsStatusPanel />
      <search>
        <form className="grid gap-3 sm:grid-cols-2 lg:max-w-3xl" onSubmit={(e) => e.preventDefault()}>
          <DepartmentSelect
            id="mensajes-departamento"
            label="Municipio o parroquia"
            value={department}
            onChange={(e) => setDepartment(e.target.value)}
            departments={departments}
          />
          <TextField
            label="Número"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            hint="Como se escriba: 0414-123 45 67 o +58 414 1234567."
            value={phoneDraft}
            onChange={(e) => setPhoneDraft(e.target.value)}
          />
        </form>
      </search>
      <p className="text-sm text-stone-600">Fechas y horas de Caracas.</p>
      {messages.isPending ? (
        <Spinner />
      ) : messages.isError ? (
        <ErrorNotice message={messages.error.message} onRetry={() => messages.refetch()} />
      ) : items.length === 0 ? (
        <p className="rounded-lg bg-white p-4 text-stone-700">{smsMessagesText.empty}</p>
      ) : (
        <ol className="flex flex-col gap-2" aria-label="Mensajes SMS" aria-busy={messages.isFetching}>
          {items.map((m) => (
            <MessageRow key={m.id} message={m} />
          ))}
        </ol>
      )}
      {messages.hasNextPage && (
        <button
          type="button"
          className={`${buttonClass.secondary} self-center`}
          disabled={messages.isFetchingNextPage}
          onClick={() => messages.fetchNextPage()}
        >
          {messages.isFetchingNextPage ? 'Cargando…' : 'Cargar más mensajes'}
        </button>
      )}
    </section>
  );
}

function MessageRow({ message }: { message: SmsMessage }) {
  const received = message.direction === 'in';
  return (
    <li
      className={`${cardClass} grid gap-x-4 gap-y-1 p-3 md:grid-cols-[12rem_minmax(0,1fr)_minmax(0,1.4fr)] ${
        received ? '' : 'md:ml-8'
      }`}
    >
      <p className="text-sm text-stone-700 tabular-nums">
        <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
        <br />
        <span className="font-semibold text-stone-900">{received ? 'Recibido de' : 'Enviado a'}</span>{' '}
        <span className="whitespace-nowrap">{message.phone}</span>
      </p>
      <p className="min-w-0 text-sm text-stone-800">
        <span className="break-all">{message.userEmail ?? 'Número desconocido'}</span>
        {message.department && (
          <>
            <br />
            {message.department.title}
          </>
        )}
      </p>
      <div className="min-w-0">
        <p className="font-mono text-sm break-words whitespace-pre-wrap text-stone-900">{message.body}</p>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
          <span className={OUTCOME_BADGE[message.outcome]}>{SMS_OUTCOME_LABELS[message.outcome]}</span>
          {message.reason && received && <span className="text-stone-700">{message.reason}</span>}
          {message.reason && !received && <span className="text-red-800">{message.reason}</span>}
        </p>
      </div>
    </li>
  );
}
