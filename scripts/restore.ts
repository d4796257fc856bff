/**
 * `npm run restore -- <file.tar.gz> [--force]`: an archive of `npm run backup` back into DATA_DIR,
 * which must be empty (or missing); --force moves what is there aside first, deleting nothing
 * (decision 0144, docs/backup.md). Refused while a portal holds DATA_DIR open, and on PostgreSQL.
 */
import { BackupError, restoreBackup } from '~/backup/archive.server'
import { getEnv } from '~/utils/env.server'

const args = process.argv.slice(2)
const force = args.includes('--force')
const archive = args.find((arg) => !arg.startsWith('--'))
const env = getEnv()
if (!env.usesEmbeddedDatabase) {
	console.error('npm run restore restores the embedded database (no DATABASE_URL). This portal runs on PostgreSQL (DATABASE_URL is set): restore it with pg_restore or from a base backup, as docs/backup.md says.')
	process.exit(1)
}
if (!archive || env.dataDir.startsWith('memory://')) {
	console.error('Usage: DATA_DIR=<an empty folder> npm run restore -- <backup.tar.gz> [--force]')
	process.exit(2)
}

try {
	const started = performance.now()
	const result = await restoreBackup({ dataDir: env.dataDir, archive, force })
	if (result.movedAside) console.log(`What was in ${env.dataDir} is now in ${result.movedAside}.`)
	const counts = Object.entries(result.restored.counts)
		.map(([table, count]) => `${table} ${count}`)
		.join(', ')
	console.log(
		`Restored ${archive} (made ${result.manifest.createdAt}) into ${env.dataDir} in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
			`migration ${result.restored.latestMigration}, ${counts} (as its manifest says); ${result.files} files. Start the portal on it with npm start.`,
	)
	if (result.manifest.files.note) console.warn(`Note: ${result.manifest.files.note}.`)
} catch (error) {
	console.error(`The restore failed: ${error instanceof BackupError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
	process.exit(1)
}
