/** Tables of accounts, sessions and sign-in limits (migration 002-auth). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the auth feature
export interface AuthTables {}
