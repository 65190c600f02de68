import { checklineConfig } from './index.js';

// The shared config lints itself (lint-staged looks a config up from each staged file). Plain
// JavaScript without a tsconfig, so without the type-aware rules.
export default checklineConfig({ root: import.meta.dirname, typeAware: false });
