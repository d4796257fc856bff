ALTER TABLE "reviews" DROP CONSTRAINT "reviews_rating_range";--> statement-breakpoint
ALTER TABLE "reviews" ALTER COLUMN "rating" SET DATA TYPE double precision;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_rating_halves" CHECK ("reviews"."rating" between 0.5 and 5 and "reviews"."rating" * 2 = trunc("reviews"."rating" * 2));