export const ADMIN_INSTRUCTIONS = `Text messages go through **Twilio**'s Messages API.

1. In the Twilio Console, note the **Account SID** and **Auth token** (Account info).
2. Buy or verify a number able to send SMS and enter it as **From** in E.164 form
   (\`+14155550100\`).
3. **Most segments** bounds what one message may cost: texts are cut to fit (the link is always
   kept). One segment holds 160 GSM characters, or 70 when the text needs Unicode (emoji, most
   non-Latin scripts); longer messages hold 153 or 67 per segment.

The auth token is stored encrypted and never shown again.`;

export const USER_INSTRUCTIONS = `Enter your mobile number in international **E.164** form: a \`+\`, your
country code, then the number without its leading zero or spaces (\`+447700900123\`).`;
