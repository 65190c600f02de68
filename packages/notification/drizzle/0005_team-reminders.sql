ALTER TABLE "notification"."subscriptions" DROP CONSTRAINT "subscriptions_escalation_pair";--> statement-breakpoint
ALTER TABLE "notification"."alerts" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification"."alerts" ADD COLUMN "team_id" uuid;--> statement-breakpoint
ALTER TABLE "notification"."alerts" ADD COLUMN "escalate_to_team_id" uuid;--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD COLUMN "escalate_to_team_id" uuid;--> statement-breakpoint
CREATE INDEX "alerts_team_idx" ON "notification"."alerts" USING btree ("team_id","opened_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "notification"."alerts" ADD CONSTRAINT "alerts_one_holder" CHECK (("notification"."alerts"."user_id" is null) <> ("notification"."alerts"."team_id" is null));--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD CONSTRAINT "subscriptions_one_escalation_target" CHECK ("notification"."subscriptions"."escalate_to_user_id" is null or "notification"."subscriptions"."escalate_to_team_id" is null);--> statement-breakpoint
ALTER TABLE "notification"."subscriptions" ADD CONSTRAINT "subscriptions_escalation_pair" CHECK (("notification"."subscriptions"."escalate_after_seconds" is null) = ("notification"."subscriptions"."escalate_to_user_id" is null and "notification"."subscriptions"."escalate_to_team_id" is null));