import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { requireValidationDepartment, type VoteRequest } from '#server/core/records/records';
import { createRecordsRepository } from '#server/core/records/records.repository';
import type { Database } from '#server/platform/db/schema';
import { isClientError, isRefusal, NotFound, type RefusalName, Unavailable } from '#server/platform/http/errors';
import type { Answer } from '#server/platform/idempotency/idempotency';
import type { SessionUser } from '#server/platform/session/identity';
import type { VoteResult } from '#shared/features/records/records';
import {
  type SmsMessagesPage,
  type SmsOutcome,
  type SmsStatus,
  smsMessageSchema,
  smsReasons,
  smsReplies,
  smsStatusSchema,
} from '#shared/features/sms/sms';
import { normalisePhone } from '#shared/platform/phone';
import type { IncomingSms, SmsGateway } from './sms.gateway';
import { parseSmsVote } from './sms.parse';
import { createSmsRepository, type SmsMessageRow } from './sms.repository';

type Db = Kysely<Database>;

/** The vote's refusals (besides a missing record) that an SMS answers with the vote the record holds, if any. */
const REFUSED_WITH_THE_VOTE: RefusalName[] = ['already_voted', 'voided', 'preparing', 'closed'];

/**
 * The vote use case of the records feature (records.service.ts `vote`), given by app.ts: an SMS vote
 * goes through the very writer the app's votes go through (same rules, phase check, audit row, counters
 * and live results).
 */
export type CastVote = (input: VoteRequest) => Promise<Answer<VoteResult>>;

/** Limits on received messages, over the last minute (counted in the database: every instance shares them). */
export const SMS_LIMITS = { windowMs: 60_000, perNumber: 10, overall: 600 } as const;

/**
 * A received message still 'recibido' this long after it was taken was being applied by a request that
 * died with its server: the gateway's next delivery of it takes it over. Younger, it is being applied
 * now, and a delivery of it is answered 503 so the gateway delivers it again later.
 */
export const SMS_TAKEOVER_MS = 2 * 60_000;

/** What the webhook did with a delivery: the message's outcome, or 'duplicado' for one already taken. */
export type ReceiveOutcome = SmsOutcome | 'duplicado';

/** 'María P.': the first name and the initial of the last word, enough to recognise the person. */
export function shortName(nombre: string): string {
  const words = nombre.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return words[0] ?? '';
  return `${words[0]} ${(words.at(-1) as string).charAt(0).toUpperCase()}.`;
}

/** One SMS, whoever delivers it twice: sender, text and the phone's time of receipt. */
export function dedupeKey(phone: string, sms: IncomingSms): string {
  return createHash('sha256')
    .update(JSON.stringify([phone, sms.receivedAt, sms.text]))
    .digest('hex');
}

export function createSmsService(
  db: Db,
  options: {
    gateway: SmsGateway | undefined;
    /** The number validators text (SMS_GATEWAY_PHONE), shown in Mensajes. */
    phone?: string | null;
    castVote: CastVote;
    now: () => Date;
    log: FastifyBaseLogger;
  },
) {
  const repo = createSmsRepository(db);

  /** Sends an answer and keeps it, sent or not: the vote stands either way. */
  async function reply(
    to: string,
    text: string,
    inReplyTo: number,
    about: { department_id: number | null; user_email: string | null; drill?: boolean },
  ) {
    const at = options.now().toISOString();
    let outcome: SmsOutcome = 'enviado';
    let reason: string | null = null;
    let gatewayId: string | null = null;
    try {
      // A rehearsal's account has a made-up number (decision 103): nothing is sent to it.
      if (about.drill) throw new Error(smsReasons.drillAccount);
      if (!options.gateway) throw new Error('La pasarela de SMS no está configurada.');
      gatewayId = (await options.gateway.send(to, text)).id;
    } catch (error) {
      outcome = 'fallido';
      reason = error instanceof Error ? error.message.slice(0, 500) : String(error);
      options.log.warn({ err: error }, 'SMS reply not sent');
    }
    await repo.insertSent({
      direction: 'out',
      phone: to,
      user_email: about.user_email,
      department_id: about.department_id,
      record_id: null,
      body: text,
      outcome,
      reason,
      reply_to: inReplyTo,
      dedupe_key: null,
      gateway_id: gatewayId,
      phone_time: null,
      created_at: at,
    });
  }

  /** The vote an SMS asks for, through the records' vote use case; the outcome and the answer. */
  async function applyVote(
    sender: { id: number; email: string; role: 'admin' | 'staff' },
    typed: string,
    candidateCodes: string[],
    key: string,
  ): Promise<{ outcome: SmsOutcome; reason: string | null; answer: string; recordId?: number; departmentId?: number }> {
    const parsed = parseSmsVote(typed, candidateCodes);
    if (parsed.kind === 'malformed') return { outcome: 'malformado', reason: parsed.reply, answer: parsed.reply };
    const record = await repo.findRecordByCode(parsed.code);
    const user: SessionUser = { id: sender.id, email: sender.email, role: sender.role };
    const notFound = {
      outcome: 'rechazado' as const,
      reason: smsReasons.recordNotFound,
      answer: smsReplies.recordNotFound(parsed.code),
    };
    if (!record) return notFound;
    // A record outside the sender's departments answers exactly as one that does not exist.
    try {
      await requireValidationDepartment(db, user, record.slug);
    } catch (error) {
      if (isRefusal(error, 'not_in_your_departments')) return notFound;
      throw error;
    }
    const about = { recordId: record.id, departmentId: record.department_id };
    const name = shortName(record.nombre);
    try {
      const answer = await options.castVote({
        user,
        ip: null,
        slug: record.slug,
        recordId: record.id,
        codes: parsed.candidates,
        channel: 'sms',
        // The message's own key: a delivery that takes over a message whose vote was cast gets that vote's answer.
        itemKey: key,
      });
      const votes = answer.body.record.votes;
      return answer.replayed
        ? {
            ...about,
            outcome: 'repetido',
            reason: null,
            answer: smsReplies.alreadyRegistered(name, record.title, votes),
          }
        : { ...about, outcome: 'aplicado', reason: null, answer: smsReplies.registered(name, record.title, votes) };
    } catch (error) {
      if (!isClientError(error)) throw error;
      if (isRefusal(error, 'not_found', 'not_in_your_departments')) return notFound;
      const vote = await repo.findVote(record.id);
      // A record that holds a vote, refused by someone's vote, its voiding or the day's phase: the answer
      // says whose vote it holds.
      const answer =
        isRefusal(error, ...REFUSED_WITH_THE_VOTE) && vote?.voted_by && vote.voted_at
          ? smsReplies.alreadyVotedBy(parsed.code, vote.voted_by, vote.voted_at)
          : smsReplies.refused(error.message);
      return { ...about, outcome: 'rechazado', reason: error.message, answer };
    }
  }

  /**
   * One received SMS (a webhook already authenticated): kept once whatever the number of deliveries,
   * limited per number and overall, then applied as a vote or refused, and always answered, except
   * past a limit (answering a flood would feed it).
   */
  async function receive(sms: IncomingSms): Promise<ReceiveOutcome> {
    const now = options.now();
    const at = now.toISOString();
    const phone = normalisePhone(sms.from) ?? sms.from.trim().slice(0, 16);
    const counts = await repo.countReceivedSince(phone, new Date(now.getTime() - SMS_LIMITS.windowMs).toISOString());
    const limited =
      counts.fromNumber >= SMS_LIMITS.perNumber
        ? smsReasons.tooMany
        : counts.overall >= SMS_LIMITS.overall
          ? smsReasons.tooManyOverall
          : null;
    const dedupe = dedupeKey(phone, sms);
    const kept = await repo.insertReceived({
      direction: 'in',
      phone,
      user_email: null,
      department_id: null,
      record_id: null,
      body: sms.text.slice(0, 2_000),
      outcome: limited ? 'limitado' : 'recibido',
      reason: limited,
      reply_to: null,
      dedupe_key: dedupe,
      gateway_id: sms.gatewayId,
      phone_time: sms.receivedAt,
      created_at: at,
    });
    const id = kept ?? (await takeOverUnfinished(dedupe, now));
    if (id === undefined) return 'duplicado';
    // (A message taken over was within the limits when it was kept.)
    if (limited && kept !== undefined) return 'limitado';

    const sender = await repo.findSender(phone);
    if (!sender || sender.disabled === 1) {
      const reason = sender ? smsReasons.accountDisabled : smsReasons.unknownSender;
      await repo.setOutcome(id, { outcome: 'rechazado', reason, user_email: sender?.email ?? null });
      await reply(phone, sender ? smsReplies.accountDisabled : smsReplies.unknownSender, id, {
        department_id: null,
        user_email: sender?.email ?? null,
        drill: sender?.drill_only === 1,
      });
      return 'rechazado';
    }
    const candidates = (await createRecordsRepository(db).listCandidates()).map((c) => c.code);
    let result: Awaited<ReturnType<typeof applyVote>>;
    try {
      result = await applyVote(sender, sms.text, candidates, `sms:${dedupe}`);
    } catch (error) {
      options.log.error({ err: error }, 'SMS vote failed');
      result = { outcome: 'rechazado', reason: smsReplies.failed, answer: smsReplies.failed };
    }
    await repo.setOutcome(id, {
      outcome: result.outcome,
      reason: result.reason,
      user_email: sender.email,
      department_id: result.departmentId ?? null,
      record_id: result.recordId ?? null,
    });
    await reply(phone, result.answer, id, {
      department_id: result.departmentId ?? null,
      user_email: sender.email,
      drill: sender.drill_only === 1,
    });
    return result.outcome;
  }

  /**
   * Another delivery of a message already kept: undefined when that message was finished (a duplicate);
   * its id when it was left unfinished by a request that died, and this delivery takes it over; 503 while
   * it may still be being applied, so the gateway delivers it again later rather than it being lost.
   */
  async function takeOverUnfinished(dedupe: string, now: Date): Promise<number | undefined> {
    const message = await repo.findReceived(dedupe);
    if (message?.outcome !== 'recibido') return undefined;
    if (now.getTime() - Date.parse(message.created_at) < SMS_TAKEOVER_MS) {
      throw Unavailable(smsReasons.inProgress, SMS_TAKEOVER_MS / 1000);
    }
    return (await repo.takeOver(message.id, message.created_at, now.toISOString())) ? message.id : undefined;
  }

  return {
    receive,

    /** Whether SMS votes are on (a gateway is configured). */
    enabled: options.gateway !== undefined,

    /** A webhook's body (already authenticated): the SMS it carries, received; other events ignored. */
    async receiveWebhook(body: unknown): Promise<ReceiveOutcome | 'ignorado'> {
      const sms = options.gateway?.incoming(body);
      return sms ? receive(sms) : 'ignorado';
    },

    /** The 'Mensajes' screen: a page of messages, newest first, by department and number. */
    /** Whether SMS votes work now (Mensajes' header): the gateway is asked each time, not remembered. */
    async status(): Promise<SmsStatus> {
      const checkedAt = options.now().toISOString();
      const [health, last] = await Promise.all([options.gateway?.health(), repo.lastReceived()]);
      return smsStatusSchema.parse({
        configured: options.gateway !== undefined,
        phone: options.phone ?? null,
        gateway: health === undefined ? null : { answering: health.ok, reason: health.ok ? null : health.reason },
        checkedAt,
        lastReceived: last
          ? { at: last.created_at, phone: last.phone, userEmail: last.user_email, outcome: last.outcome }
          : null,
      });
    },

    async list(query: {
      department?: string;
      phone?: string;
      before?: number;
      limit: number;
    }): Promise<SmsMessagesPage> {
      const departmentId = query.department === undefined ? undefined : await repo.findDepartmentId(query.department);
      if (query.department !== undefined && departmentId === undefined) throw NotFound();
      const phone = query.phone ? (normalisePhone(query.phone) ?? query.phone) : undefined;
      const page = await repo.listPage({ departmentId, phone, before: query.before, limit: query.limit });
      return { items: page.rows.map(presentMessage), nextCursor: page.nextCursor };
    },
  };
}
export type SmsService = ReturnType<typeof createSmsService>;

function presentMessage(row: SmsMessageRow) {
  return smsMessageSchema.parse({
    id: row.id,
    direction: row.direction,
    phone: row.phone,
    userEmail: row.user_email,
    department:
      row.department_slug && row.department_title ? { slug: row.department_slug, title: row.department_title } : null,
    body: row.body,
    outcome: row.outcome,
    reason: row.reason,
    replyTo: row.reply_to,
    createdAt: row.created_at,
  });
}
