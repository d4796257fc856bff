-- Issue 32 (decision 0129): each ad has one language and is shown only to readers of it. Existing
-- ads become Estonian, the site's first language; new ones name theirs.
ALTER TABLE "ads" ADD COLUMN "language" "language" DEFAULT 'et' NOT NULL;--> statement-breakpoint
ALTER TABLE "ads" ALTER COLUMN "language" DROP DEFAULT;--> statement-breakpoint
-- Issue 32 (decision 0128): no sort looks at payment. "Best rated" puts workshops with at least 3
-- reviews first, then the average, then the number of reviews (hand-written, like 0003_directory_indexes).
DROP INDEX IF EXISTS "workshops_city_featured_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "workshops_featured_sort_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "workshops_city_rating_idx" ON "workshops" USING btree ("city_id", ("review_count" >= 3) DESC NULLS LAST, "rating_average" DESC NULLS LAST, "review_count" DESC NULLS LAST, "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "workshops_rating_sort_idx" ON "workshops" USING btree (("review_count" >= 3) DESC NULLS LAST, "rating_average" DESC NULLS LAST, "review_count" DESC NULLS LAST, "id");
