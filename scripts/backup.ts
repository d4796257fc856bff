/**
 * `npm run backup [-- <file.tar.gz>]`: one archive of the embedded install (its database and every
 * file of DATA_DIR), made while the portal runs or not (decision 0144, docs/backup.md). Without a
 * file name: backups/autohub-<time>.tar.gz under the working directory. On PostgreSQL it refuses:
 * the server and the bucket are backed up with their own tools, as docs/backup.md says.
 */
import path from 'node:path'
import { BackupError, makeBackup } from '~/backup/archive.server'
import { getEnv } from '~/utils/env.server'

const env = getEnv()
if (!env.usesEmbeddedDatabase) {
	console.error(
		'npm run backup copies the embedded database (no DATABASE_URL). This portal runs on PostgreSQL (DATABASE_URL is set): back the database up with pg_dump or base backups and WAL archiving, and the stored files with the bucket’s versioning or their folder, step by step in docs/backup.md.',
	)
	process.exit(1)
}
if (env.dataDir.startsWith('memory://')) {
	console.error(`DATA_DIR=${env.DATA_DIR} is a database in memory: there is nothing on disk to back up.`)
	process.exit(1)
}
const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')
const output = path.resolve(process.argv[2] || path.join('backups', `autohub-${stamp}.tar.gz`))
// With S3_BUCKET the stored files are in the bucket, not in DATA_DIR/uploads: the archive cannot hold them.
const filesNote = env.S3_BUCKET ? `the stored files are in the S3 bucket ${env.S3_BUCKET}, not in this archive (docs/backup.md)` : undefined

try {
	const started = performance.now()
	const manifest = await makeBackup({ dataDir: env.dataDir, output, filesNote })
	const counts = Object.entries(manifest.database.counts)
		.map(([table, count]) => `${table} ${count}`)
		.join(', ')
	console.log(
		`Backup written to ${output} in ${((performance.now() - started) / 1000).toFixed(1)} s, from the ${manifest.takenFrom} in ${env.dataDir}: ` +
			`migration ${manifest.database.latestMigration}, ${counts}; ${manifest.files.count} files (${(manifest.files.bytes / 1e6).toFixed(1)} MB).`,
	)
	if (filesNote) console.warn(`Note: ${filesNote}.`)
	console.log('The archive holds personal data, password hashes and the session secret: keep it as safe as the server.')
} catch (error) {
	console.error(`The backup failed: ${error instanceof BackupError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
	process.exit(1)
}
