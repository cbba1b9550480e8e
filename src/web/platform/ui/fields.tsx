import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';
import { inputClass, labelClass } from './back-office';

interface FieldFrameProps {
  label: string;
  /** Shown under the field, and read with it. */
  hint?: ReactNode;
  error?: string | undefined;
}

/** The label, hint and error of a field, tied to it (aria-describedby, aria-invalid). */
function useFieldIds(hint: ReactNode, error: string | undefined, given?: string) {
  const generated = useId();
  const id = given ?? generated;
  const hintId = `${id}-ayuda`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return { id, hintId, errorId, describedBy, invalid: error ? true : undefined };
}

function Frame({
  label,
  hint,
  error,
  ids,
  children,
}: FieldFrameProps & { ids: ReturnType<typeof useFieldIds>; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={ids.id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint && (
        <p id={ids.hintId} className="text-sm text-stone-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.errorId} className="text-sm font-semibold text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

export type TextFieldProps = FieldFrameProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'>;

export function TextField({ label, hint, error, ...input }: TextFieldProps) {
  const ids = useFieldIds(hint, error);
  return (
    <Frame label={label} hint={hint} error={error} ids={ids}>
      <input
        id={ids.id}
        className={inputClass}
        aria-invalid={ids.invalid}
        aria-describedby={ids.describedBy}
        {...input}
      />
    </Frame>
  );
}

export type TextAreaFieldProps = FieldFrameProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'>;

export function TextAreaField({ label, hint, error, ...textarea }: TextAreaFieldProps) {
  const ids = useFieldIds(hint, error);
  return (
    <Frame label={label} hint={hint} error={error} ids={ids}>
      <textarea
        id={ids.id}
        className={`${inputClass} min-h-24`}
        aria-invalid={ids.invalid}
        aria-describedby={ids.describedBy}
        {...textarea}
      />
    </Frame>
  );
}

export type SelectFieldProps = FieldFrameProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'> & {
    children: ReactNode;
    /** A fixed id, where a page names its fields (links and tests find them by it); one is made otherwise. */
    id?: string;
  };

export function SelectField({ label, hint, error, children, id, ...select }: SelectFieldProps) {
  const ids = useFieldIds(hint, error, id);
  return (
    <Frame label={label} hint={hint} error={error} ids={ids}>
      <select
        id={ids.id}
        className={inputClass}
        aria-invalid={ids.invalid}
        aria-describedby={ids.describedBy}
        {...select}
      >
        {children}
      </select>
    </Frame>
  );
}

/** Choosing one municipality or parish, or every one ('Todos', the value ''): the lists' filters. */
export function DepartmentSelect({
  departments,
  ...select
}: Omit<SelectFieldProps, 'children'> & { departments: readonly { slug: string; title: string }[] }) {
  return (
    <SelectField {...select}>
      <option value="">Todos</option>
      {departments.map((d) => (
        <option key={d.slug} value={d.slug}>
          {d.title}
        </option>
      ))}
    </SelectField>
  );
}

/** First message per field of a zod error, keyed by the field's name. */
export function fieldErrors(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}
