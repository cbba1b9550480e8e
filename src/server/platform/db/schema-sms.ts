import type { Generated } from 'kysely';

/** Votes by SMS (migration 029, docs/decisions/084). */
export interface SmsTables {
  user_phones: UserPhonesTable;
  sms_messages: SmsMessagesTable;
}

/** A mobile number an account sends SMS from, in normalisePhone's form ('+584141234567'). */
export interface UserPhonesTable {
  phone: string;
  user_id: number;
  created_at: string;
}

/** One SMS received ('in') or sent ('out'), with what came of it. */
export interface SmsMessagesTable {
  id: Generated<number>;
  direction: 'in' | 'out';
  /** The sender's number (in) or the recipient's (out), normalised when it could be. */
  phone: string;
  /** The account the number belongs to, when it belongs to one. */
  user_email: string | null;
  /** The department of the record the message named, once known (the screen's filter). */
  department_id: number | null;
  record_id: number | null;
  body: string;
  /** in: aplicado, repetido, rechazado, malformado, limitado; out: enviado, fallido. */
  outcome: string;
  /** Why, in Spanish: the refusal's reason or the sending error. */
  reason: string | null;
  /** out: the received message it answers. */
  reply_to: number | null;
  /** in: sha256 of the sender, the text and the phone's time of receipt; unique (the webhook's replays). */
  dedupe_key: string | null;
  /** The gateway's id of the message (not unique for received ones, by the gateway's own documentation). */
  gateway_id: string | null;
  /** in: when the gateway's phone received it, as the phone wrote it. */
  phone_time: string | null;
  created_at: string;
}
