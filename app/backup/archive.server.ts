import fs from 'node:fs'
import path from 'node:path'
import { finished } from 'node:stream/promises'
import zlib from 'node:zlib'
import type { PGlite } from '@electric-sql/pglite'
import { createEmbeddedClient, embeddedDirectory } from '~/db/embedded-database.server'
import { migrationsDir } from '~/utils/paths.server'
import { BACKUP_SOCKET, askForDump, dumpDatabase, isHeldOpen, openBackupDoor } from './door.server'
import { readTar, TarWriter } from './tar.server'

/**
 * One backup of an embedded install is one .tar.gz (decision 0144, docs/backup.md):
 *   manifest.json   what it is: when, from where, the schema's migration, the counts of rows and files
 *   database.tar    PGlite's data directory (`dumpDataDir`), restored with `loadDataDir`
 *   data/…          every other file of DATA_DIR: uploads/ (the stored files), session-secret, mail/
 */

export const ARCHIVE_FORMAT = 'autohub-backup'
const FORMAT_VERSION = 1

/** Tables whose row counts the manifest holds, and a restore checks. */
const COUNTED = ['users', 'workshops', 'vehicles', 'service_requests', 'offers', 'bookings', 'reviews', 'invoices', 'payments', 'uploads', 'chat_messages', 'notifications', 'email_outbox'] as const

export type DatabaseFacts = { postgres: string; migrations: number; latestMigration: string | null; counts: Record<string, number> }

export type Manifest = {
	format: typeof ARCHIVE_FORMAT
	version: number
	createdAt: string
	/** 'running portal': the copy was made by the process holding the database; 'data directory': none was running. */
	takenFrom: 'running portal' | 'data directory'
	database: DatabaseFacts
	files: { count: number; bytes: number; note?: string }
}

/** The PostgreSQL version, the schema's migration and the row counts of a database. */
export async function databaseFacts(client: PGlite): Promise<DatabaseFacts> {
	const version = (await client.query<{ server_version: string }>('show server_version')).rows[0]!.server_version
	const migration = (await client.query<{ count: number; last: string | null }>('select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations')).rows[0]!
	const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number; tag: string }> }
	const latest = journal.entries.find((entry) => String(entry.when) === migration.last)
	const present = new Set(
		(await client.query<{ name: string }>(`select relname as name from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace`)).rows.map((row) => row.name),
	)
	const counts: Record<string, number> = {}
	for (const table of COUNTED.filter((name) => present.has(name))) {
		counts[table] = (await client.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]!.n
	}
	return { postgres: version, migrations: migration.count, latestMigration: latest?.tag ?? migration.last, counts }
}

/** The facts of a dump, read from a copy of it opened in memory: a dump that does not open fails the backup here, not at a restore. */
async function factsOfDump(file: string): Promise<DatabaseFacts> {
	const client = createEmbeddedClient(`memory://backup-check-${process.pid}`, new Blob([fs.readFileSync(file)]))
	try {
		return await databaseFacts(client)
	} finally {
		await client.close()
	}
}

/** Every file of DATA_DIR but the database (in its dump), the socket, files being uploaded, and `skip`. */
function filesOf(dataDir: string, skip: string[]) {
	const leaveOut = new Set(['pglite', BACKUP_SOCKET, path.join('uploads', '.staging')])
	const found: Array<{ relative: string; absolute: string; bytes: number }> = []
	const walk = (relative: string) => {
		for (const entry of fs.readdirSync(path.join(dataDir, relative), { withFileTypes: true })) {
			const child = path.join(relative, entry.name)
			const absolute = path.join(dataDir, child)
			if (leaveOut.has(child) || skip.some((other) => absolute === other || absolute.startsWith(`${other}${path.sep}`))) continue
			if (entry.isDirectory()) walk(child)
			else if (entry.isFile()) found.push({ relative: child.split(path.sep).join('/'), absolute, bytes: fs.statSync(absolute).size })
		}
	}
	walk('')
	return found.sort((a, b) => a.relative.localeCompare(b.relative))
}

export class BackupError extends Error {}

/**
 * Makes a backup of the embedded install in `dataDir` into `output` (a new .tar.gz). While the
 * portal runs, it makes the database's copy (the backup door); when none does, this process opens
 * the directory itself. Files are copied after the database: a stored file comes into place just
 * after the commit that names it, so every file the copy's rows name is there by then.
 */
export async function makeBackup(options: { dataDir: string; output: string; filesNote?: string }): Promise<Manifest> {
	const dataDir = path.resolve(options.dataDir)
	const output = path.resolve(options.output)
	if (fs.existsSync(output)) throw new BackupError(`${output} exists already: name a new file.`)
	fs.mkdirSync(path.dirname(output), { recursive: true })
	const work = fs.mkdtempSync(path.join(path.dirname(output), '.autohub-backup-'))
	const partial = `${output}.partial`
	try {
		const dump = path.join(work, 'database.tar')
		const answer = await askForDump(dataDir, dump)
		let takenFrom: Manifest['takenFrom'] = 'running portal'
		if (answer === 'no portal') {
			takenFrom = 'data directory'
			const directory = embeddedDirectory(dataDir)
			if (!fs.existsSync(path.join(directory, 'PG_VERSION'))) throw new BackupError(`There is no embedded database in ${dataDir} (DATA_DIR): nothing to back up.`)
			const client = createEmbeddedClient(directory)
			// Open while this runs, so that a second backup asks here and a portal started meanwhile says so in its log.
			const door = openBackupDoor(client, dataDir, () => undefined)
			try {
				await dumpDatabase(client, dump)
			} finally {
				await door.close()
				await client.close()
			}
		} else if (!answer.ok) throw new BackupError(`The running portal could not copy its database: ${answer.error}`)

		const database = await factsOfDump(dump)
		const files = filesOf(dataDir, [work, output, partial])
		const manifest: Manifest = {
			format: ARCHIVE_FORMAT,
			version: FORMAT_VERSION,
			createdAt: new Date().toISOString(),
			takenFrom,
			database,
			files: { count: files.length, bytes: files.reduce((sum, file) => sum + file.bytes, 0), ...(options.filesNote ? { note: options.filesNote } : {}) },
		}

		const out = fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 })
		const gzip = zlib.createGzip({ level: 6 })
		gzip.pipe(out)
		const tar = new TarWriter(gzip)
		await tar.bytes('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`))
		await tar.file('database.tar', dump)
		for (const file of files) await tar.file(`data/${file.relative}`, file.absolute)
		await tar.end()
		gzip.end()
		await finished(out)
		fs.renameSync(partial, output)
		return manifest
	} finally {
		fs.rmSync(work, { recursive: true, force: true })
		fs.rmSync(partial, { force: true })
	}
}

/** A relative path inside DATA_DIR from an archive's `data/…` name, or null for anything that would leave it. */
function safeRelative(name: string): string | null {
	const relative = name.slice('data/'.length)
	const normal = path.posix.normalize(relative)
	if (!relative || normal !== relative || normal.startsWith('../') || normal === '..' || path.posix.isAbsolute(normal)) return null
	if (normal === 'pglite' || normal.startsWith('pglite/') || normal === BACKUP_SOCKET) return null
	return normal
}

export type RestoreResult = { manifest: Manifest; restored: DatabaseFacts; files: number; movedAside: string | null }

/**
 * Restores `archive` into `dataDir`, which must be empty (or missing); `force` moves what is in it
 * aside first, into `<DATA_DIR>.before-restore-<time>`, never deleting it. Refused while a process
 * holds `dataDir` open. The database is checked after: its counts must be the manifest's.
 */
export async function restoreBackup(options: { dataDir: string; archive: string; force?: boolean }): Promise<RestoreResult> {
	const dataDir = path.resolve(options.dataDir)
	const archive = path.resolve(options.archive)
	if (!fs.existsSync(archive)) throw new BackupError(`${archive}: no such file.`)
	if (await isHeldOpen(dataDir)) throw new BackupError(`A running portal (or script) holds ${dataDir} open: stop it before restoring into it.`)
	const present = fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : []
	let movedAside: string | null = null
	if (present.length) {
		if (!options.force) {
			throw new BackupError(
				`${dataDir} (DATA_DIR) is not empty: a restore goes into an empty one only. Point DATA_DIR at a new folder, or add --force to move what is there aside (into ${path.basename(dataDir)}.before-restore-<time>, nothing is deleted).`,
			)
		}
		movedAside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`
		fs.mkdirSync(movedAside)
		for (const name of present) fs.renameSync(path.join(dataDir, name), path.join(movedAside, name))
	}
	fs.mkdirSync(dataDir, { recursive: true })
	const dumpFile = path.join(dataDir, '.restore-database.tar')
	try {
		let manifest: Manifest | null = null
		let dumpRead = false
		let files = 0
		await readTar(
			fs.createReadStream(archive).pipe(zlib.createGunzip()),
			(name) => {
				if (name === 'manifest.json') return 'memory'
				if (!manifest) throw new BackupError(`${archive} is not an Autohub backup (no manifest.json first).`)
				if (name === 'database.tar') {
					dumpRead = true
					return { file: dumpFile }
				}
				const relative = name.startsWith('data/') ? safeRelative(name) : null
				if (!relative) throw new BackupError(`${archive} holds "${name}", which a backup never does: nothing more is restored.`)
				const target = path.join(dataDir, relative)
				fs.mkdirSync(path.dirname(target), { recursive: true })
				files++
				return { file: target }
			},
			(name, data) => {
				const parsed = JSON.parse(data.toString('utf8')) as Manifest
				if (parsed.format !== ARCHIVE_FORMAT) throw new BackupError(`${archive} is not an Autohub backup (its manifest says "${String(parsed.format)}").`)
				if (parsed.version > FORMAT_VERSION) throw new BackupError(`${archive} is of a newer backup format (${parsed.version}): restore it with a newer Autohub.`)
				manifest = parsed
			},
		)
		const read = manifest as Manifest | null
		if (!read || !dumpRead) throw new BackupError(`${archive} holds no ${read ? 'database' : 'manifest'}: it is not a whole backup.`)
		if (files !== read.files.count) throw new BackupError(`${archive} holds ${files} files where its manifest says ${read.files.count}: it is incomplete.`)

		const client = createEmbeddedClient(embeddedDirectory(dataDir), new Blob([fs.readFileSync(dumpFile)]))
		let restored: DatabaseFacts
		try {
			restored = await databaseFacts(client)
		} finally {
			await client.close()
		}
		const differs = Object.entries(read.database.counts).filter(([table, count]) => restored.counts[table] !== count)
		if (differs.length) throw new BackupError(`the restored database differs from the backup's manifest: ${differs.map(([table, count]) => `${table} ${restored.counts[table]} instead of ${count}`).join(', ')}.`)
		return { manifest: read, restored, files, movedAside }
	} catch (error) {
		// Half a restore is no data directory: empty it again (what was there before is aside, untouched).
		for (const name of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true })
		throw error
	} finally {
		fs.rmSync(dumpFile, { force: true })
	}
}
