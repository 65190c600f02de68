import { checklineConfig } from '@checkline/eslint-config';

export default checklineConfig();
