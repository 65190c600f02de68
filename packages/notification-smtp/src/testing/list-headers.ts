import type { ParsedMail } from 'mailparser';

/**
 * The RFC 8058 headers of a received message as written (unfolded): the URL inside
 * `List-Unsubscribe: <...>` and the value of `List-Unsubscribe-Post`.
 */
export function unsubscribeHeadersOf(mail: ParsedMail): { url?: string; post?: string } {
  const value = (key: string) => {
    const line = mail.headerLines.find((header) => header.key === key)?.line;
    return line
      ?.slice(line.indexOf(':') + 1)
      .replace(/\r\n[ \t]+/g, ' ')
      .trim();
  };
  const url = /^<([^>]+)>$/.exec(value('list-unsubscribe') ?? '')?.[1];
  const post = value('list-unsubscribe-post');
  return { ...(url && { url }), ...(post && { post }) };
}
