/**
 * `npm run db:seed`: migrates the database named by DATABASE_URL (or the embedded one in DATA_DIR)
 * and loads the demo data if it is empty. `--force` loads it only into an empty database too:
 * demo data is never mixed into real data.
 */
import { loadDemoDataIfEmpty } from '~/db/seed/demo-data.server'
import { migrateDatabase } from '~/db/migrate.server'
import { closeDatabase, getConnection } from '~/db/db.server'
import { getFileStore } from '~/uploads/file-store.server'

const started = performance.now()
try {
	await migrateDatabase()
	// With S3_BUCKET the demo images go to the bucket: it must be there first.
	await getFileStore().check()
	const loaded = await loadDemoDataIfEmpty()
	console.log(
		loaded
			? `Demo data loaded into ${getConnection().target} (files in ${getFileStore().location}) in ${Math.round(performance.now() - started)} ms.`
			: `${getConnection().target} already has data; nothing loaded.`,
	)
} finally {
	await closeDatabase()
}
