const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at += 1;
  return at;
}

/** The index of the quote closing the string that opens at `at`. */
function stringEnd(text: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** The index just past the JSON value that starts at `at` (after any white space). */
function valueEnd(text: string, at: number): number {
  let depth = 0;
  for (let index = skipSpace(text, at); index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) index = stringEnd(text, index);
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth -= 1;
    else if (depth === 0 && (code === COMMA || isSpace(code))) return index;
    if (depth === 0 && (code === QUOTE || code === CLOSE_BRACE || code === CLOSE_BRACKET)) {
      return index + 1;
    }
    if (depth < 0) return index;
  }
  return text.length;
}

/**
 * The first key that appears twice at the top level of a JSON object text, or undefined.
 * `JSON.parse` keeps only the last of repeated keys; this reads the top level once more, skipping
 * each value without building it, so only the keys themselves are decoded. `text` must already
 * have parsed as a JSON object.
 */
export function repeatedTopLevelKey(text: string): string | undefined {
  const seen = new Set<string>();
  let at = skipSpace(text, 0) + 1;
  for (;;) {
    at = skipSpace(text, at);
    if (text.charCodeAt(at) !== QUOTE) return undefined;
    const end = stringEnd(text, at);
    const raw = text.slice(at + 1, end);
    const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
    if (seen.has(key)) return key;
    seen.add(key);
    at = valueEnd(text, skipSpace(text, end + 1) + 1);
    at = skipSpace(text, at);
    if (text.charCodeAt(at) !== COMMA) return undefined;
    at += 1;
  }
}
