import { lstat, readlink } from 'node:fs/promises';

/** System folders a browser reads: libraries, fonts, certificates, its own configuration. */
const SYSTEM_PATHS = ['/usr', '/lib', '/lib64', '/lib32', '/bin', '/sbin', '/opt'];
const SYSTEM_ETC_PATHS = [
  '/etc/fonts',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/localtime',
  '/etc/chromium',
  '/etc/chromium.d',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
];

/**
 * bubblewrap's read-only view of the system folders that exist; symbolic links (merged /usr) are
 * recreated.
 */
export async function systemBinds(): Promise<string[]> {
  const args: string[] = [];
  for (const path of [...SYSTEM_PATHS, ...SYSTEM_ETC_PATHS]) {
    const stat = await lstat(path).catch(() => null);
    if (!stat) continue;
    if (stat.isSymbolicLink()) args.push('--symlink', await readlink(path), path);
    else args.push('--ro-bind', path, path);
  }
  return args;
}
