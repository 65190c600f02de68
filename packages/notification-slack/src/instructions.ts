export const ADMIN_INSTRUCTIONS = `Notifications come as direct messages from a Slack app of yours.

1. At <https://api.slack.com/apps>, **Create New App → From scratch** in your workspace.
2. **OAuth & Permissions**: add the redirect URL
   \`{BASE_URL}/api/notification/oauth/notification-slack.slack/callback\` and the bot token
   scope \`chat:write\`.
3. **App Home**: turn on the **Messages tab** (users read the app's messages there).
4. **Basic Information → App Credentials**: enter the **Client ID** and **Client Secret** here.
   The secret is stored encrypted and never shown again.
5. To let people outside your workspace link accounts, activate public distribution.`;

export const USER_INSTRUCTIONS = `Choose **Link Slack account** and allow the app in your workspace.
Notifications then arrive as direct messages from the app (its *Messages* tab). Unlinking here
removes the link and the app's token.`;
