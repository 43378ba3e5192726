/** Days audit entries are kept by default (`AUDIT_RETENTION_DAYS`). */
export const AUDIT_RETENTION_DAYS_DEFAULT = 90;
/** The most entries one page of the audit log holds, and its default. */
export const AUDIT_PAGE_MAX = 200;
export const AUDIT_PAGE_DEFAULT = 50;
