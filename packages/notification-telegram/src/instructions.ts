export const ADMIN_INSTRUCTIONS = `1. In Telegram, talk to **@BotFather**, send \`/newbot\` and follow the steps.
2. Paste the token it gives (\`123456:ABC-...\`) as **Bot token**; it is stored encrypted and
   never shown again.
3. Tell users the bot's name: each user starts a chat with it before adding their chat id.

**API base URL** stays \`https://api.telegram.org\` unless you run your own Bot API server.`;

export const USER_INSTRUCTIONS = `1. In Telegram, open a chat with the organisation's bot and send \`/start\`
   (a bot cannot write to you first).
2. Find your chat id: send any message to **@userinfobot**, which answers with your id.
3. Enter that number as **Chat id**. For a channel, add the bot as an administrator of the channel
   and enter \`@channelname\`.`;
