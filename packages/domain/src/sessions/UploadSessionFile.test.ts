import { givenSessionWorld, givenTwoInstances, providerWithoutFiles } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { ReleaseSession } from './ReleaseSession.ts';
import { UploadSessionFile } from './UploadSessionFile.ts';
import { UPLOAD_MAX_BYTES_DEFAULT, UPLOADS_PER_SESSION_MAX } from './uploadRules.ts';

/** ASCII parts as chunks of bytes (the domain has no Node types). */
async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Uint8Array.from(part, (c) => c.charCodeAt(0));
}

async function setUp(maxBytes?: number) {
  const world = await givenSessionWorld();
  const session = await world.startSession();
  const upload = new UploadSessionFile({ ...world, ...(maxBytes === undefined ? {} : { maxBytes }) });
  const input = (file: { name: string; content: AsyncIterable<Uint8Array> }, caller = world.owner) => ({
    caller,
    projectId: world.project.id,
    sessionId: session.id,
    file,
  });
  return { ...world, session, upload, input };
}

describe('UploadSessionFile', () => {
  it('hands the file to the provider under its base name and answers where the page can take it', async () => {
    const { upload, input, provider, session } = await setUp();
    expect(upload.maxBytes).toBe(UPLOAD_MAX_BYTES_DEFAULT);
    const stored = await upload.execute(
      input({ name: 'C:\\Users\\me\\report.pdf', content: chunks('%PDF', '-1.7') }),
    );
    expect(stored).toEqual({
      name: 'report.pdf',
      size: 8,
      path: `/fake/uploads/${session.providerSessionId}/report.pdf`,
    });
    expect(String.fromCharCode(...provider.uploads.get(session.providerSessionId)![0]!.bytes)).toBe(
      '%PDF-1.7',
    );
    await upload.execute(input({ name: '/home/me/notes/a.txt', content: chunks('x') }));
    expect(provider.uploads.get(session.providerSessionId)!.map((f) => f.name)).toEqual([
      'report.pdf',
      'a.txt',
    ]);
  });

  it('takes UPLOADS_PER_SESSION_MAX files per session, then refuses with upload_limit_reached and hands the provider nothing', async () => {
    const { upload, input, provider, session, sessions, startSession } = await setUp();
    expect(UPLOADS_PER_SESSION_MAX).toBe(100);
    for (let i = 0; i < UPLOADS_PER_SESSION_MAX; i++)
      await upload.execute(input({ name: `f${i}.txt`, content: chunks('x') }));
    await expect(upload.execute(input({ name: 'one-more.txt', content: chunks('x') }))).rejects.toMatchObject(
      {
        code: 'upload_limit_reached',
        message: expect.stringContaining('100 files'),
      },
    );
    expect(provider.uploads.get(session.providerSessionId)).toHaveLength(UPLOADS_PER_SESSION_MAX);
    expect(sessions.uploadsOf(session.id)).toBe(UPLOADS_PER_SESSION_MAX);
    // Per session: another session of the project still takes files.
    const other = await startSession();
    await expect(
      upload.execute({ ...input({ name: 'a.txt', content: chunks('x') }), sessionId: other.id }),
    ).resolves.toMatchObject({ name: 'a.txt' });
  });

  it('does not count a file the provider kept nothing of (too large, or the browser gone)', async () => {
    const { upload, input, provider, session, sessions } = await setUp(4);
    await expect(upload.execute(input({ name: 'big.bin', content: chunks('12345') }))).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    expect(sessions.uploadsOf(session.id)).toBe(0);
    await upload.execute(input({ name: 'ok.bin', content: chunks('1234') }));
    expect(sessions.uploadsOf(session.id)).toBe(1);
    provider.setStatus(session.providerSessionId, 'ERROR');
    await expect(upload.execute(input({ name: 'late.bin', content: chunks('1') }))).rejects.toMatchObject({
      code: 'session_ended',
    });
    expect(sessions.uploadsOf(session.id)).toBe(1);
  });

  it('refuses a file name that is empty, a folder, too long or holds control characters (400 on file)', async () => {
    const { upload, input, provider } = await setUp();
    for (const name of ['', '   ', 'dir/', '..', 'a\u0007b.txt', `${'n'.repeat(256)}.txt`])
      await expect(
        upload.execute(input({ name, content: chunks('x') })),
        JSON.stringify(name),
      ).rejects.toMatchObject({
        code: 'validation_failed',
        errors: [expect.objectContaining({ path: 'file' })],
      });
    expect(provider.calls.filter((c) => c.op === 'upload')).toEqual([]);
  });

  it('fails with payload_too_large past maxBytes, and the provider keeps nothing', async () => {
    const { upload, input, provider, session } = await setUp(10);
    await expect(
      upload.execute(input({ name: 'a.bin', content: chunks('12345', '67890') })),
    ).resolves.toMatchObject({
      size: 10,
    });
    await expect(
      upload.execute(input({ name: 'b.bin', content: chunks('12345', '678901') })),
    ).rejects.toMatchObject({
      code: 'payload_too_large',
      maxBytes: 10,
    });
    expect(provider.uploads.get(session.providerSessionId)!.map((f) => f.name)).toEqual(['a.bin']);
  });

  it('is session_ended for an ended session, not_found for another owner, project_archived in an archived project', async () => {
    const { upload, input, projects, sessions, provider, project, clock, owner, session } = await setUp();
    await expect(
      upload.execute(input({ name: 'a.txt', content: chunks('x') }, asUser('someone-else'))),
    ).rejects.toMatchObject({ code: 'not_found' });
    project.archive(clock.now());
    await projects.update(project);
    await expect(upload.execute(input({ name: 'a.txt', content: chunks('x') }))).rejects.toMatchObject({
      code: 'project_archived',
    });
    project.restore(clock.now());
    await projects.update(project);
    await new ReleaseSession({ projects, sessions, provider, clock }).execute({
      caller: owner,
      projectId: project.id,
      sessionId: session.id,
    });
    await expect(upload.execute(input({ name: 'a.txt', content: chunks('x') }))).rejects.toMatchObject({
      code: 'session_ended',
    });
  });

  it('is session_ended when the provider no longer has the browser, though the session reads active', async () => {
    const { upload, input, provider, session } = await setUp();
    provider.setStatus(session.providerSessionId, 'ERROR');
    await expect(upload.execute(input({ name: 'a.txt', content: chunks('x') }))).rejects.toMatchObject({
      code: 'session_ended',
    });
  });

  it('is not_implemented without provider uploads, session_on_other_instance for another instance’s session', async () => {
    const world = await givenTwoInstances();
    const session = await world.startSession();
    const input = { caller: world.owner, projectId: world.project.id, sessionId: session.id };
    const file = () => ({ name: 'a.txt', content: chunks('x') });
    await expect(
      new UploadSessionFile({ ...world, provider: world.other }).execute({ ...input, file: file() }),
    ).rejects.toMatchObject({ code: 'session_on_other_instance' });
    await expect(
      new UploadSessionFile({ ...world, provider: providerWithoutFiles(world.provider) }).execute({
        ...input,
        file: file(),
      }),
    ).rejects.toMatchObject({ code: 'not_implemented' });
  });
});
