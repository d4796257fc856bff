-- Trigram indexes serve the free-text search on workshop and user names.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
