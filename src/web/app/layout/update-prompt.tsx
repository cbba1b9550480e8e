/** 'Nueva versión disponible': the new version is on the phone; it is used once the person accepts. */
export function UpdatePrompt({ onUpdate, onLater }: { onUpdate: () => void; onLater: () => void }) {
  return (
    <section
      aria-label="Nueva versión"
      className="fixed inset-x-3 bottom-3 z-40 mx-auto flex max-w-md flex-col gap-3 rounded-xl border-2 border-brand bg-white p-4 shadow-xl sm:flex-row sm:items-center"
    >
      <p className="flex-1 font-semibold text-stone-900" role="status">
        Nueva versión disponible
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          onClick={onLater}
          className="rounded-lg border-2 border-stone-300 px-3 py-2 font-semibold text-stone-800 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand"
        >
          Después
        </button>
        <button
          type="button"
          onClick={onUpdate}
          className="rounded-lg bg-brand px-3 py-2 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
        >
          Actualizar
        </button>
      </div>
    </section>
  );
}
