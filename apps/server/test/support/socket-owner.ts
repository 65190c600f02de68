import { readdir, readFile, readlink } from 'node:fs/promises';

/**
 * The local TCP ports the process `pid` holds sockets on (Linux `/proc`): which server process
 * made an outgoing request, told from the request's remote port at the receiver.
 */
export async function localPortsOf(pid: number): Promise<Set<number>> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    const text = await readFile(`/proc/${pid}/net/${table}`, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is `ADDR:PORT` in hex; the inode is the tenth field.
      const port = fields[1]?.split(':')[1];
      if (port && fields[9] && inodes.has(fields[9])) ports.add(Number.parseInt(port, 16));
    }
  }
  return ports;
}
