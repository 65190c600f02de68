import { checklineTestConfig } from '@checkline/vitest-config';

export default checklineTestConfig();
