const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#rgb` or `#rrggbb` and nothing else, so a colour can never end a CSS declaration early. */
function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

export function hexColorOr(value: string | undefined, fallback: string): string {
  return isHexColor(value) ? value : fallback;
}
