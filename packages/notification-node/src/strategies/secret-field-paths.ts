export { ANY_KEY, secretFieldPaths } from '@checkline/core';
