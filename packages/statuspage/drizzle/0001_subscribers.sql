CREATE TABLE "statuspage"."sent_mails" (
	"subscriber_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "sent_mails_subscriber_id_event_id_pk" PRIMARY KEY("subscriber_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "statuspage"."subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"page_id" uuid NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "subscribers_status_check" CHECK ("statuspage"."subscribers"."status" in ('pending', 'confirmed'))
);
--> statement-breakpoint
ALTER TABLE "statuspage"."sent_mails" ADD CONSTRAINT "sent_mails_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "statuspage"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statuspage"."subscribers" ADD CONSTRAINT "subscribers_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "statuspage"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_page_email_idx" ON "statuspage"."subscribers" USING btree ("page_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_confirm_token_idx" ON "statuspage"."subscribers" USING btree ("confirm_token_hash");