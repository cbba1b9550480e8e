import { type ChangeEvent, type FormEvent, useCallback, useState } from 'react';
import type { z } from 'zod';
import { fieldErrors } from './fields';

/**
 * A form kept as a draft of strings and checked on submit with the zod schema the server checks the
 * request with. `field(key)` gives a field its name, value, error and change handler; `submit(onValid)`
 * either shows each field's first error or hands over the parsed body; `reset(draft)` starts again
 * (a dialog that opens on another item).
 */
export function useDraftForm<Draft extends { [K in keyof Draft]: string }, Schema extends z.ZodType>(
  schema: Schema,
  initial: () => Draft,
) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const reset = useCallback((next: Draft) => {
    setDraft(next);
    setErrors({});
  }, []);
  const field = (key: keyof Draft & string) => ({
    name: key,
    value: draft[key],
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      const { value } = e.target;
      setDraft((current) => ({ ...current, [key]: value }));
    },
  });
  const submit = (onValid: (body: z.output<Schema>) => void) => (e: FormEvent) => {
    e.preventDefault();
    const parsed = schema.safeParse(draft);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    onValid(parsed.data);
  };
  return { errors, field, submit, reset };
}
