import { checklineConfig } from '@checkline/eslint-config';

export default checklineConfig({ root: import.meta.dirname });
