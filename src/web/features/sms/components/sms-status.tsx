import { SMS_OUTCOME_LABELS, type SmsStatus, smsMessagesText } from '#shared/features/sms/sms';
import { formatDateTime } from '#web/platform/lib/format';
import { badgeClass, buttonClass, cardClass } from '#web/platform/ui/back-office';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { useSmsStatus } from '../api/get-sms-status';

/** '+584145556677' as a Venezuelan writes it, '0414-555 66 77'; any other number as it is. */
export function localPhone(phone: string): string {
  const m = /^\+58(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(phone);
  return m ? `0${m[1]}-${m[2]} ${m[3]} ${m[4]}` : phone;
}

/**
 * The top of 'Mensajes': whether SMS votes are on, whether the gateway answered just now, the number
 * validators text and the last message received, so a coordinator can tell a quiet gateway from a
 * broken one without reading the server's logs.
 */
export function SmsStatusPanel() {
  const status = useSmsStatus();
  return (
    <section aria-labelledby="sms-estado-titulo" className={cardClass} data-testid="estado-sms">
      <h3 id="sms-estado-titulo" className="text-lg font-bold text-stone-900">
        Estado de los SMS
      </h3>
      {status.isPending ? (
        <Spinner />
      ) : status.isError ? (
        <ErrorNotice message={status.error.message} onRetry={() => status.refetch()} />
      ) : (
        <StatusDetails status={status.data} checking={status.isFetching} onCheck={() => status.refetch()} />
      )}
    </section>
  );
}

function StatusDetails({ status, checking, onCheck }: { status: SmsStatus; checking: boolean; onCheck: () => void }) {
  if (!status.configured || !status.gateway) {
    return (
      <div className="mt-2 flex flex-col gap-2 text-stone-800">
        <p>
          <span className={badgeClass.neutral}>Apagados</span>
        </p>
        <p>{smsMessagesText.off}</p>
        <p>Mientras tanto, las tarjetas de los validadores no muestran el código SMS.</p>
      </div>
    );
  }
  const { gateway, phone, lastReceived } = status;
  return (
    <div className="mt-2 flex flex-col gap-3">
      <dl className="grid gap-x-6 gap-y-2 text-stone-800 sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="font-semibold text-stone-900">Pasarela</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-2">
          {gateway.answering ? (
            <span className={badgeClass.ok}>Responde</span>
          ) : (
            <>
              <span className={badgeClass.danger}>No responde</span>
              {gateway.reason && <span className="break-words text-red-800">{gateway.reason}</span>}
            </>
          )}
          <span className="text-sm text-stone-600">comprobado: {formatDateTime(status.checkedAt)}</span>
        </dd>
        <dt className="font-semibold text-stone-900">Número para votar</dt>
        <dd className="min-w-0">
          {phone ? (
            <span className="font-mono text-lg font-bold whitespace-nowrap text-stone-900">{localPhone(phone)}</span>
          ) : (
            <span>Sin indicar: ponlo en SMS_GATEWAY_PHONE para que aparezca aquí.</span>
          )}
        </dd>
        <dt className="font-semibold text-stone-900">Último mensaje recibido</dt>
        <dd className="min-w-0">
          {lastReceived ? (
            <>
              <time dateTime={lastReceived.at}>{formatDateTime(lastReceived.at)}</time>, de{' '}
              <span className="whitespace-nowrap">{localPhone(lastReceived.phone)}</span>
              {lastReceived.userEmail && <span className="break-all"> ({lastReceived.userEmail})</span>}:{' '}
              {SMS_OUTCOME_LABELS[lastReceived.outcome]}
            </>
          ) : (
            'Ninguno todavía.'
          )}
        </dd>
      </dl>
      <button type="button" className={`${buttonClass.secondary} self-start`} disabled={checking} onClick={onCheck}>
        {checking ? 'Comprobando…' : 'Comprobar de nuevo'}
      </button>
    </div>
  );
}
