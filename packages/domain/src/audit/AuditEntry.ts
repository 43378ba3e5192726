/** What an audit entry records (SPEC §17): a change of membership, key, project or agent, or a create. */
export const AUDIT_ACTIONS = [
  'project.create',
  'project.update',
  'project.archive',
  'project.delete',
  'project.transfer',
  'member.invite',
  'member.join',
  'member.role_change',
  'member.remove',
  'invitation.revoke',
  'api_key.create',
  'api_key.revoke',
  'agent.create',
  'agent.update',
  'agent.delete',
  'session.create',
  'run.create',
  'account.invite',
  'account.disable',
  'account.enable',
] as const;
/** One of `AUDIT_ACTIONS`. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a user, a project API key (by id and name, never the key), an operator, or the service. */
export interface AuditActor {
  readonly type: 'user' | 'apiKey' | 'operator' | 'system';
  /** The user's or key's id; null for the service. */
  readonly id: string | null;
  /** A user's or operator's e-mail, when the call knew it. */
  readonly email?: string | undefined;
  /** An API key's name. */
  readonly name?: string | undefined;
}

/** One record of the audit log. */
export interface AuditEntry {
  readonly id: string;
  /** The project it happened in; null for an operator's change of an account. */
  readonly projectId: string | null;
  readonly at: Date;
  readonly actor: AuditActor;
  readonly action: AuditAction;
  readonly target: { readonly type: string; readonly id: string };
  /** The request behind it; null for in-process and background calls. */
  readonly requestId: string | null;
  /** The client's address (through `TRUST_PROXY`); null for in-process and background calls. */
  readonly ip: string | null;
}
