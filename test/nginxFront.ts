import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { join, resolve } from 'node:path';
import { aptGetInstall, succeeds } from './aptGetInstall.ts';
import { freePort } from './freePort.ts';

/**
 * The nginx configuration Browserdeck ships (deploy/nginx/browserdeck.conf, SPEC §16), run on this
 * machine in front of a server: that very file, with only its lines marked `# browserdeck-test:`
 * rewritten (loopback ports, a self-signed certificate, the server's port). Shared by the nginx
 * front test (test/nginxFront.int.test.ts) and the deploy benchmark (bench/deploy.ts), so both run
 * one derivation of the shipped file.
 */

const ROOT = resolve(import.meta.dirname, '..');
export const SHIPPED_NGINX_CONFIG = join(ROOT, 'deploy/nginx/browserdeck.conf');

/** Debian's nginx package installs /usr/sbin/nginx. */
const findNginx = () => ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

/** What the front puts where the shipped file has production values. */
export interface NginxFrontValues {
  tlsPort: number;
  httpPort: number;
  upstreamPort: number;
  certificate: string;
  certificateKey: string;
}

/** How often each `# browserdeck-test:` marker must occur in the shipped file. */
export const NGINX_MARKERS: Readonly<Record<string, number>> = {
  upstream: 1,
  'http-listen': 2,
  'tls-listen': 2,
  certificate: 1,
  'certificate-key': 1,
};

/**
 * The shipped configuration as the front runs it: each line marked `# browserdeck-test: <name>` is
 * checked to be exactly the production line expected (else this throws, so the file and its
 * derivation cannot drift apart) and rewritten; an unmarked `listen`, certificate or upstream
 * `server` line throws too, and so do markers missing or repeated (against NGINX_MARKERS).
 * Everything else is the file as shipped.
 */
export function renderNginxConfig(shipped: string, values: NginxFrontValues): string {
  const seen: Record<string, number> = {};
  const rendered = shipped.split('\n').map((line, index) => {
    const where = `${SHIPPED_NGINX_CONFIG}:${index + 1}`;
    const marked = /\s*# browserdeck-test: ([a-z-]+)$/.exec(line);
    if (!marked) {
      if (/^\s*(listen\s|ssl_certificate(_key)?\s|server\s+[\d[])/.test(line))
        throw new Error(`${where}: the test must rewrite this line but it has no browserdeck-test marker`);
      return line;
    }
    const name = marked[1] as string;
    seen[name] = (seen[name] ?? 0) + 1;
    const code = line.slice(0, marked.index);
    const rewrite = (pattern: RegExp, replace: (...groups: string[]) => string) => {
      const match = pattern.exec(code);
      if (!match) throw new Error(`${where}: the line marked ${name} is not what the test rewrites: ${code}`);
      return replace(...(match.slice(1) as string[]));
    };
    // Production listens on every address; the test on loopback only, same parameters.
    const listen = (productionPort: number, port: number) =>
      rewrite(
        new RegExp(`^(\\s*listen )(\\[::\\]:)?${productionPort}((?: [a-z0-9]+)*);$`),
        (lead, v6, params) => `${lead}${v6 ? '[::1]' : '127.0.0.1'}:${port}${params};`,
      );
    switch (name) {
      case 'upstream':
        return rewrite(
          /^(\s*server )127\.0\.0\.1:3000;$/,
          (lead) => `${lead}127.0.0.1:${values.upstreamPort};`,
        );
      case 'http-listen':
        return listen(80, values.httpPort);
      case 'tls-listen':
        return listen(443, values.tlsPort);
      case 'certificate':
        return rewrite(/^(\s*ssl_certificate )\S+;$/, (lead) => `${lead}${values.certificate};`);
      case 'certificate-key':
        return rewrite(/^(\s*ssl_certificate_key )\S+;$/, (lead) => `${lead}${values.certificateKey};`);
      default:
        throw new Error(`${where}: unknown browserdeck-test marker ${name}`);
    }
  });
  const names = new Set([...Object.keys(NGINX_MARKERS), ...Object.keys(seen)]);
  const wrong = [...names].filter((name) => seen[name] !== NGINX_MARKERS[name]);
  if (wrong.length > 0)
    throw new Error(
      `the browserdeck-test markers in ${SHIPPED_NGINX_CONFIG}: ${wrong.map((name) => `${name} ${seen[name] ?? 0} times, expected ${NGINX_MARKERS[name] ?? 0}`).join('; ')}`,
    );
  return rendered.join('\n');
}

/**
 * The front's own main nginx.conf: everything nginx writes in `dir`, workers as www-data (as
 * Debian's nginx.conf has them) when started as root, compression on for the types an operator may
 * well have listed (the SSE location must undo it), and the rendered server blocks included.
 */
export function nginxMainConfig(dir: string): string {
  return [
    process.getuid?.() === 0 ? 'user www-data;' : '',
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log info;`,
    'events { worker_connections 512; }',
    'http {',
    `  access_log ${dir}/access.log;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `  ${kind}_temp_path ${dir}/${kind};`,
    ),
    '  gzip on;',
    '  gzip_types text/event-stream application/json text/plain;',
    `  include ${dir}/browserdeck.conf;`,
    '}',
    '',
  ].join('\n');
}

/** nginx (and openssl) on this machine, installed with apt-get when missing (as root); its path. */
export async function ensureNginx(why: string, log?: (line: string) => void): Promise<string> {
  let nginx = findNginx();
  if (!nginx || !(await succeeds('openssl', ['version']))) {
    await aptGetInstall(['nginx', 'openssl'], why, log);
    nginx = findNginx();
  }
  if (!nginx)
    throw new Error(
      'nginx is not installed (looked for /usr/sbin/nginx and /usr/bin/nginx): `apt-get install -y nginx` ' +
        `(Debian 12) for ${why}`,
    );
  return nginx;
}

/** nginx running the shipped configuration in front of a server on loopback. */
export interface NginxFront {
  /** Its folder: configuration, certificate, logs, temp paths. */
  readonly dir: string;
  readonly tlsPort: number;
  readonly httpPort: number;
  /** `https://127.0.0.1:<tlsPort>`. */
  readonly url: string;
  /** The self-signed certificate (CN and SAN 127.0.0.1, ::1) a client must trust, PEM. */
  readonly certificatePem: string;
  /** What nginx printed on stdout and stderr. */
  output(): string;
  /** Its error log (info level) so far. */
  errorLog(): string;
  /** SIGTERM, then its exit code once it has exited; its folder is removed. */
  stop(): Promise<number | null>;
}

/**
 * Starts nginx with the shipped configuration (renderNginxConfig) in front of the server on
 * `127.0.0.1:<upstreamPort>`, on free loopback ports with a fresh self-signed certificate, and
 * resolves once `GET /healthz` over its TLS port answers 200 (trusting that certificate only).
 */
export async function startNginxFront(options: {
  upstreamPort: number;
  /** Install nginx if missing, naming this reason. */
  why: string;
  log?: (line: string) => void;
  timeoutMs?: number;
}): Promise<NginxFront> {
  const nginx = await ensureNginx(options.why, options.log);
  // Under /tmp, whatever TMPDIR says: nginx's workers (www-data) must reach the temp folders here,
  // which they cannot in a private (0700) checkout.
  const dir = mkdtempSync('/tmp/browserdeck-nginx-');
  chmodSync(dir, 0o755);
  const certificate = join(dir, 'certificate.pem');
  const certificateKey = join(dir, 'key.pem');
  const subject = '-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1,IP:::1';
  const openssl = `req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 ${subject}`;
  execFileSync('openssl', [...openssl.split(' '), '-keyout', certificateKey, '-out', certificate], {
    stdio: 'pipe',
  });
  const certificatePem = readFileSync(certificate, 'utf8');
  const tlsPort = await freePort();
  const httpPort = await freePort();
  const values = { tlsPort, httpPort, upstreamPort: options.upstreamPort, certificate, certificateKey };
  writeFileSync(
    join(dir, 'browserdeck.conf'),
    renderNginxConfig(readFileSync(SHIPPED_NGINX_CONFIG, 'utf8'), values),
  );
  writeFileSync(join(dir, 'nginx.conf'), nginxMainConfig(dir));

  const child: ChildProcess = spawn(
    nginx,
    ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let exited = false;
  const exitCode = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      exited = true;
      done(code);
    }),
  );
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const url = `https://127.0.0.1:${tlsPort}`;
  const front: NginxFront = {
    dir,
    tlsPort,
    httpPort,
    url,
    certificatePem,
    output: () => output,
    errorLog,
    async stop() {
      if (!exited) child.kill('SIGTERM');
      const code = await exitCode;
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (exited) {
      const why = `nginx exited:\n${output}\n${errorLog()}`;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(why);
    }
    if ((await healthz(url, certificatePem)) === 200) return front;
    if (Date.now() > deadline) {
      const why = `timed out waiting for nginx to answer on its TLS port:\n${output}\n${errorLog()}`;
      await front.stop();
      throw new Error(why);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** The status of `GET /healthz` on `url`, trusting `ca`; 0 when it does not answer. */
function healthz(url: string, ca: string): Promise<number> {
  return new Promise((done) => {
    const req = https.get(`${url}/healthz`, { ca, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', () => done(0));
  });
}
