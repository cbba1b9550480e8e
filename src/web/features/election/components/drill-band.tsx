import { useElection } from '../api/get-election';

/**
 * The 'SIMULACRO' band: on every staff page and the projector while the day is a drill, so that nobody
 * takes the drill's counts for the real ones. Nothing at all in any other phase.
 */
export function DrillBand({ enabled = true, large = false }: { enabled?: boolean; large?: boolean }) {
  const election = useElection(enabled);
  if (election.data?.phase !== 'simulacro') return null;
  // On the projector: unmistakable from the back of a room, black on yellow between thick black edges.
  if (large) {
    return (
      <div
        role="status"
        className="border-y-[12px] border-black bg-yellow-300 px-[2vw] py-[1vh] text-center text-black"
        data-testid="drill-band"
      >
        <p className="text-[clamp(2.5rem,6vw,8rem)] leading-none font-black tracking-[0.2em]">SIMULACRO</p>
        <p className="mt-[0.5vh] text-[clamp(1.25rem,1.8vw,2.75rem)] font-bold">
          Estas cifras son de práctica: se borran al terminar el simulacro.
        </p>
      </div>
    );
  }
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
