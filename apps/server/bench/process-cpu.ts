import { readFileSync } from 'node:fs';

/** CPU time (user + system, in microseconds) process `pid` has used so far, from /proc. */
export function processCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / 100) * 1_000_000;
}
