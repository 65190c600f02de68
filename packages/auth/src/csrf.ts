import { appError } from '@checkline/core/contract';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

export function isJsonRequest(request: Request): boolean {
  const type = request.headers.get('content-type') ?? '';
  return type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * A browser sends the session cookie with requests other sites start; changes made with it must
 * therefore come as JSON (which a plain form cannot send) from one of our own origins.
 */
export function assertSameOriginChange(request: Request, allowedOrigins: ReadonlySet<string>) {
  if (isSafeMethod(request.method)) return;
  const origin = request.headers.get('origin');
  if (!origin || !allowedOrigins.has(origin)) {
    throw appError('FORBIDDEN', 'Cross-site request refused: the Origin header must be our own');
  }
  if (!isJsonRequest(request)) {
    throw appError(
      'FORBIDDEN',
      'Changes made with a session cookie must be sent as application/json',
    );
  }
}
