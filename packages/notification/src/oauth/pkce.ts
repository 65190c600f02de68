import { createHash, randomBytes } from 'node:crypto';

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** 256 random bits, base64url: the platform's part of a `state`. */
export const randomState = () => base64url(randomBytes(32));

/** RFC 7636 verifier: 43 characters from 32 random bytes. */
export const codeVerifier = () => base64url(randomBytes(32));

/** S256 challenge of a verifier. */
export const codeChallenge = (verifier: string) =>
  base64url(createHash('sha256').update(verifier, 'ascii').digest());

/** What the database keeps of a state: its SHA-256, so a read of the table cannot replay one. */
export const stateHash = (state: string) => createHash('sha256').update(state).digest('hex');
