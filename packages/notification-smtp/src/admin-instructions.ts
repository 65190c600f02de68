/** Markdown shown to administrators beside the SMTP settings. */
export const SMTP_ADMIN_INSTRUCTIONS = `## Sending e-mail through SMTP

Checkline sends each notification as one e-mail (a plain-text and an HTML part, the title as
subject) to the address the user signed up with.

1. **Host** and **port** of your mail server or relay: usually port **587** with *Secure* off
   (the connection is upgraded with STARTTLS), or port **465** with *Secure* on (TLS from the
   first byte).
2. **Username** and **password**, if the server asks for them. They are stored encrypted and
   never shown again; with *Secure* off the server must offer STARTTLS, or nothing is sent.
3. **From address** (and optionally a **from name**): the server must allow sending as this
   address, and its domain should publish SPF and DKIM records for the mail to be delivered.

The **layout** settings brand every message: a logo (an https address, shown at most 200 px
wide), the primary colour, an accent colour and the footer text.

Messages that are not account mail carry a one-click unsubscribe link (\`List-Unsubscribe\`,
RFC 8058): it switches this channel off for that user.

A server that answers 4xx (busy, greylisting) or cannot be reached is tried again later; a
5xx answer (an unknown recipient, say) fails the delivery at once, with the server's reply in
the delivery log.`;
