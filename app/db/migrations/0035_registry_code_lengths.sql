-- Decision 0120: a workshop's company ID is an 8-digit Estonian registry code (its check digit is
-- checked by the domain, app/utils/registry-code.ts) or the 10-digit number of the specification.
ALTER TABLE "workshops" DROP CONSTRAINT "workshops_company_id_digits";--> statement-breakpoint
ALTER TABLE "workshops" ADD CONSTRAINT "workshops_company_id_digits" CHECK ("workshops"."company_id" ~ '^([0-9]{8}|[0-9]{10})$');