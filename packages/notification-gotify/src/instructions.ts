export const ADMIN_INSTRUCTIONS = `Users receive push messages on their own [Gotify](https://gotify.net)
servers: nothing to register.

- **Webhook hosts**: the hosts users' servers may be on (\`*\`, any, by default); private
  addresses stay refused unless the server allows them (\`WEBHOOK_ALLOW_PRIVATE\`).
- **Require https**: leave on.

Priority follows importance: info 4, warning 6, critical 9 (a heads-up notification on Android).`;

export const USER_INSTRUCTIONS = `1. In your Gotify web UI, open **Apps** and create an application
   (say *Checkline*).
2. Copy its **token** and enter it here as **App token**, with your server's URL
   (\`https://gotify.example.com\`).
3. Install the Gotify app on your phone and sign in to the same server. The token is stored
   encrypted and never shown again.`;
