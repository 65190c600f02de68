export const ADMIN_INSTRUCTIONS = `Users post to their own Teams chats or channels through **Workflows**
webhooks; there is nothing to register with Microsoft.

- **Webhook hosts**: the hosts a user's webhook URL may point at. The default accepts the
  tenant-specific Workflows hosts (\`*.webhook.office.com\`, \`*.logic.azure.com\`,
  \`*.powerplatform.com\`, \`*.powerautomate.com\`); \`*\` accepts any host.
- **Require https**: leave on; switch off only for a local test service.

Webhook URLs are stored encrypted and never shown again once saved.`;

export const USER_INSTRUCTIONS = `1. In Teams, open the chat or channel, choose **⋯ → Workflows**, and pick
   **Post to a chat when a webhook request is received** (or *to a channel*).
2. Finish the flow and copy the webhook URL it shows.
3. Paste it here as **Webhook URL**. Anyone holding the URL can post to that chat: treat it as a
   password.`;
