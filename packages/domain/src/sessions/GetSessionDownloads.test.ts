import { givenSessionWorld, givenTwoInstances, providerWithoutFiles } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { GetSessionDownloads } from './GetSessionDownloads.ts';
import { ReleaseSession } from './ReleaseSession.ts';

async function read(archive: AsyncIterable<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of archive) text += String.fromCharCode(...chunk);
  return text;
}

/** ASCII text as bytes (the domain has no Node types). */
const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('GetSessionDownloads', () => {
  it('answers the provider’s zip of the session’s downloads, during the session and after it', async () => {
    const { projects, sessions, provider, project, owner, clock, startSession } = await givenSessionWorld();
    const session = await startSession();
    provider.setDownloads(session.providerSessionId, ascii('PK-zip-of-two-files'));
    const downloads = new GetSessionDownloads({ projects, sessions, provider });
    const input = { caller: owner, projectId: project.id, sessionId: session.id };

    const running = await downloads.execute(input);
    expect(running.session.id).toBe(session.id);
    expect(await read(running.archive)).toBe('PK-zip-of-two-files');

    await new ReleaseSession({ projects, sessions, provider, clock }).execute(input);
    expect(await read((await downloads.execute(input)).archive)).toBe('PK-zip-of-two-files');
    expect(provider.calls.filter((c) => c.op === 'downloads')).toEqual([
      { op: 'downloads', providerSessionId: session.providerSessionId },
      { op: 'downloads', providerSessionId: session.providerSessionId },
    ]);
  });

  it('is not_found once the provider no longer keeps them, and for another owner’s or an unknown session', async () => {
    const { projects, sessions, provider, project, owner, startSession } = await givenSessionWorld();
    const session = await startSession();
    const downloads = new GetSessionDownloads({ projects, sessions, provider });
    await expect(
      downloads.execute({ caller: asUser('someone-else'), projectId: project.id, sessionId: session.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      downloads.execute({
        caller: owner,
        projectId: project.id,
        sessionId: '0190b000-0000-7000-8000-00000000dead',
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    provider.forget(session.providerSessionId);
    await expect(
      downloads.execute({ caller: owner, projectId: project.id, sessionId: session.id }),
    ).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/no longer kept/) });
  });

  it('is not_implemented at a provider without downloads, and session_on_other_instance for another instance’s session', async () => {
    const world = await givenTwoInstances();
    const session = await world.startSession();
    const input = { caller: world.owner, projectId: world.project.id, sessionId: session.id };
    const elsewhere = new GetSessionDownloads({ ...world, provider: world.other });
    await expect(elsewhere.execute(input)).rejects.toMatchObject({ code: 'session_on_other_instance' });

    await expect(
      new GetSessionDownloads({ ...world, provider: providerWithoutFiles(world.provider) }).execute(input),
    ).rejects.toMatchObject({
      code: 'not_implemented',
      message: expect.stringMatching(/keeps no downloads/),
    });
  });
});
