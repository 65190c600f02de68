import { hash } from 'node:crypto';

/** SHA-256 of a string, hex. One-shot: cheaper than a Hash object on the per-request path. */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');
