CREATE TABLE "notification"."alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"source_rule" text NOT NULL,
	"system_ids" uuid[] NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"importance" text NOT NULL,
	"facts" jsonb,
	"remind_every_seconds" integer,
	"next_reminder_at" timestamp with time zone,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"escalate_to_user_id" uuid,
	"escalate_at" timestamp with time zone,
	"escalated_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	"resolved_at" timestamp with time zone,
	"opened_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification"."channel_health" (
	"strategy_id" text PRIMARY KEY NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"last_error" text,
	"reported_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" DROP CONSTRAINT "subscriptions_user_target_key";--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD COLUMN "team_id" uuid;--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD COLUMN "remind_every_seconds" integer;--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD COLUMN "escalate_after_seconds" integer;--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD COLUMN "escalate_to_user_id" uuid;--> statement-breakpoint
ALTER TABLE "notification"."alerts" ADD CONSTRAINT "alerts_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "notification"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_subject_idx" ON "notification"."alerts" USING btree ("subscription_id","subject") WHERE "notification"."alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_subject_idx" ON "notification"."alerts" USING btree ("subject") WHERE "notification"."alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_user_idx" ON "notification"."alerts" USING btree ("user_id","opened_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_due_reminder_idx" ON "notification"."alerts" USING btree ("next_reminder_at") WHERE "notification"."alerts"."resolved_at" is null and "notification"."alerts"."acknowledged_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_due_escalation_idx" ON "notification"."alerts" USING btree ("escalate_at") WHERE "notification"."alerts"."resolved_at" is null and "notification"."alerts"."acknowledged_at" is null and "notification"."alerts"."escalated_at" is null;--> statement-breakpoint
CREATE INDEX "subscriptions_team_idx" ON "notification"."subscriptions" USING btree ("team_id");--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD CONSTRAINT "subscriptions_owner_target_key" UNIQUE NULLS NOT DISTINCT("user_id","team_id","system_id","group_id");--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD CONSTRAINT "subscriptions_escalation_pair" CHECK (("notification"."subscriptions"."escalate_after_seconds" is null) = ("notification"."subscriptions"."escalate_to_user_id" is null));--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD CONSTRAINT "subscriptions_one_owner" CHECK (("notification"."subscriptions"."user_id" is null) <> ("notification"."subscriptions"."team_id" is null));