import { atTime, dayAndTime } from '#shared/platform/format';

/**
 * Says the phone has no connection: the list is the copy kept on the phone (and since when), and what
 * is done now waits on the phone until the connection comes back.
 */
export function OfflineBanner({ savedAt }: { savedAt: number | undefined }) {
  const saved = savedAt === undefined ? undefined : dayAndTime(new Date(savedAt).toISOString());
  return (
    <div role="status" className="mt-3 rounded-lg border-2 border-amber-400 bg-amber-50 px-4 py-3 text-amber-950">
      <p className="font-bold">Sin conexión</p>
      <p className="text-sm">
        {saved ? `Lista guardada en el teléfono el ${saved.day} ${atTime(saved.time)} ` : ''}
        Lo que votes o fotografíes queda guardado en el teléfono y se envía solo cuando vuelva la conexión.
      </p>
    </div>
  );
}
