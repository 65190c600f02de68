import { checklineConfig } from '@checkline/eslint-config';

export default checklineConfig({ envReaders: ['src/testing.ts'] });
