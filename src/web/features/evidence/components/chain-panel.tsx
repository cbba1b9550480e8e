import { useId, useState } from 'react';
import { chainCheckLabel } from '#shared/features/evidence/evidence';
import { buttonClass, cardClass } from '#web/platform/ui/back-office';
import { DepartmentSelect } from '#web/platform/ui/fields';
import { useCheckChain } from '../api/check-chain';
import { evidencePackageUrl, useChainState } from '../api/get-chain-state';

/**
 * Auditoría's evidence panel: how far the audit chain was last verified ('Cadena verificada hasta el
 * registro n, hh:mm'), a button that verifies it now, and the evidence package of one municipality or all.
 */
export default function ChainPanel({ municipalities }: { municipalities: { slug: string; title: string }[] }) {
  const state = useChainState();
  const check = useCheckChain();
  const [department, setDepartment] = useState('');
  const selectId = useId();
  const last = state.data?.lastCheck ?? null;

  return (
    <section aria-labelledby={`${selectId}-titulo`} className={`${cardClass} flex flex-col gap-3`}>
      <h2 id={`${selectId}-titulo`} className="text-xl font-bold text-stone-900">
        Cadena de auditoría y evidencias
      </h2>
      <div className="flex flex-wrap items-center gap-3">
        <p aria-live="polite" className={last && !last.ok ? 'font-semibold text-red-800' : 'text-stone-800'}>
          {state.isPending ? 'Consultando la cadena…' : chainCheckLabel(last)}
        </p>
        <button type="button" className={buttonClass.small} disabled={check.isPending} onClick={() => check.mutate()}>
          {check.isPending ? 'Verificando…' : 'Verificar ahora'}
        </button>
      </div>
      {last && !last.ok && last.firstProblems.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-stone-800">
          {last.firstProblems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <DepartmentSelect
          id={selectId}
          label="Municipio del paquete"
          value={department}
          onChange={(e) => setDepartment(e.target.value)}
          departments={municipalities}
        />
        <a href={evidencePackageUrl(department)} download className={buttonClass.secondary}>
          Descargar paquete de evidencias
        </a>
      </div>
    </section>
  );
}
