/**
 * The file and value that give a cgroup the CPU weight `weight` (v2 `cpu.weight`, 1 to 10000; v1
 * `cpu.shares`, scaled: v1's default share is 1024 where v2's default weight is 100).
 */
export function cpuWeightSetting(version: 1 | 2, weight: number): [file: string, value: string] {
  return version === 2
    ? ['cpu.weight', String(weight)]
    : ['cpu.shares', String(Math.max(2, Math.round((weight * 1024) / 100)))];
}
