import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ImportEvent,
  type ImportMode,
  type ImportResult,
  recordsImportMessages,
} from '#shared/features/records-import/records-import';
import { messages } from '#shared/platform/messages';
import { ApiError } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { recordsQueryRoots } from '#web/platform/lib/query-keys';

const IMPORT_IDLE_TIMEOUT_MS = 60_000;

export interface ImportRecordsInput {
  file: File;
  mode: ImportMode;
  /** Municipality for the rows when the file has no department column. */
  department?: string;
  omitInvalid?: boolean;
}

/** Where an import is: the bytes going up, then the server's phases. */
export interface ImportProgress {
  phase: 'subiendo' | 'revisando' | 'guardando';
  done: number;
  total: number;
}

/** The answer: 200 (dry run, or nothing new), 201 (imported) or 422 (nothing imported, see the report). */
export interface ImportAnswer {
  status: number;
  body: ImportResult;
}

/**
 * Sends the CSV as multipart/form-data. XMLHttpRequest rather than fetch: it tells how the upload goes,
 * and reads the server's answer line by line as it arrives (application/x-ndjson): its phases, then the
 * result.
 */
export function importRecords(
  input: ImportRecordsInput,
  onProgress?: (p: ImportProgress) => void,
): Promise<ImportAnswer> {
  return new Promise((resolve, reject) => {
    const params = new URLSearchParams({ mode: input.mode });
    if (input.department) params.set('department', input.department);
    if (input.omitInvalid) params.set('omitInvalid', '1');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/admin/records/import?${params}`);
    xhr.setRequestHeader('accept', 'application/x-ndjson, application/json');
    xhr.withCredentials = true;
    let read = 0;
    let settled = false;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      fn();
    };
    // Nothing sent nor received for this long: the connection is gone (the server reports each phase).
    const armIdleTimer = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        finish(() => reject(new ApiError(0, messages.api.timeout)));
        xhr.abort();
      }, IMPORT_IDLE_TIMEOUT_MS);
    };
    const streaming = () => (xhr.getResponseHeader('content-type') ?? '').includes('application/x-ndjson');
    /** Handles the complete lines received so far. */
    const readLines = () => {
      if (!streaming()) return;
      const text = xhr.responseText;
      let end = text.indexOf('\n', read);
      while (end >= 0) {
        const line = text.slice(read, end).trim();
        read = end + 1;
        end = text.indexOf('\n', read);
        if (!line) continue;
        let event: ImportEvent;
        try {
          event = JSON.parse(line) as ImportEvent;
        } catch {
          continue;
        }
        if (event.type === 'progress') onProgress?.(event);
        else if (event.type === 'result') finish(() => resolve({ status: event.status, body: event.body }));
        else finish(() => reject(new ApiError(event.status, event.message)));
      }
    };
    xhr.upload.onprogress = (event) => {
      armIdleTimer();
      if (event.lengthComputable) onProgress?.({ phase: 'subiendo', done: event.loaded, total: event.total });
    };
    xhr.onprogress = () => {
      armIdleTimer();
      readLines();
    };
    xhr.onload = () => {
      readLines();
      if (settled) return;
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      const result = body as Partial<ImportResult> & { message?: string };
      if (result?.report) finish(() => resolve({ status: xhr.status, body: result as ImportResult }));
      else finish(() => reject(new ApiError(xhr.status, result?.message ?? messages.api.internal)));
    };
    xhr.onerror = () => finish(() => reject(new ApiError(0, messages.api.network)));
    xhr.onabort = () => finish(() => reject(new ApiError(0, recordsImportMessages.uploadAborted)));
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    armIdleTimer();
    xhr.send(form);
  });
}

export function useImportRecords(onProgress?: (p: ImportProgress) => void, settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: (input: ImportRecordsInput) => importRecords(input, onProgress),
    onSuccess: (answer) => {
      if (answer.body.report.applied) {
        void queryClient.invalidateQueries({ queryKey: recordsQueryRoots.admin });
        void queryClient.invalidateQueries({ queryKey: recordsQueryRoots.validation });
      }
    },
  });
}
