import { describe, expect, it } from 'vitest';
import { gridNodeToml } from './gridNodeConfig.ts';
import { findSeleniumGridPrerequisites, parseJavaMajorVersion } from './seleniumGridPrerequisites.ts';

describe('parseJavaMajorVersion', () => {
  it('reads the major version of both numbering schemes', () => {
    expect(parseJavaMajorVersion('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime')).toBe(17);
    expect(parseJavaMajorVersion('openjdk version "21" 2023-09-19')).toBe(21);
    expect(parseJavaMajorVersion('java version "1.8.0_392"')).toBe(8);
    expect(parseJavaMajorVersion('sh: java: not found')).toBeNull();
  });
});

describe('findSeleniumGridPrerequisites', () => {
  it('names what to install when Java is missing', async () => {
    // Any executables pass the file checks that come before Java's.
    const present = { chromedriverPath: process.execPath, chromiumPath: process.execPath };
    await expect(
      findSeleniumGridPrerequisites({ ...present, javaPath: '/nonexistent/java' }),
    ).rejects.toThrow(
      /Java 17 or later.*apt-get install openjdk-17-jre-headless chromium-driver chromium-headless-shell/,
    );
  });

  it('names what to install when ChromeDriver is missing, CHROMEDRIVER_PATH included', async () => {
    await expect(
      findSeleniumGridPrerequisites({}, { CHROMEDRIVER_PATH: '/nonexistent/chromedriver' }),
    ).rejects.toThrow(/ChromeDriver \(\/nonexistent\/chromedriver .*apt-get install .*chromium-driver/);
  });
});

describe('gridNodeToml', () => {
  it('offers one Chromium driver with its binary in the stereotype and no detection', () => {
    const toml = gridNodeToml({
      chromedriver: '/usr/bin/chromedriver',
      chromium: '/usr/lib/chromium/chromium-headless-shell',
      maxSessions: 3,
      sessionTimeoutSec: 60,
      sessionRequestTimeoutSec: 5,
      asRoot: false,
    });
    expect(toml).toContain('detect-drivers = false');
    expect(toml).toContain('selenium-manager = false');
    expect(toml).toContain('override-max-sessions = true');
    expect(toml).toContain('webdriver-executable = "/usr/bin/chromedriver"');
    expect(toml).toContain(
      'stereotype = "{\\"browserName\\":\\"chrome\\",\\"goog:chromeOptions\\":{\\"binary\\":\\"/usr/lib/chromium/chromium-headless-shell\\"}}"',
    );
    expect(toml.match(/max-sessions = 3/g)).toHaveLength(2);
    expect(toml).toContain('[sessionqueue]\nsession-request-timeout = 5\nsession-request-timeout-period = 1');
  });

  it('runs Chromium without its sandbox when the node runs as root', () => {
    const config = { chromedriver: 'd', chromium: 'c', maxSessions: 1, sessionTimeoutSec: 60 };
    expect(gridNodeToml({ ...config, asRoot: true })).toContain('\\"args\\":[\\"--no-sandbox\\"]');
    expect(gridNodeToml({ ...config, asRoot: false })).not.toContain('--no-sandbox');
  });

  it('leaves the queue to the hub for a node of hub-and-nodes', () => {
    const toml = gridNodeToml({ chromedriver: 'd', chromium: 'c', maxSessions: 1, sessionTimeoutSec: 1 });
    expect(toml).not.toContain('[sessionqueue]');
  });
});
