import { useMemo } from 'react';
import { Link } from 'react-router';
import { messages } from '#shared/platform/messages';
import { basicSafeHtml } from '#web/platform/lib/safe-html';
import { paths } from '#web/platform/paths';

export interface ConfirmationScreenProps {
  /** Success message; simple formatting (<strong>, <em>, <br>) is kept, anything else is dropped. */
  messageHtml: string;
}

/** The spec's confirmation screen: a map, a success message and 'Ir a inicio'. */
export function ConfirmationScreen({ messageHtml }: ConfirmationScreenProps) {
  const safe = useMemo(() => basicSafeHtml(messageHtml), [messageHtml]);
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center gap-6 px-4 py-10 text-center"
      aria-labelledby="confirmation-title"
    >
      <img
        src="/img/mapa-zulia.svg"
        alt="Mapa del estado Zulia"
        width={320}
        height={240}
        className="h-auto w-64 max-w-full"
      />
      <h1
        id="confirmation-title"
        className="text-2xl font-bold text-brand"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: rebuilt from an allow-list by basicSafeHtml
        dangerouslySetInnerHTML={{ __html: safe }}
      />
      <Link
        to={paths.home}
        className="rounded-lg bg-brand px-6 py-3 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
      >
        {messages.goHome}
      </Link>
    </section>
  );
}
