import { describe, expect, it } from 'vitest';
import { matchPathTemplate } from './matchPathTemplate.ts';

const template = '/v1/local/sessions/{provider_session_id}/webdriver/{signing_key}';

describe('matchPathTemplate', () => {
  it('matches a template exactly, with decoded parameters', () => {
    expect(matchPathTemplate(template, '/v1/local/sessions/a%20b/webdriver/k')).toEqual({
      params: { provider_session_id: 'a b', signing_key: 'k' },
      rest: '',
    });
    expect(matchPathTemplate(template, '/v1/local/sessions/a/webdriver/k/session')).toBeNull();
  });

  it('as a prefix, gives what follows whole segments as sent', () => {
    expect(matchPathTemplate(template, '/v1/local/sessions/s/webdriver/k/session/x/url', true)).toEqual({
      params: { provider_session_id: 's', signing_key: 'k' },
      rest: '/session/x/url',
    });
    expect(matchPathTemplate(template, '/v1/local/sessions/s/webdriver/k', true)?.rest).toBe('');
    expect(matchPathTemplate(template, '/v1/local/sessions/s/webdriver/k/a%2Fb', true)?.rest).toBe('/a%2Fb');
    expect(matchPathTemplate(template, '/v1/local/sessions/s/webdriverX/k/a', true)).toBeNull();
    expect(matchPathTemplate(template, '/v1/local/sessions/s:x/webdriver/k', true)).toBeNull();
    expect(matchPathTemplate(template, '/v1/local/sessions/%zz/webdriver/k', true)).toBeNull();
  });
});
