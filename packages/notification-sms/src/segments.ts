/** GSM 03.38 basic character set: one septet each. */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** GSM 03.38 extension table: an escape septet plus one each. */
const GSM_EXTENDED = new Set('^{}\\[~]|€\f');

type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSize {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
}

/**
 * How a text travels as SMS: GSM-7 when every character is in the GSM alphabet (160 septets in
 * one segment, 153 per segment of a longer message), else UCS-2 (70 code units, 67 per segment).
 */
export function smsSize(text: string): SmsSize {
  let septets = 0;
  for (const character of text) {
    if (GSM_BASIC.has(character)) septets += 1;
    else if (GSM_EXTENDED.has(character)) septets += 2;
    else return ucs2(text);
  }
  return { encoding: 'GSM-7', units: septets, segments: count(septets, 160, 153) };
}

function ucs2(text: string): SmsSize {
  return { encoding: 'UCS-2', units: text.length, segments: count(text.length, 70, 67) };
}

const count = (units: number, single: number, perPart: number) =>
  units === 0 ? 1 : units <= single ? 1 : Math.ceil(units / perPart);

/** Marks a cut; in the GSM alphabet, so cutting never forces a message into UCS-2. */
const CUT_MARK = '...';

/**
 * `head` followed by `tail`, with `head` cut (on a character, marked `...`) until the message fits
 * `maxSegments`; `tail` (the action link) is always kept whole.
 */
export function fitSegments(head: string, tail: string, maxSegments: number): string {
  const whole = head + tail;
  if (smsSize(whole).segments <= maxSegments) return whole;
  const characters = Array.from(head);
  let low = 0;
  let high = characters.length;
  // The largest number of head characters that still fits; the size only grows with it.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const candidate = characters.slice(0, middle).join('').trimEnd() + CUT_MARK + tail;
    if (smsSize(candidate).segments <= maxSegments) low = middle;
    else high = middle - 1;
  }
  return characters.slice(0, low).join('').trimEnd() + CUT_MARK + tail;
}
