import { Packet, createServer } from 'dns2';

/** A record the test server answers, by type. */
export type FixedRecord =
  | { type: 'A' | 'AAAA'; address: string }
  | { type: 'CNAME'; domain: string }
  | { type: 'MX'; exchange: string; priority: number }
  | { type: 'TXT'; data: string };

/**
 * A real DNS server over UDP on 127.0.0.1 answering fixed records per name (dns2 encodes the
 * packets); a name it does not know is NXDOMAIN. `queries` counts the questions it received.
 */
export async function startDnsServer(zone: Record<string, readonly FixedRecord[]>) {
  let queries = 0;
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      queries += 1;
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const records = question ? zone[question.name.toLowerCase()] : undefined;
      if (!question || !records) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
        // Not awaited: a reply lost on UDP shows in the test as the resolver's own timeout.
        void send(response);
        return;
      }
      for (const record of records) {
        if (Packet.TYPE[record.type] !== question.type) continue;
        const { type, ...data } = record;
        response.answers.push({
          name: question.name,
          type: Packet.TYPE[type],
          class: Packet.CLASS.IN,
          ttl: 60,
          ...data,
        } as never);
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    port: addresses.udp!.port,
    queries: () => queries,
    close: () => server.close(),
  };
}
