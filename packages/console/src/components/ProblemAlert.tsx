import { ApiError } from '../api/ApiError.ts';

/** Props of `ProblemAlert`. */
export interface ProblemAlertProps {
  error: unknown;
  /** Field paths shown next to their fields; the alert lists the others. */
  fieldPaths?: readonly string[];
}

/**
 * Shows an error answer visibly and to screen readers (`role="alert"`): the problem's title and
 * detail, the field errors no field of the form shows, and the request id to quote.
 */
export function ProblemAlert({ error, fieldPaths = [] }: ProblemAlertProps) {
  if (error === undefined || error === null) return null;
  if (!(error instanceof ApiError)) {
    return (
      <div class="alert" role="alert">
        <p class="alert-title">Something went wrong</p>
        <p>{error instanceof Error ? error.message : String(error)}</p>
      </div>
    );
  }
  const shownNextToFields = (path: string) =>
    fieldPaths.some((field) => path === field || path.startsWith(`${field}.`));
  const others = error.errors.filter((e) => !shownNextToFields(e.path));
  return (
    <div class="alert" role="alert">
      <p class="alert-title">
        {error.title}
        {error.status > 0 ? <span class="alert-status"> ({error.status})</span> : null}
      </p>
      {error.detail ? <p>{error.detail}</p> : null}
      {others.length > 0 ? (
        <ul>
          {others.map((e) => (
            <li key={`${e.path}:${e.message}`}>
              <code>{e.path || '(body)'}</code>: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      {error.requestId ? <p class="alert-meta">Request id: {error.requestId}</p> : null}
    </div>
  );
}
