CREATE SCHEMA "incident";
--> statement-breakpoint
CREATE TABLE "incident"."incident_systems" (
	"incident_id" uuid NOT NULL,
	"system_id" uuid NOT NULL,
	CONSTRAINT "incident_systems_incident_id_system_id_pk" PRIMARY KEY("incident_id","system_id")
);
--> statement-breakpoint
CREATE TABLE "incident"."incident_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"incident_id" uuid NOT NULL,
	"status" text NOT NULL,
	"message" text,
	"author_id" text,
	"author_kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident"."incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'investigating' NOT NULL,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "incidents_severity_check" CHECK ("incident"."incidents"."severity" in ('minor', 'major', 'critical')),
	CONSTRAINT "incidents_status_check" CHECK ("incident"."incidents"."status" in ('investigating', 'identified', 'monitoring', 'resolved'))
);
--> statement-breakpoint
ALTER TABLE "incident"."incident_systems" ADD CONSTRAINT "incident_systems_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "incident"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident"."incident_updates" ADD CONSTRAINT "incident_updates_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "incident"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_systems_system_id_idx" ON "incident"."incident_systems" USING btree ("system_id");--> statement-breakpoint
CREATE INDEX "incident_updates_incident_id_idx" ON "incident"."incident_updates" USING btree ("incident_id","created_at");--> statement-breakpoint
CREATE INDEX "incidents_created_at_idx" ON "incident"."incidents" USING btree ("created_at");