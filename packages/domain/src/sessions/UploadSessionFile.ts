import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { UploadedSessionFile } from '../providers/ProviderCapabilities.ts';
import { ConflictError, NotImplementedError } from '../shared/DomainError.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import { UploadTooLargeError } from '../shared/UploadTooLargeError.ts';
import { findSession } from './findSession.ts';
import { SessionEndedError } from './SessionEndedError.ts';
import { SessionOnOtherInstanceError } from './SessionOnOtherInstanceError.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { heldElsewhere } from './sessionReach.ts';
import { UPLOAD_MAX_BYTES_DEFAULT, UPLOADS_PER_SESSION_MAX, uploadFileName } from './uploadRules.ts';

export interface UploadSessionFileDeps {
  projects: ProjectRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
  /** Largest file taken, in bytes (`UPLOAD_MAX_MB`; default `UPLOAD_MAX_BYTES_DEFAULT`). */
  maxBytes?: number | undefined;
  logger?: Logger | undefined;
}

/**
 * Puts one file where a running session's page may take it (http-api.md §5): the answer's `path` is
 * what `setInputFiles` / `DOM.setFileInputFiles` is given. The name is reduced to its base name
 * (`uploadFileName`); a file past `maxBytes` fails with `payload_too_large` as soon as the bytes past
 * it arrive, and the provider keeps nothing of it. An ended session is `session_ended`; a provider
 * without uploads is `not_implemented`; an archived project is `project_archived`. A session takes
 * at most `UPLOADS_PER_SESSION_MAX` files (`upload_limit_reached`): each is counted in the store
 * before the provider gets it, and counted back when it fails.
 */
export class UploadSessionFile {
  /** Largest file taken, in bytes: the HTTP adapter stops reading a request body past it. */
  readonly maxBytes: number;
  private readonly deps: UploadSessionFileDeps;

  constructor(deps: UploadSessionFileDeps) {
    this.deps = deps;
    this.maxBytes = deps.maxBytes ?? UPLOAD_MAX_BYTES_DEFAULT;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    sessionId: string;
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> };
  }): Promise<UploadedSessionFile> {
    const name = uploadFileName(input.file.name);
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      true,
    );
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    const { provider } = this.deps;
    const { files } = provider.capabilities;
    if (!files) {
      throw new NotImplementedError(`The ${provider.name} provider cannot take files for its sessions.`);
    }
    if (!session.isActive) throw new SessionEndedError();
    if (heldElsewhere(session, provider)) throw new SessionOnOtherInstanceError();
    const { sessions } = this.deps;
    if (!(await sessions.countUpload(project.id, session.id, UPLOADS_PER_SESSION_MAX))) {
      throw new ConflictError(
        'upload_limit_reached',
        `This session has taken ${UPLOADS_PER_SESSION_MAX} files, the most one session takes.`,
      );
    }
    let stored: UploadedSessionFile | null = null;
    try {
      stored = await files.upload(session.providerSessionId, {
        name,
        content: limited(input.file.content, this.maxBytes),
      });
    } finally {
      // The provider kept nothing: the file does not count against the session.
      if (!stored) await this.uncount(project.id, session.id);
    }
    if (!stored) throw new SessionEndedError('The session’s browser is gone: the session has ended.');
    return stored;
  }

  private async uncount(projectId: string, sessionId: string): Promise<void> {
    await this.deps.sessions.uncountUpload(projectId, sessionId).catch((error: unknown) => {
      // Counted one too many: the session may take one file fewer, which is the safe side.
      (this.deps.logger ?? silentLogger).warn(
        { sessionId, error: String(error) },
        'could not take back the count of an upload that failed',
      );
    });
  }
}

/** `content`, failing with `payload_too_large` once more than `maxBytes` bytes have passed. */
async function* limited(content: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of content) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new UploadTooLargeError(maxBytes);
    yield chunk;
  }
}
