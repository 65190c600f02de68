export { SchemaForm } from './schema-form.tsx';
export { localIssues, type JsonSchema } from './json-schema.ts';
