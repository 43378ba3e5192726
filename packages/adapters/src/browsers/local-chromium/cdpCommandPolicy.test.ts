import { describe, expect, it } from 'vitest';
import { applyCdpCommandPolicy } from './cdpCommandPolicy.ts';

const downloads = '/data/profile/Downloads';
const apply = (command: object) =>
  JSON.parse(applyCdpCommandPolicy(Buffer.from(JSON.stringify(command)), downloads).toString());

describe('applyCdpCommandPolicy', () => {
  it('forwards ordinary commands unchanged', () => {
    const command = { id: 1, method: 'Runtime.evaluate', params: { expression: '1' }, sessionId: 'S' };
    expect(apply(command)).toEqual(command);
    expect(apply({ id: 2, method: 'Page.navigate', params: { url: 'https://example.com' } }).method).toBe(
      'Page.navigate',
    );
  });

  it('refuses host-reaching commands by renaming them, keeping id and sessionId', () => {
    for (const method of ['Extensions.loadUnpacked', 'PWA.install', 'Target.exposeDevToolsProtocol'])
      expect(apply({ id: 3, method, params: {}, sessionId: 'S' })).toEqual({
        id: 3,
        method: `Browserdeck.notAllowed:${method}`,
        sessionId: 'S',
      });
    for (const url of [
      'file:///etc/passwd',
      ' FILE:/x',
      'fi\tle:///x',
      '\u0001file:/x',
      'view-source:file:///etc/passwd',
      'view-source: file:/x',
    ])
      expect(apply({ id: 4, method: 'Target.createTarget', params: { url } }).method).toMatch(/^Browserdeck/);
  });

  it('sends downloads to the session folder and allows file inputs only from there', () => {
    expect(
      apply({
        id: 5,
        method: 'Browser.setDownloadBehavior',
        params: { behavior: 'allow', downloadPath: '/etc' },
      }),
    ).toEqual({
      id: 5,
      method: 'Browser.setDownloadBehavior',
      params: { behavior: 'allow', downloadPath: downloads },
    });
    expect(apply({ id: 6, method: 'Page.setDownloadBehavior', params: { behavior: 'deny' } }).params).toEqual(
      {
        behavior: 'deny',
      },
    );
    const upload = (files: string[]) =>
      apply({ id: 7, method: 'DOM.setFileInputFiles', params: { files } }).method;
    expect(upload([`${downloads}/report.pdf`])).toBe('DOM.setFileInputFiles');
    expect(upload(['/etc/passwd'])).toMatch(/^Browserdeck/);
    expect(upload([`${downloads}/../../secret`])).toMatch(/^Browserdeck/);
  });

  it('leaves messages that are not commands to the browser', () => {
    expect(applyCdpCommandPolicy(Buffer.from('not json'), downloads).toString()).toBe('not json');
  });
});
