import { type ChangeEvent, type FormEvent, useCallback, useState } from 'react';
import type { z } from 'zod';
import { fieldErrors } from './fields';

/** The keys of a draft whose values are text (what an input, a textarea or a select edits). */
type TextKey<Draft> = { [K in keyof Draft]: Draft[K] extends string ? K : never }[keyof Draft] & string;

export interface DraftFormOptions<Draft> {
  /**
   * The request body the schema checks, made from the draft: numbers typed as text, fields a mode leaves
   * out. Without it, the draft itself is checked.
   */
  body?: (draft: Draft) => unknown;
  /**
   * What the schema cannot check, by field (a repeated password, what a rich-text field holds), given the
   * schema's errors. Its errors block the submit like the schema's.
   */
  check?: (draft: Draft, errors: Readonly<Record<string, string>>) => Partial<Record<string, string>>;
}

/**
 * A form kept as a draft and checked on submit with the zod schema the server checks the request with
 * (decision 020). Text fields are strings; ticks, choices and lists may be any value. `field(key)` gives
 * a text field its name, value, error and change handler; `set(key, value)` changes any field;
 * `submit(onValid)` either shows each field's first error or hands over the parsed body (with or without
 * the form's event, for a dialog's confirm button); `showErrors` shows errors from elsewhere (the
 * server's answer, under `form` when it is about no field) until the next submit; `reset(draft)` starts
 * again (a dialog that opens on another item).
 */
export function useDraftForm<Draft extends object, Schema extends z.ZodType>(
  schema: Schema,
  initial: () => Draft,
  options: DraftFormOptions<Draft> = {},
) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const reset = useCallback((next: Draft) => {
    setDraft(next);
    setErrors({});
  }, []);
  const set = useCallback(<K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
  }, []);
  const showErrors = useCallback((next: Record<string, string>) => setErrors(next), []);
  const clearError = useCallback((key: string) => {
    setErrors((current) => {
      if (!(key in current)) return current;
      const { [key]: _cleared, ...rest } = current;
      return rest;
    });
  }, []);
  const field = (key: TextKey<Draft>) => ({
    name: key,
    value: draft[key] as string,
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      set(key, e.target.value as Draft[typeof key]);
    },
  });
  const submit = (onValid: (body: z.output<Schema>) => void) => (e?: FormEvent) => {
    e?.preventDefault();
    const parsed = schema.safeParse(options.body ? options.body(draft) : draft);
    const found = parsed.success ? {} : fieldErrors(parsed.error.issues);
    const more = options.check?.(draft, found) ?? {};
    for (const [key, message] of Object.entries(more)) if (message) found[key] ??= message;
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    onValid(parsed.data);
  };
  return { draft, errors, field, set, submit, showErrors, clearError, reset };
}
