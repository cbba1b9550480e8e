import { toast } from 'react-toastify/unstyled';
import { messages } from '#shared/platform/messages';
import { copyToClipboard } from '#web/platform/lib/copy-to-clipboard';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { ErrorNotice, Page, Spinner } from '#web/platform/ui/page';
import { agendaAsText, agendaTitle, toDisplayEvents } from '../agenda-text';
import { useAgendaToday } from '../api/get-agenda-today';
import { AgendaEventList } from './agenda-event-list';

export function AgendaPage() {
  useDocumentTitle('Agenda');
  const agenda = useAgendaToday();

  if (agenda.isPending) {
    return (
      <Page>
        <Spinner label="Cargando la agenda…" />
      </Page>
    );
  }
  if (agenda.isError) {
    return (
      <Page>
        <ErrorNotice message={agenda.error.message} onRetry={() => agenda.refetch()} />
      </Page>
    );
  }

  const data = agenda.data;
  const events = toDisplayEvents(data);
  const copy = async () => {
    try {
      await copyToClipboard(agendaAsText(data));
      toast.success(messages.agenda.copied);
    } catch {
      toast.error(messages.agenda.copyFailed);
    }
  };

  return (
    <Page>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <h1 className="flex flex-col">
          <span className="text-3xl font-black tracking-tight text-brand" data-testid="agenda-date">
            {agendaTitle(data)}
          </span>
          <span className="text-xl font-semibold text-stone-700" data-testid="agenda-leader">
            {data.leaderName}
          </span>
        </h1>
        {events.length > 0 && (
          <button
            type="button"
            onClick={copy}
            // Without the app, a public page's own script answers this button (app/public/copy-agenda.ts).
            data-action="copy-agenda"
            className="rounded-lg bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
          >
            Copiar agenda
          </button>
        )}
      </header>
      {events.length > 0 ? (
        <AgendaEventList events={events} />
      ) : (
        <p className="rounded-xl border border-dashed border-stone-300 bg-white p-6 text-center text-stone-600">
          {messages.agenda.empty}
        </p>
      )}
    </Page>
  );
}
