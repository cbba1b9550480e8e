import { useElection } from '../api/get-election';

/**
 * The 'SIMULACRO' band: on every staff page and the projector while the day is a drill, so that nobody
 * takes the drill's counts for the real ones. Nothing at all in any other phase.
 */
export function DrillBand({ enabled = true }: { enabled?: boolean }) {
  const election = useElection(enabled);
  if (election.data?.phase !== 'simulacro') return null;
  return (
    <div
      role="status"
      className="bg-amber-300 px-4 py-2 text-center text-lg font-black tracking-widest text-stone-950"
      data-testid="drill-band"
    >
      SIMULACRO
      <span className="ml-3 text-sm font-semibold tracking-normal">
        Lo que se registre ahora se borra al terminar el simulacro.
      </span>
    </div>
  );
}
