import type { PublicStatus } from './public-schemas.ts';

const colours: Record<PublicStatus, string> = {
  operational: '#2f7d32',
  degraded: '#a15c00',
  outage: '#c62828',
  maintenance: '#1f5fa8',
  unknown: '#5f6368',
};

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Roughly the width of `text` in 11 px Verdana, enough to size a badge. */
const textWidth = (text: string) => Math.ceil(text.length * 6.5) + 10;

/** A flat two-part SVG badge: the label on grey, the status on its colour. */
export function statusBadge(label: string, status: PublicStatus): string {
  const left = textWidth(label);
  const right = textWidth(status);
  const width = left + right;
  const [safeLabel, safeStatus] = [escapeXml(label), escapeXml(status)];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${safeLabel}: ${safeStatus}"><title>${safeLabel}: ${safeStatus}</title><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${colours[status]}"/><g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle"><text x="${left / 2}" y="14">${safeLabel}</text><text x="${left + right / 2}" y="14">${safeStatus}</text></g></svg>`;
}
