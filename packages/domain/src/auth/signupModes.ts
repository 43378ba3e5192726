/**
 * Who may make an account (`SIGNUP`, SPEC §17): anyone (`open`, the default), whoever holds an
 * invitation for their e-mail (`invite`), or only those an operator invited (`closed`). Operators
 * (`ADMIN_EMAILS`) may always sign up, so a closed installation can get its first operator.
 */
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
/** One of `SIGNUP_MODES`. */
export type SignupMode = (typeof SIGNUP_MODES)[number];
