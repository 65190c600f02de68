CREATE SCHEMA "catalog";
--> statement-breakpoint
CREATE TABLE "catalog"."group_systems" (
	"group_id" uuid NOT NULL,
	"system_id" uuid NOT NULL,
	CONSTRAINT "group_systems_group_id_system_id_pk" PRIMARY KEY("group_id","system_id")
);
--> statement-breakpoint
CREATE TABLE "catalog"."groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "groups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "catalog"."systems" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"owner" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "systems_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "catalog"."group_systems" ADD CONSTRAINT "group_systems_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "catalog"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog"."group_systems" ADD CONSTRAINT "group_systems_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "catalog"."systems"("id") ON DELETE cascade ON UPDATE no action;