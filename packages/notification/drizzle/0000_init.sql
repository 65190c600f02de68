CREATE SCHEMA "notification";
--> statement-breakpoint
CREATE TABLE "notification"."deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"strategy_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"transactional" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"claimed_until" timestamp with time zone,
	"claim_token" uuid,
	"last_error" text,
	"skip_reason" text,
	"attempt_log" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "deliveries_status_check" CHECK ("notification"."deliveries"."status" in ('pending', 'sent', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "notification"."handled_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"handled_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification"."inbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"importance" text DEFAULT 'info' NOT NULL,
	"action_label" text,
	"action_url" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "inbox_importance_check" CHECK ("notification"."inbox"."importance" in ('info', 'warning', 'critical'))
);
--> statement-breakpoint
CREATE TABLE "notification"."messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"importance" text DEFAULT 'info' NOT NULL,
	"action_label" text,
	"action_url" text,
	"caller" text NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification"."preferences" (
	"user_id" uuid NOT NULL,
	"strategy_id" text NOT NULL,
	"config" jsonb,
	"config_version" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"external_id" text,
	"linked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "preferences_user_id_strategy_id_pk" PRIMARY KEY("user_id","strategy_id")
);
--> statement-breakpoint
CREATE TABLE "notification"."strategy_settings" (
	"strategy_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"config" jsonb,
	"config_version" integer,
	"layout_config" jsonb,
	"layout_version" integer,
	"updated_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification"."subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"system_id" uuid,
	"group_id" uuid,
	"events" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "subscriptions_user_target_key" UNIQUE NULLS NOT DISTINCT("user_id","system_id","group_id"),
	CONSTRAINT "subscriptions_one_target" CHECK ("notification"."subscriptions"."system_id" is null or "notification"."subscriptions"."group_id" is null)
);
--> statement-breakpoint
ALTER TABLE "notification"."deliveries" ADD CONSTRAINT "deliveries_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "notification"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_message_user_strategy_idx" ON "notification"."deliveries" USING btree ("message_id","user_id","strategy_id");--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "notification"."deliveries" USING btree ("next_attempt_at") WHERE "notification"."deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "deliveries_created_idx" ON "notification"."deliveries" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deliveries_user_idx" ON "notification"."deliveries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "deliveries_strategy_idx" ON "notification"."deliveries" USING btree ("strategy_id");--> statement-breakpoint
CREATE INDEX "inbox_user_created_idx" ON "notification"."inbox" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbox_user_unread_idx" ON "notification"."inbox" USING btree ("user_id") WHERE "notification"."inbox"."read_at" is null;--> statement-breakpoint
CREATE INDEX "inbox_created_at_idx" ON "notification"."inbox" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_caller_idempotency_idx" ON "notification"."messages" USING btree ("caller","idempotency_key") WHERE "notification"."messages"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "preferences_strategy_id_idx" ON "notification"."preferences" USING btree ("strategy_id");--> statement-breakpoint
CREATE INDEX "subscriptions_system_idx" ON "notification"."subscriptions" USING btree ("system_id");--> statement-breakpoint
CREATE INDEX "subscriptions_group_idx" ON "notification"."subscriptions" USING btree ("group_id");