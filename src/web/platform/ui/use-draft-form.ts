import { type ChangeEvent, type FormEvent, useCallback, useRef, useState } from 'react';
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
 *
 * A form sends once (decision 066): when `onValid` returns its request's promise, `sending` is true until
 * that promise settles and every submit meanwhile is ignored (useSendOnce, below);
 * `<SubmitButton sending={form.sending}>` shows it.
 */
export function useDraftForm<Draft extends object, Schema extends z.ZodType>(
  schema: Schema,
  initial: () => Draft,
  options: DraftFormOptions<Draft> = {},
) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const once = useSendOnce();
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
  /** `onValid` returns its request's promise (settled either way, it ends the sending), or nothing. */
  const submit = (onValid: (body: z.output<Schema>) => unknown) => (e?: FormEvent) => {
    e?.preventDefault();
    if (once.isSending()) return;
    const parsed = schema.safeParse(options.body ? options.body(draft) : draft);
    const found = parsed.success ? {} : fieldErrors(parsed.error.issues);
    const more = options.check?.(draft, found) ?? {};
    for (const [key, message] of Object.entries(more)) if (message) found[key] ??= message;
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    once.send(() => onValid(parsed.data));
  };
  return { draft, errors, field, set, submit, sending: once.sending, showErrors, clearError, reset };
}

const isRequest = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';

/**
 * Sends one request at a time (decision 066): `send(start)` runs `start` unless a request it started is
 * still on the network, and `sending` stays true until the promise `start` returned settles. The lock is
 * a ref, set in the same event as the first send: a double click's second click arrives before React has
 * drawn the disabled button, and before a mutation's `isPending` reaches the screen. useDraftForm sends
 * through it; a form off the draft hook (the records import) uses it directly.
 */
export function useSendOnce() {
  const [sending, setSending] = useState(false);
  const busy = useRef(false);
  const isSending = useCallback(() => busy.current, []);
  const send = useCallback((start: () => unknown) => {
    if (busy.current) return;
    const request = start();
    if (!isRequest(request)) return;
    busy.current = true;
    setSending(true);
    const done = () => {
      busy.current = false;
      setSending(false);
    };
    request.then(done, done);
  }, []);
  return { sending, send, isSending };
}
