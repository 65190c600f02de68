/**
 * Renders with `maxLength` characters, lowered until the output fits `maxBytes` of UTF-8 (for
 * services that count bytes): at most a few renders, each cut in proportion to the overshoot.
 */
export function fitUtf8(render: (maxLength: number) => string, maxBytes: number): string {
  let maxLength = maxBytes;
  let output = render(maxLength);
  for (let tries = 0; tries < 8; tries++) {
    const bytes = Buffer.byteLength(output, 'utf8');
    if (bytes <= maxBytes) return output;
    maxLength = Math.max(1, Math.floor((maxLength * maxBytes) / bytes) - 8);
    output = render(maxLength);
  }
  // A UTF-16 code unit is at most 3 bytes of UTF-8: this always fits.
  return render(Math.floor(maxBytes / 3));
}
