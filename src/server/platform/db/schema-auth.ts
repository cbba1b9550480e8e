import type { Generated } from 'kysely';

/** Tables of accounts, sessions and sign-in limits (migrations 002-auth, 013-trusted-devices and
 * 015-one-time-password-expiry). */
export interface AuthTables {
  users: UsersTable;
  sessions: SessionsTable;
  login_throttle: LoginThrottleTable;
  trusted_devices: TrustedDevicesTable;
  recovery_codes: RecoveryCodesTable;
}

export interface UsersTable {
  id: Generated<number>;
  /** Lowercased, unique. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  role: 'admin' | 'staff';
  /** 0 or 1. A disabled account cannot sign in and has no session. */
  disabled: number;
  /** 0 or 1. 1 while the password is a one-time one an admin generated: it must be changed first. */
  must_change_password: Generated<number>;
  /** While the password is a one-time one: when it stops opening anything (migration 015). Else null. */
  password_expires_at: string | null;
  last_login_at: string | null;
  created_at: string;
  updated_at: string;
  /** The confirmed TOTP secret (base32), or null without a second factor (migration 026). */
  totp_secret: string | null;
  /** A secret shown in a QR code and not confirmed yet with a code. */
  totp_pending_secret: string | null;
  totp_enabled_at: string | null;
  /** The last 30-second step a code was accepted for: no code of that step or before is taken again. */
  totp_last_step: number | null;
  /** 1: made for a drill by the rehearsal, deleted by 'Terminar simulacro' (decision 103). */
  drill_only: Generated<number>;
}

export interface SessionsTable {
  id: Generated<number>;
  /** sha256 (hex) of the cookie's token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: string;
  /** Absolute expiry: the session ends then, however active it is. */
  expires_at: string;
  /** Idle expiry: moved forward while the session is used. */
  idle_expires_at: string;
  ip: string | null;
  user_agent: string | null;
  /** While the second factor is owed: 'verify' (the person has one) or 'enrol' (must set one up). */
  second_factor: 'verify' | 'enrol' | null;
}

/** A recovery code of the second factor, by its sha256 (hex); spent once `used_at` is set. */
export interface RecoveryCodesTable {
  code_hash: string;
  user_id: number;
  created_at: string;
  used_at: string | null;
}

/**
 * Failed sign-in counters, one row per key (throttle.ts names them), shared by every app instance
 * through the database.
 */
export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_started_at: string;
  blocked_until: string | null;
}

/** A browser a person signed in from, by the sha256 (hex) of its device cookie's token. */
export interface TrustedDevicesTable {
  token_hash: string;
  user_id: number;
  created_at: string;
  last_used_at: string;
}
