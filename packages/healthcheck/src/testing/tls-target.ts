import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:tls';
import forge from 'node-forge';

const DAY_MS = 24 * 60 * 60 * 1_000;

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: forge.pki.privateKeyFromPem(
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ),
    publicKey: forge.pki.publicKeyFromPem(
      publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ),
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

type KeyPair = ReturnType<typeof keyPair>;

let serial = 1;

function certificate(options: {
  subject: string;
  key: KeyPair;
  issuer: { name: string; key: KeyPair };
  notBefore: Date;
  notAfter: Date;
  extensions: object[];
}) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = options.key.publicKey;
  cert.serialNumber = (serial += 1).toString(16).padStart(2, '0');
  cert.validity.notBefore = options.notBefore;
  cert.validity.notAfter = options.notAfter;
  cert.setSubject([{ name: 'commonName', value: options.subject }]);
  cert.setIssuer([{ name: 'commonName', value: options.issuer.name }]);
  cert.setExtensions(options.extensions);
  cert.sign(options.issuer.key.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/**
 * A test certificate authority: `issue` makes a leaf certificate for the given names with the
 * chosen validity, signed by it; `pem` is its certificate, for a check's `ca` option.
 */
export function testCertificateAuthority() {
  const caKey = keyPair();
  const leafKey = keyPair();
  const now = Date.now();
  const issuer = { name: 'Checkline Test CA', key: caKey };
  const pem = certificate({
    subject: issuer.name,
    key: caKey,
    issuer,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 3_650 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return {
    pem,
    /** A leaf certificate valid from `fromDays` to `untilDays` from now (negative: past). */
    issue(options: {
      altNames: { ip?: string; dns?: string }[];
      fromDays?: number;
      untilDays: number;
    }) {
      const cert = certificate({
        subject: options.altNames[0]?.dns ?? options.altNames[0]?.ip ?? 'leaf',
        key: leafKey,
        issuer,
        notBefore: new Date(now + (options.fromDays ?? -1) * DAY_MS),
        notAfter: new Date(now + options.untilDays * DAY_MS),
        extensions: [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
          { name: 'extKeyUsage', serverAuth: true },
          {
            name: 'subjectAltName',
            altNames: options.altNames.map((entry) =>
              entry.ip ? { type: 7, ip: entry.ip } : { type: 2, value: entry.dns },
            ),
          },
        ],
      });
      return { cert, key: leafKey.pem };
    },
  };
}

/** A real TLS server on 127.0.0.1 presenting `cert`; counts the connections it accepted. */
export async function startTlsTarget(credentials: { cert: string; key: string }) {
  let connections = 0;
  const server = createServer(credentials, (socket) => socket.end());
  server.on('connection', () => (connections += 1));
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
