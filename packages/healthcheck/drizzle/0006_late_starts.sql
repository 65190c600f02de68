CREATE TABLE "healthcheck"."late_starts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"health_check_id" uuid NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"process_id" text NOT NULL,
	"waited_for" text NOT NULL,
	"queue_wait_ms" integer
);
--> statement-breakpoint
ALTER TABLE "healthcheck"."late_starts" ADD CONSTRAINT "late_starts_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "healthcheck"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "late_starts_at_idx" ON "healthcheck"."late_starts" USING btree ("at");--> statement-breakpoint
CREATE INDEX "late_starts_check_idx" ON "healthcheck"."late_starts" USING btree ("health_check_id");