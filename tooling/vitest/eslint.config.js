import { checklineConfig } from '../eslint/index.js';

// Plain JavaScript shared by the packages' vitest configs; lint-staged looks a config up from each
// staged file, so without this one it refuses a commit that touches them. `index.js` reads the
// test worker count from the environment, like the test set-up files do.
export default checklineConfig({
  root: import.meta.dirname,
  typeAware: false,
  envReaders: ['index.js'],
});
