CREATE TABLE "healthcheck"."result_rollups" (
	"health_check_id" uuid NOT NULL,
	"granularity" text NOT NULL,
	"bucket_start" timestamp (3) with time zone NOT NULL,
	"runs" integer NOT NULL,
	"failures" integer NOT NULL,
	"latency_sum_ms" bigint NOT NULL,
	"latency_max_ms" integer NOT NULL,
	"latency_buckets" integer[] NOT NULL,
	"up_seconds" integer NOT NULL,
	"down_seconds" integer NOT NULL,
	CONSTRAINT "result_rollups_health_check_id_granularity_bucket_start_pk" PRIMARY KEY("health_check_id","granularity","bucket_start")
);
--> statement-breakpoint
ALTER TABLE "healthcheck"."results" ADD COLUMN "lag_ms" integer;--> statement-breakpoint
ALTER TABLE "healthcheck"."results" ADD COLUMN "process_id" text;--> statement-breakpoint
ALTER TABLE "healthcheck"."result_rollups" ADD CONSTRAINT "result_rollups_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "healthcheck"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "result_rollups_bucket_start_idx" ON "healthcheck"."result_rollups" USING btree ("bucket_start");