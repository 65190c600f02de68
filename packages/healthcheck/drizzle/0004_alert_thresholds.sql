ALTER TABLE "healthcheck"."health_checks" ADD COLUMN "failures_before_alert" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "healthcheck"."health_checks" ADD COLUMN "recoveries_before_resolve" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "healthcheck"."health_checks" ADD COLUMN "retry_interval_seconds" integer;--> statement-breakpoint
ALTER TABLE "healthcheck"."health_checks" ADD COLUMN "alert_status" text;--> statement-breakpoint
ALTER TABLE "healthcheck"."health_checks" ADD COLUMN "streak_status" text;--> statement-breakpoint
ALTER TABLE "healthcheck"."health_checks" ADD COLUMN "streak_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "healthcheck"."results" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Existing checks count their latest outcome as reached, so upgrading announces no change.
UPDATE "healthcheck"."health_checks" AS checks SET "alert_status" = latest."status", "streak_status" = latest."status", "streak_count" = 1
FROM (
  SELECT DISTINCT ON ("health_check_id") "health_check_id", "status"
  FROM "healthcheck"."results"
  ORDER BY "health_check_id", "checked_at" DESC, "id" DESC
) AS latest
WHERE latest."health_check_id" = checks."id";
