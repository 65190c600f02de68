CREATE SCHEMA "maintenance";
--> statement-breakpoint
CREATE TABLE "maintenance"."window_systems" (
	"window_id" uuid NOT NULL,
	"system_id" uuid NOT NULL,
	CONSTRAINT "window_systems_window_id_system_id_pk" PRIMARY KEY("window_id","system_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance"."windows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"started_notified_at" timestamp with time zone,
	"ended_notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "windows_period_check" CHECK ("maintenance"."windows"."start_at" < "maintenance"."windows"."end_at")
);
--> statement-breakpoint
ALTER TABLE "maintenance"."window_systems" ADD CONSTRAINT "window_systems_window_id_windows_id_fk" FOREIGN KEY ("window_id") REFERENCES "maintenance"."windows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "window_systems_system_id_idx" ON "maintenance"."window_systems" USING btree ("system_id");--> statement-breakpoint
CREATE INDEX "windows_end_at_idx" ON "maintenance"."windows" USING btree ("end_at");--> statement-breakpoint
CREATE INDEX "windows_start_pending_idx" ON "maintenance"."windows" USING btree ("start_at") WHERE "maintenance"."windows"."started_notified_at" is null;--> statement-breakpoint
CREATE INDEX "windows_end_pending_idx" ON "maintenance"."windows" USING btree ("end_at") WHERE "maintenance"."windows"."ended_notified_at" is null;