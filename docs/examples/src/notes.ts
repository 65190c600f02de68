import type { Database } from '@checkline/db';
import { definePlugin, implementPlugin } from '@checkline/core';
import { defineAccessRules, defineContract, mutation, query } from '@checkline/core/contract';
import { asc } from 'drizzle-orm';
import { pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

// access.ts: the plugin's rules, `notes.notes.read` and `notes.notes.manage`.
export const notesAccess = defineAccessRules('notes', {
  read: ['notes.read', 'Read notes'],
  manage: ['notes.manage', 'Write notes'],
});

// contract.ts: browser-safe (zod and @checkline/core/contract only).
const NoteSchema = z.object({ id: z.uuid(), text: z.string(), createdAt: z.date() });

export const notesContract = defineContract('notes', {
  getNotes: query({ access: [notesAccess.read], summary: 'Every note.' })
    .input(z.object({}))
    .output(z.object({ notes: z.array(NoteSchema) })), // GET  /rest/notes/getNotes
  createNote: mutation({ access: [notesAccess.manage], summary: 'Adds a note.' })
    .input(z.object({ text: z.string().min(1).max(1_000) }))
    .output(NoteSchema), // POST /rest/notes/createNote
});

// db/schema.ts: tables in the plugin's own schema; `drizzle-kit generate` writes ../drizzle.
const notesSchema = pgSchema('notes');
const notes = notesSchema.table('notes', {
  id: uuid('id').primaryKey().defaultRandom(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// service.ts: all logic, plain functions over the database.
export const listNotes = (db: Database) => db.select().from(notes).orderBy(asc(notes.createdAt));

export async function createNote(db: Database, input: { text: string }) {
  const [note] = await db.insert(notes).values({ text: input.text }).returning();
  return note!;
}

// router.ts and plugin.ts: a thin router, and the plugin the server mounts.
const os = implementPlugin(notesContract);

export const notesRouter = os.router({
  getNotes: os.getNotes.handler(async ({ context }) => ({ notes: await listNotes(context.db) })),
  createNote: os.createNote.handler(({ context, input }) => createNote(context.db, input)),
});

export const notesPlugin = definePlugin({
  id: 'notes',
  description: 'Short notes anyone with the rule may write.', // its tag in the API reference
  contract: notesContract,
  router: notesRouter,
  accessRules: Object.values(notesAccess),
  migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
});
