import { useState } from 'react';
import { photoReviewMessages } from '#shared/features/photo-review/photo-review';
import { buttonClass } from '#web/platform/ui/back-office';
import { SelectField, TextField } from '#web/platform/ui/fields';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useSendOnce } from '#web/platform/ui/use-draft-form';
import { useChangeReviewGrant, useReviewGrants } from '../api/review-grants';

/** Admins: who reviews the photos of which municipality (decision 134). */
export function ReviewersAdmin() {
  const grants = useReviewGrants(true);
  const change = useChangeReviewGrant();
  const once = useSendOnce();
  const [email, setEmail] = useState('');
  const [slug, setSlug] = useState('');
  const [said, setSaid] = useState('');

  return (
    <section aria-labelledby="revisores" className="mt-10 rounded-xl border border-stone-200 bg-white p-4">
      <h2 id="revisores" className="text-xl font-bold text-stone-900">
        Revisores
      </h2>
      <p className="mt-1 text-stone-700">
        Quien nombres aquí revisa las fotos de los municipios que le des (nunca las que subió). Los admins revisan
        todos.
      </p>
      <form
        className="mt-3 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!email || !slug) return;
          // One request at a time (a double click names the reviewer once); a refusal shows as every one does.
          once.send(() =>
            change
              .mutateAsync({ how: 'POST', input: { email, slug } })
              .then(() => {
                setSaid(photoReviewMessages.grantAdded);
                setEmail('');
              })
              .catch(() => undefined),
          );
        }}
      >
        <div className="w-full sm:w-80">
          <TextField label="Correo" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </div>
        <div className="w-full sm:w-64">
          <SelectField label="Municipio" value={slug} onChange={(e) => setSlug(e.target.value)} required>
            <option value="">Elige un municipio</option>
            {(grants.data?.municipalities ?? []).map((m) => (
              <option key={m.slug} value={m.slug}>
                {m.title}
              </option>
            ))}
          </SelectField>
        </div>
        <SubmitButton sending={once.sending} sendingLabel="Nombrando…">
          Nombrar revisor
        </SubmitButton>
      </form>
      <p role="status" className="mt-2 text-emerald-900">
        {said}
      </p>
      {grants.isPending ? (
        <Spinner />
      ) : grants.isError ? (
        <ErrorNotice message={grants.error.message} onRetry={() => grants.refetch()} />
      ) : grants.data.grants.length === 0 ? (
        <p className="mt-2 text-stone-700">Todavía no hay revisores.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-200" aria-label="Revisores y sus municipios">
          {grants.data.grants.map((g) => (
            <li key={`${g.email} ${g.slug}`} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="break-all text-stone-900">
                {g.email} · <span className="text-stone-700">{g.title}</span>
              </span>
              <button
                type="button"
                className={buttonClass.small}
                aria-label={`Quitar a ${g.email} de ${g.title}`}
                onClick={() =>
                  change.mutate(
                    { how: 'DELETE', input: { email: g.email, slug: g.slug } },
                    { onSuccess: () => setSaid(photoReviewMessages.grantRemoved) },
                  )
                }
              >
                Quitar
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
