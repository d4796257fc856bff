import { defineConfig } from 'drizzle-kit'

// Generates SQL migrations from app/db/schema.ts. Generate new ones; never regenerate old ones.
export default defineConfig({
	dialect: 'postgresql',
	schema: './app/db/schema.ts',
	out: './app/db/migrations',
	casing: 'snake_case',
})
