CREATE SCHEMA "statuspage";
--> statement-breakpoint
CREATE TABLE "statuspage"."pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"logo_url" text,
	"brand_color" text,
	"custom_domain" text,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "pages_slug_idx" ON "statuspage"."pages" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "pages_custom_domain_idx" ON "statuspage"."pages" USING btree ("custom_domain");