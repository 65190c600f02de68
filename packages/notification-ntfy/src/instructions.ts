export const ADMIN_INSTRUCTIONS = `Users receive push notifications through [ntfy](https://ntfy.sh) topics:
nothing to register.

- **Default server URL**: the server of users who name none (\`https://ntfy.sh\`, or your own).
- **Webhook hosts**: the hosts a user's own server may be on (\`*\`, any, by default); private
  addresses stay refused unless the server allows them (\`WEBHOOK_ALLOW_PRIVATE\`).
- **Require https**: leave on.

Priority follows importance: info 3, warning 4 (high), critical 5 (urgent).`;

export const USER_INSTRUCTIONS = `1. Install the ntfy app (Android, iOS) or open the ntfy web app.
2. Subscribe to a topic with a long, random name (anyone who knows a topic on a public server
   can read it), on the default server or your own.
3. Enter the topic here, and your server's URL if it is not the default one. For a protected
   topic, create an access token (\`tk_...\`) in ntfy's account settings and enter it too.`;
