import { formatCount } from '#shared/platform/format';
import { buttonClass } from './back-office';

export interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** What is being counted, plural: 'personas', 'registros'. */
  noun: string;
}

/** "Mostrando 1.001–1.050 de 5.373 registros" with previous and next buttons. */
export function Pager({ page, pageSize, total, onPage, noun }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav aria-label={`Páginas de ${noun}`} className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-stone-700">
        Mostrando {formatCount(first)}–{formatCount(last)} de {formatCount(total)} {noun}
      </p>
      {pages > 1 && (
        <div className="flex gap-2">
          <button type="button" className={buttonClass.secondary} disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Anterior
          </button>
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={page >= pages}
            onClick={() => onPage(page + 1)}
          >
            Siguiente
          </button>
        </div>
      )}
    </nav>
  );
}
