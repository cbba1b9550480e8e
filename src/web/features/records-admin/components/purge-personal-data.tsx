import { useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { PURGE_CONFIRMATION } from '#shared/features/records-admin/records-admin';
import { countOf, formatCount } from '#shared/platform/format';
import { cardClass } from '#web/platform/ui/back-office';
import { usePurgePersonalData } from '../api/purge-personal-data';

const buttonDanger =
  'rounded-lg bg-red-800 px-4 py-2 font-bold text-white hover:bg-red-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-800 disabled:cursor-wait disabled:bg-stone-300 disabled:text-stone-900';
const buttonPlain =
  'rounded-lg border border-stone-400 px-4 py-2 font-semibold text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand';

/**
 * 'Borrar datos personales', after the election (decision 081). Asked twice: the button, then the
 * sentence typed; the server checks the sentence again and is the one that decides.
 */
export function PurgePersonalData() {
  const id = useId();
  const [photos, setPhotos] = useState<'keep' | 'remove'>('keep');
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const purge = usePurgePersonalData();

  const run = () => {
    if (purge.isPending || typed.trim() !== PURGE_CONFIRMATION) return;
    purge.mutate(
      { photos, confirm: PURGE_CONFIRMATION },
      {
        onSuccess: (done) => {
          toast.success(
            `Datos personales borrados de ${countOf(done.records, 'trámite', 'trámites')}` +
              (photos === 'remove' ? `; archivos de fotos borrados: ${formatCount(done.photoFilesRemoved)}.` : '.'),
          );
          // What could not be finished now (Dropbox did not answer, a disk too full): running it again does.
          if (done.sharedLinksLeft > 0) {
            toast.warn(
              `${formatCount(done.sharedLinksLeft)} de ${formatCount(done.sharedLinks)} copias publicadas en Dropbox no se pudieron retirar: vuelve a borrar los datos personales.`,
            );
          }
          if (!done.databaseRewritten) {
            toast.warn('No se pudo reescribir el archivo de la base de datos: vuelve a borrar los datos personales.');
          }
          setAsking(false);
          setTyped('');
        },
      },
    );
  };

  return (
    <section aria-labelledby={`${id}-titulo`} className={`${cardClass} flex max-w-2xl flex-col gap-3 border-red-200`}>
      <h3 id={`${id}-titulo`} className="text-xl font-bold text-red-900">
        Borrar datos personales
      </h3>
      <p className="text-stone-700">
        Después de la elección: los nombres quedan en iniciales y los teléfonos se borran. Los votos, los conteos, los
        resultados y la auditoría no cambian. No se puede deshacer, y las copias de seguridad anteriores conservan los
        datos: bórralas también.
      </p>
      <fieldset className="flex flex-col gap-1">
        <legend className="font-semibold text-stone-900">Fotos de boletas</legend>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={`${id}-fotos`}
            checked={photos === 'keep'}
            onChange={() => setPhotos('keep')}
            className="h-5 w-5 accent-brand"
          />
          Conservar las fotos de boletas
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={`${id}-fotos`}
            checked={photos === 'remove'}
            onChange={() => setPhotos('remove')}
            className="h-5 w-5 accent-brand"
          />
          Borrar también las fotos de boletas
        </label>
      </fieldset>
      {!asking ? (
        <div>
          <button type="button" className={buttonDanger} onClick={() => setAsking(true)}>
            Borrar datos personales
          </button>
        </div>
      ) : (
        <fieldset className="flex flex-col gap-2 rounded-lg bg-red-50 p-3">
          <legend className="sr-only">Confirmar el borrado</legend>
          <label htmlFor={`${id}-confirmar`} className="font-semibold text-red-900">
            Escribe {PURGE_CONFIRMATION} para confirmar
          </label>
          <input
            id={`${id}-confirmar`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            className="w-full rounded-lg border-2 border-stone-300 bg-white px-3 py-2 text-base text-stone-900"
          />
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonDanger}
              onClick={run}
              disabled={purge.isPending || typed.trim() !== PURGE_CONFIRMATION}
              aria-busy={purge.isPending || undefined}
            >
              Borrar definitivamente
            </button>
            <button type="button" className={buttonPlain} onClick={() => setAsking(false)}>
              Cancelar
            </button>
          </div>
        </fieldset>
      )}
    </section>
  );
}
