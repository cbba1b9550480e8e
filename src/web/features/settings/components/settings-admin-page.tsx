import { useEffect } from 'react';
import { toast } from 'react-toastify/unstyled';
import { type AdminSettings, adminSettingsSchema, PHOTO_MAX_MB_BOUNDS } from '#shared/features/settings/settings';
import { showsOwnError } from '#web/platform/lib/mutation-errors';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { cardClass } from '#web/platform/ui/back-office';
import { TextField } from '#web/platform/ui/fields';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { SubmitButton } from '#web/platform/ui/submit-button';
import { useDraftForm } from '#web/platform/ui/use-draft-form';
import { useSettings } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';

type Flags = 'photoSendOriginals' | 'requireSecondFactorAdmins';
type Draft = { [K in Exclude<keyof AdminSettings, Flags>]: string } & { [K in Flags]: boolean };

const toDraft = (s: AdminSettings): Draft => ({
  campaignName: s.campaignName,
  leaderName: s.leaderName,
  resultsDenominator: String(s.resultsDenominator),
  logoutRoute: s.logoutRoute,
  photoMaxMb: String(s.photoMaxMb),
  photoSendOriginals: s.photoSendOriginals,
  requireSecondFactorAdmins: s.requireSecondFactorAdmins ?? false,
});

/** A number typed by a person: blank is not zero. */
const asNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.')));

/** Settings: campaign and leader names, results denominator, logout route, photo size limit. */
export default function SettingsAdminPage() {
  useDocumentTitle('Ajustes · Administración');
  const settings = useSettings();
  if (settings.isPending) return <Spinner />;
  if (settings.isError) return <ErrorNotice message={settings.error.message} onRetry={() => settings.refetch()} />;
  return <SettingsForm current={settings.data} />;
}

function SettingsForm({ current }: { current: AdminSettings }) {
  const form = useDraftForm(adminSettingsSchema, () => toDraft(current), {
    body: (draft) => ({
      ...draft,
      resultsDenominator: asNumber(draft.resultsDenominator),
      photoMaxMb: asNumber(draft.photoMaxMb),
    }),
  });
  const { draft, errors, field, reset, set } = form;
  const save = useUpdateSettings(showsOwnError);
  useEffect(() => reset(toDraft(current)), [current, reset]);

  const submit = form.submit((body) =>
    save.mutateAsync(body).then(
      () => toast.success('Ajustes guardados'),
      (e: Error) => form.showErrors({ form: e.message }),
    ),
  );

  return (
    <section aria-labelledby="ajustes-titulo" className="flex max-w-2xl flex-col gap-4">
      <h2 id="ajustes-titulo" className="text-2xl font-bold text-stone-900">
        Ajustes
      </h2>
      <form noValidate onSubmit={submit} className={`${cardClass} flex flex-col gap-5`}>
        <TextField
          label="Nombre de la campaña"
          {...field('campaignName')}
          hint="Aparece en la barra superior."
          maxLength={80}
        />
        <TextField
          label="Nombre del líder"
          {...field('leaderName')}
          hint="Acompaña la fecha en el título de la agenda."
          maxLength={120}
        />
        <TextField
          label="Denominador de resultados"
          {...field('resultsDenominator')}
          inputMode="numeric"
          hint="Los porcentajes de Resultados se calculan sobre este número de electores."
        />
        <TextField
          label="Ruta al cerrar sesión"
          {...field('logoutRoute')}
          spellCheck={false}
          autoCapitalize="none"
          hint="Una ruta de este sitio, por ejemplo / o /agenda."
        />
        <TextField
          label="Tamaño máximo de foto (MB)"
          {...field('photoMaxMb')}
          inputMode="numeric"
          hint={`Para las fotos de boletas y de candidatos; entre ${PHOTO_MAX_MB_BOUNDS.min} y ${PHOTO_MAX_MB_BOUNDS.max} MB.`}
        />
        <div className="flex items-start gap-3">
          <input
            id="ajustes-fotos-originales"
            type="checkbox"
            className="mt-1 h-5 w-5 accent-brand"
            checked={draft.photoSendOriginals}
            onChange={(e) => set('photoSendOriginals', e.target.checked)}
            aria-describedby="ajustes-fotos-originales-ayuda"
          />
          <div>
            <label htmlFor="ajustes-fotos-originales" className="font-semibold text-stone-900">
              Enviar las fotos de boletas originales
            </label>
            <p id="ajustes-fotos-originales-ayuda" className="text-sm text-stone-700">
              Si no se marca, el teléfono envía cada foto como JPEG de hasta 2560 px por lado: varias veces más liviana
              y legible, lo que cuenta con mala señal.
            </p>
          </div>
        </div>
        <div className="flex items-start gap-3">
          <input
            id="ajustes-segundo-factor"
            type="checkbox"
            className="mt-1 h-5 w-5 accent-brand"
            checked={draft.requireSecondFactorAdmins}
            onChange={(e) => set('requireSecondFactorAdmins', e.target.checked)}
            aria-describedby="ajustes-segundo-factor-ayuda"
          />
          <div>
            <label htmlFor="ajustes-segundo-factor" className="font-semibold text-stone-900">
              Exigir segundo factor a los administradores
            </label>
            <p id="ajustes-segundo-factor-ayuda" className="text-sm text-stone-700">
              Al entrar, cada administrador escribe además un código de su aplicación de autenticación; quien no la
              tenga configurada la configura en ese momento.
            </p>
          </div>
        </div>
        {errors.form && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
            {errors.form}
          </p>
        )}
        <div>
          <SubmitButton sending={form.sending} sendingLabel="Guardando…">
            Guardar ajustes
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
