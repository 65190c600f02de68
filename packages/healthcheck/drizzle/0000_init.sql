CREATE SCHEMA "healthcheck";
--> statement-breakpoint
CREATE TABLE "healthcheck"."health_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"system_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"config" jsonb NOT NULL,
	"interval_seconds" integer NOT NULL,
	"timeout_ms" integer NOT NULL,
	"next_run_at" timestamp (3) with time zone NOT NULL,
	"claimed_due_at" timestamp (3) with time zone,
	"claimed_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "health_checks_system_name_unique" UNIQUE("system_id","name")
);
--> statement-breakpoint
CREATE TABLE "healthcheck"."results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"health_check_id" uuid NOT NULL,
	"status" text NOT NULL,
	"latency_ms" integer NOT NULL,
	"message" text NOT NULL,
	"due_at" timestamp (3) with time zone,
	"checked_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "healthcheck"."system_statuses" (
	"system_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"changed_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "healthcheck"."results" ADD CONSTRAINT "results_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "healthcheck"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "health_checks_next_run_at_idx" ON "healthcheck"."health_checks" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "health_checks_claimed_until_idx" ON "healthcheck"."health_checks" USING btree ("claimed_until");--> statement-breakpoint
CREATE INDEX "results_check_time_idx" ON "healthcheck"."results" USING btree ("health_check_id","checked_at","id");--> statement-breakpoint
CREATE INDEX "results_checked_at_idx" ON "healthcheck"."results" USING btree ("checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "results_check_due_unique" ON "healthcheck"."results" USING btree ("health_check_id","due_at");