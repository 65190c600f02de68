CREATE TABLE "checkline"."idempotency_keys" (
	"principal" text NOT NULL,
	"procedure" text NOT NULL,
	"key" text NOT NULL,
	"input_hash" text NOT NULL,
	"output" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_principal_procedure_key_pk" PRIMARY KEY("principal","procedure","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "checkline"."idempotency_keys" USING btree ("expires_at");