import { lookup } from 'node:dns/promises';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name; rejects as DNS does (ENOTFOUND ...) when there is none. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver (`/etc/hosts`, then DNS), every address in its own order. */
export const systemResolver: Resolver = async (host) => {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};
