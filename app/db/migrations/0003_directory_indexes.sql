-- The public workshop directory (issue 4, docs/decisions/0021): every filter and sort of the list
-- is served by an index, with the id as the last key so that pages are stable and the planner
-- reads the first rows of a page straight from the index. Hand-written: schema.ts is unchanged.

-- City filter with the default sort (paid package first, then rating, then number of reviews).
CREATE INDEX IF NOT EXISTS "workshops_city_featured_idx" ON "workshops" USING btree ("city_id", "package_rank" DESC NULLS LAST, "rating_average" DESC NULLS LAST, "review_count" DESC NULLS LAST, "id");--> statement-breakpoint
-- The default sort over the whole list, with the id as tiebreaker.
CREATE INDEX IF NOT EXISTS "workshops_featured_sort_idx" ON "workshops" USING btree ("package_rank" DESC NULLS LAST, "rating_average" DESC NULLS LAST, "review_count" DESC NULLS LAST, "id");--> statement-breakpoint
-- Sort by number of reviews, then rating.
CREATE INDEX IF NOT EXISTS "workshops_reviews_sort_idx" ON "workshops" USING btree ("review_count" DESC NULLS LAST, "rating_average" DESC NULLS LAST, "id");--> statement-breakpoint
-- Sort by name.
CREATE INDEX IF NOT EXISTS "workshops_name_sort_idx" ON "workshops" USING btree (lower("workshop_name"), "id");
