CREATE TABLE "healthcheck"."heartbeats" (
	"health_check_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"issued_at" timestamp (3) with time zone NOT NULL,
	"last_beat_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "healthcheck"."system_dependencies" (
	"system_id" uuid NOT NULL,
	"depends_on_system_id" uuid NOT NULL,
	CONSTRAINT "system_dependencies_system_id_depends_on_system_id_pk" PRIMARY KEY("system_id","depends_on_system_id")
);
--> statement-breakpoint
ALTER TABLE "healthcheck"."system_statuses" ADD COLUMN "caused_by_system_id" uuid;--> statement-breakpoint
ALTER TABLE "healthcheck"."heartbeats" ADD CONSTRAINT "heartbeats_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "healthcheck"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "system_dependencies_depends_on_idx" ON "healthcheck"."system_dependencies" USING btree ("depends_on_system_id");