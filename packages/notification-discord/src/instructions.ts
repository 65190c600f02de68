export const ADMIN_INSTRUCTIONS = `Users post to their own Discord channels through channel webhooks;
there is no bot to register.

- **Webhook hosts**: the hosts a user's webhook URL may point at (\`discord.com\` and its
  variants by default).
- **Require https**: leave on; switch off only for a local test service.

Messages never mention anyone (\`allowed_mentions\` is empty). Webhook URLs are stored encrypted.`;

export const USER_INSTRUCTIONS = `1. In Discord, open **Channel settings → Integrations → Webhooks** and create
   a webhook (you need the *Manage Webhooks* permission).
2. Choose **Copy Webhook URL**.
3. Paste it here as **Webhook URL**. Anyone holding the URL can post to the channel: treat it as
   a password.`;
