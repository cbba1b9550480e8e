import { useId, useState } from 'react';
import type { AdminDepartment } from '#shared/features/departments/departments';
import { inputClass } from '#web/platform/ui/back-office';

export interface DepartmentChecklistProps {
  departments: Pick<AdminDepartment, 'slug' | 'title' | 'kind'>[];
  selected: string[];
  onChange: (selected: string[]) => void;
  legend?: string;
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Checkboxes for the staff pages and the municipalities, with a filter for the long list. */
export function DepartmentChecklist({
  departments,
  selected,
  onChange,
  legend = 'Departamentos',
}: DepartmentChecklistProps) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const shown = departments.filter((d) => !filter || fold(`${d.title} ${d.slug}`).includes(fold(filter)));
  const toggle = (slug: string) =>
    onChange(selected.includes(slug) ? selected.filter((s) => s !== slug) : [...selected, slug]);
  const groups = [
    { title: 'Páginas del personal', items: shown.filter((d) => d.kind === 'page') },
    { title: 'Municipios y parroquias', items: shown.filter((d) => d.kind === 'municipality') },
  ];
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="font-semibold text-stone-800">
        {legend}{' '}
        <span className="font-normal text-stone-600">
          ({selected.length} {selected.length === 1 ? 'elegido' : 'elegidos'})
        </span>
      </legend>
      <label htmlFor={`${id}-filtro`} className="sr-only">
        Filtrar departamentos
      </label>
      <input
        id={`${id}-filtro`}
        type="search"
        className={inputClass}
        placeholder="Filtrar departamentos…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <div className="max-h-72 overflow-y-auto rounded-lg border border-stone-200 p-2">
        {groups.map(
          (g) =>
            g.items.length > 0 && (
              <div key={g.title} className="mb-2 last:mb-0">
                <p className="px-1 py-1 text-sm font-semibold text-stone-600">{g.title}</p>
                <ul className="grid gap-1 sm:grid-cols-2">
                  {g.items.map((d) => (
                    <li key={d.slug}>
                      <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 py-1.5 hover:bg-stone-50">
                        <input
                          type="checkbox"
                          className="h-5 w-5 shrink-0 accent-brand"
                          checked={selected.includes(d.slug)}
                          onChange={() => toggle(d.slug)}
                        />
                        <span className="text-stone-900">{d.title}</span>
                      </label>
                    </li>
                  ))}
                </ul>
              </div>
            ),
        )}
        {shown.length === 0 && <p className="p-2 text-stone-600">Ningún departamento coincide.</p>}
      </div>
    </fieldset>
  );
}
