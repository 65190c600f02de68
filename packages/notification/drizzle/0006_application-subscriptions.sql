ALTER TABLE "notification"."subscriptions" DROP CONSTRAINT "subscriptions_owner_target_key";--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" DROP CONSTRAINT "subscriptions_one_owner";--> statement-breakpoint
ALTER TABLE "notification"."deliveries" ADD COLUMN "recipient_kind" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD COLUMN "application_id" uuid;--> statement-breakpoint
CREATE INDEX "subscriptions_application_idx" ON "notification"."subscriptions" USING btree ("application_id");--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD CONSTRAINT "subscriptions_owner_target_key" UNIQUE NULLS NOT DISTINCT("user_id","team_id","application_id","system_id","group_id");--> statement-breakpoint
ALTER TABLE "notification"."deliveries" ADD CONSTRAINT "deliveries_recipient_kind_check" CHECK ("notification"."deliveries"."recipient_kind" in ('user', 'application'));--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD CONSTRAINT "subscriptions_application_no_reminders" CHECK ("notification"."subscriptions"."application_id" is null or ("notification"."subscriptions"."remind_every_seconds" is null and "notification"."subscriptions"."escalate_after_seconds" is null));--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD CONSTRAINT "subscriptions_one_owner" CHECK (num_nonnulls("notification"."subscriptions"."user_id", "notification"."subscriptions"."team_id", "notification"."subscriptions"."application_id") = 1);