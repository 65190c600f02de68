CREATE SCHEMA "checkline";
--> statement-breakpoint
CREATE TABLE "checkline"."event_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"claimed_until" timestamp with time zone,
	"dispatched_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE INDEX "event_outbox_due_idx" ON "checkline"."event_outbox" USING btree ("next_attempt_at") WHERE "checkline"."event_outbox"."dispatched_at" is null;--> statement-breakpoint
CREATE INDEX "event_outbox_dispatched_idx" ON "checkline"."event_outbox" USING btree ("dispatched_at") WHERE "checkline"."event_outbox"."dispatched_at" is not null;