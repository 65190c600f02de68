// Creates (or drops) a fresh PostgreSQL database for CI when a server answers on 127.0.0.1:5432.
// `node scripts/ci-database.mjs create` prints its URL, or nothing when PostgreSQL is unreachable;
// `node scripts/ci-database.mjs drop <url>` removes it again, with the test templates made for it.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../packages/db/package.json', import.meta.url));
const postgres = require('postgres');
const admin = 'postgres://postgres@127.0.0.1:5432/postgres';
const [command, url] = process.argv.slice(2);

const sql = postgres(admin, { max: 1, connect_timeout: 3, onnotice: () => {} });
try {
  if (command === 'create') {
    const name = `checkline_ci_${Date.now().toString(36)}_${process.pid}`;
    await sql.unsafe(`create database ${name}`);
    console.log(`postgres://postgres@127.0.0.1:5432/${name}`);
  } else if (command === 'drop' && url) {
    const name = new URL(url).pathname.slice(1);
    if (!/^checkline_ci_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop ${name}`);
    await sql.unsafe(`drop database if exists ${name} with (force)`);
    // The test templates made for this database (packages/db/src/test-templates/postgres-template.ts).
    const templates = await sql`
      select datname from pg_database
      where shobj_description(oid, 'pg_database') = ${`checkline test template for ${name}`}`;
    for (const { datname } of templates) {
      await sql.unsafe(`drop database if exists ${datname} with (force)`);
    }
  } else {
    throw new Error('usage: ci-database.mjs create | drop <url>');
  }
} catch (error) {
  if (command !== 'create') throw error;
  console.error(`ci: PostgreSQL not reachable on 127.0.0.1:5432 (${error.code ?? error.message})`);
} finally {
  await sql.end({ timeout: 1 });
}
