import { describeAuditLogContract } from './describeAuditLogContract.ts';
import { InMemoryAuditLog } from './InMemoryAuditLog.ts';

describeAuditLogContract('InMemoryAuditLog', { create: async () => ({ auditLog: new InMemoryAuditLog() }) });
