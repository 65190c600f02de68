CREATE TABLE "notification"."oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"strategy_id" text NOT NULL,
	"code_verifier_ciphertext" text NOT NULL,
	"return_path" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification"."oauth_tokens" (
	"user_id" uuid NOT NULL,
	"strategy_id" text NOT NULL,
	"access_token_ciphertext" text NOT NULL,
	"refresh_token_ciphertext" text,
	"expires_at" timestamp with time zone,
	"scopes" text[] DEFAULT '{}' NOT NULL,
	"refreshing_until" timestamp with time zone,
	"needs_relink" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "oauth_tokens_user_id_strategy_id_pk" PRIMARY KEY("user_id","strategy_id")
);
--> statement-breakpoint
CREATE INDEX "oauth_states_expires_idx" ON "notification"."oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_tokens_strategy_idx" ON "notification"."oauth_tokens" USING btree ("strategy_id");