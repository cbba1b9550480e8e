import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isUnavailable, isUncertainCommit } from '#server/platform/db/failures';
import { messages } from '#shared/platform/messages';

/**
 * An error whose message is Spanish and safe to show to a person. `extra`: more fields of its body, which
 * the route's schema for that status declares (a conflict may carry the thing as it is now).
 */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly headers: Record<string, string> = {},
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * What a use case refuses, by name, and the HTTP status each name answers with: the one place that maps
 * them (decision 104). Callers that are not HTTP (SMS, the Airtable import) read the name, never the status.
 */
const REFUSAL_STATUS = {
  /** The record does not exist, or is not where it was asked for. */
  not_found: 404,
  /** A department (or its record) the person may not see: answered as one that does not exist. */
  not_in_your_departments: 404,
  /** Someone voted the record first (with another ballot). */
  already_voted: 409,
  /** The coordination voided the record. */
  voided: 409,
  /** Someone filled the ballot photo's slot first. */
  slot_taken: 409,
  /** The day is in Preparación: phones send nothing yet. */
  preparing: 409,
  /** The day is closed (or, for the back office, a change the close forbids). */
  closed: 409,
  /** The drill (Simulacro) takes no change by hand. */
  drill_no_admin_changes: 409,
  /** A drill item after the drill was erased: never a real vote or photo. */
  drill_item: 410,
  /** Another reviewer reviewed the record's photo first, or the photo changed since it was shown. */
  already_reviewed: 409,
  /** A reviewer's own photo: someone else reviews it. */
  own_upload: 403,
  /** A photo over the size limit. */
  too_large: 413,
  /** Bytes that are not a JPEG or HEIC photo. */
  not_an_image: 415,
} as const satisfies Record<string, number>;
export type RefusalName = keyof typeof REFUSAL_STATUS;

/**
 * A named refusal of a use case, with its Spanish message: its HTTP answer (status from REFUSAL_STATUS,
 * message, `extra`) is the one an HttpError gives.
 */
export class Refusal extends HttpError {
  override name: RefusalName;
  constructor(name: RefusalName, message: string, extra?: Record<string, unknown>) {
    super(REFUSAL_STATUS[name], message, {}, extra);
    this.name = name;
  }
}

/** Whether `error` is a refusal with one of these names. */
export function isRefusal<N extends RefusalName>(error: unknown, ...names: N[]): error is Refusal & { name: N } {
  return error instanceof Refusal && (names as RefusalName[]).includes(error.name);
}

/**
 * What the person asked can never be done as asked (a refusal, a bad request): said to them, never a
 * failure of the server to log or retry.
 */
export function isClientError(error: unknown): error is HttpError {
  return error instanceof HttpError && error.statusCode < 500;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

export const BadRequest = (message: string = messages.api.badRequest) => new HttpError(400, message);
export const Unauthorized = (message: string) => new HttpError(401, message);
export const Forbidden = (message: string) => new HttpError(403, message);
export const NotFound = (message: string = messages.api.notFound) => new HttpError(404, message);
export const Conflict = (message: string, extra?: Record<string, unknown>) => new HttpError(409, message, {}, extra);
export const UnprocessableEntity = (message: string) => new HttpError(422, message);
export const TooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const ServiceUnavailable = (message: string) => new HttpError(503, message);

/** Seconds a client is asked to wait before trying the photo storage again. */
export const STORAGE_RETRY_AFTER_S = 30;

/**
 * The photo storage (a bucket, Dropbox) did not answer, or answered that it is failing: 503 with
 * Retry-After. A write says nothing was saved (the driver removed what it could); a read says only to
 * try again.
 */
export class StorageUnavailableError extends HttpError {
  constructor(
    public readonly operation: 'write' | 'read',
    /** What the storage said or did, for the log only. */
    public readonly reason: string,
  ) {
    super(503, operation === 'write' ? messages.api.storageUnavailable : messages.api.storageUnavailableRead, {
      'retry-after': String(STORAGE_RETRY_AFTER_S),
    });
    this.name = 'StorageUnavailableError';
  }
}

/** How soon a client may try again after a 503 because something the server depends on is down. */
export const UNAVAILABLE_RETRY_SECONDS = 10;

/**
 * 503 with Retry-After: something the server depends on (the database, the disk, photo storage) cannot
 * be used right now. The default message says nothing was saved and to try again; reads may say less.
 * Thrown by callers that know, and chosen by the error handler below for the errors `isUnavailable`
 * recognises.
 */
export const Unavailable = (
  message: string = messages.api.unavailableWrite,
  retryAfterSeconds: number = UNAVAILABLE_RETRY_SECONDS,
) => new HttpError(503, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** The 503 for an error that says the database or storage is unavailable, worded for the request. */
function unavailableFor(request: FastifyRequest, error: unknown): HttpError {
  if (isUncertainCommit(error)) return Unavailable(messages.api.unavailableUncertain);
  const reading = request.method === 'GET' || request.method === 'HEAD';
  return Unavailable(reading ? messages.api.unavailableRead : messages.api.unavailableWrite);
}

function body(statusCode: number, message: string, details?: { path: string; message: string }[]) {
  return { statusCode, error: STATUS_NAMES[statusCode] ?? 'Error', message, ...(details ? { details } : {}) };
}

/** The API's error body for a status and a Spanish message (for answers written outside Fastify's reply). */
export function apiErrorBody(statusCode: number, message: string) {
  return body(statusCode, message);
}

/** One error path for the whole API: Spanish messages out, internals only in the log. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      if (error instanceof StorageUnavailableError) {
        request.log.error({ err: error, reason: error.reason }, `photo storage unavailable: ${error.reason}`);
      } else if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ ...body(error.statusCode, error.message), ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => ({
        path: `${error.validationContext ?? ''}${v.instancePath}`.replace(/\//g, '.'),
        message: v.message ?? messages.api.badRequest,
      }));
      // The first problem is the one a person sees; all of them travel in `details`.
      return reply.code(400).send(body(400, details[0]?.message ?? messages.api.badRequest, details));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return reply.code(500).send(body(500, messages.api.internal));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500 && isUnavailable(error)) {
      // The real cause (disk full, connection refused…) goes to the log; the person learns what it means.
      request.log.error({ err: error }, 'database or storage unavailable');
      const answer = unavailableFor(request, error);
      return reply.code(503).headers(answer.headers).send(body(503, answer.message));
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(body(500, messages.api.internal));
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported content type): say it plainly.
    request.log.info({ err: error }, 'client error');
    return reply.code(status).send(body(status, clientErrorMessage(error, status)));
  });
}

function clientErrorMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'El cuerpo de la solicitud no es un JSON válido.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'La solicitud es demasiado grande.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Tipo de contenido no admitido.';
    default:
      return status === 404 ? messages.api.notFound : messages.api.badRequest;
  }
}

/** JSON 404 for unknown API paths; anything else is a client-side route of the SPA. */
export function apiNotFoundBody() {
  return body(404, messages.api.notFound);
}
