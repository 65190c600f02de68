// The marks are shared with every plugin that stores secrets (health checks too).
export { color, destination, hasMark, secret } from '@checkline/core';
