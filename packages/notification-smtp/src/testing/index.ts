export { unsubscribeHeadersOf } from './list-headers.ts';
export { selfSignedCertificate } from './self-signed.ts';
export {
  startSmtpTestServer,
  type ReceivedMail,
  type SmtpTestServer,
  type SmtpTestServerOptions,
} from './smtp-test-server.ts';
