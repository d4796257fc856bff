/**
 * Vitest globalSetup of the suites with a database (integration, fuzz): finds or makes the two
 * templates every test file's database is a copy of (docs/decisions/0076, 0109, 0117), instead of
 * each file migrating a new database and loading the demo data itself.
 *   - the migrated template: the migrations, run by the app's own code;
 *   - the demo template: a copy of it with the demo data loaded by the app's own loader, and the
 *     folder of the pictures it stored; a file that asks for the demo data (`demoData()`,
 *     tests/support/demo-data.ts) moves to a copy of it.
 * Each is kept under a hash of what makes it (below), so the fuzz suite after the integration
 * tests, and the next run, find it ready; anything else makes another. The demo template's hash
 * holds the day too (in Tallinn): the demo data counts its days from when it is loaded ("waiting
 * since yesterday"), so a template is only ever used on the day it was loaded (decision 0117).
 *   On a PostgreSQL server (TEST_DATABASE_URL): databases `autohub_template_<day>_<hash>` and
 *   `autohub_demo_<day>_<hash>` marked as templates (closed to connections: a clone fails while
 *   anyone is connected), which each file clones with CREATE DATABASE … TEMPLATE; the demo's
 *   pictures in the temporary folder of the same name. They stay on the server for the next run;
 *   those of days before yesterday are dropped.
 *   On embedded PGlite: in-memory databases dumped to tarballs (`dumpDataDir`) in tests/.tmp, which
 *   each file's in-memory database is loaded from (`loadDataDir`), the pictures in a folder beside.
 * Each is made under a name of its own run and renamed when whole, so a run beside this one never
 * takes half of one; of two runs that make the same template, the second finds the first's there
 * and drops its own. Each file's setup still runs the migrations: on a copy they find nothing to do.
 */
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import pg from 'pg'
import type { TestProject } from 'vitest/node'

export type DatabaseTemplate = { kind: 'postgres'; name: string } | { kind: 'pglite'; tarball: string }
/** The demo data's template: a database to copy (or a tarball to start from) and the folder of its stored files. */
export type DemoTemplate = (DatabaseTemplate & { files: string }) | null

declare module 'vitest' {
	export interface ProvidedContext {
		databaseTemplate: DatabaseTemplate
		demoTemplate: DemoTemplate
	}
}

const serverUrl = process.env.TEST_DATABASE_URL
const root = fileURLToPath(new URL('../..', import.meta.url))
const DAY = 24 * 60 * 60 * 1000

export default async function setup(project: TestProject) {
	const run = randomUUID().replace(/-/g, '').slice(0, 12)
	const { tallinnDay } = await import('~/utils/time')
	const now = Date.now()
	const today = tallinnDay(new Date(now)).replace(/-/g, '')
	// Kept until the day after: a run that began yesterday evening may still be copying yesterday's.
	const yesterday = tallinnDay(new Date(now - DAY)).replace(/-/g, '')
	const migratedKey = migratedTemplateKey()
	const demoKey = await demoTemplateKey(migratedKey, today)
	if (serverUrl) return setupOnServer(project, { run, today, yesterday, migratedKey, demoKey })

	const folder = path.join(root, 'tests/.tmp')
	fs.mkdirSync(folder, { recursive: true })
	const tarball = path.join(folder, `pglite-template-${migratedKey}.tar`)
	if (!fs.existsSync(tarball)) {
		await migrateWith({ DATABASE_URL: undefined, DATA_DIR: `memory://autohub_template_${run}` }, async (connection) => {
			const dump = await dumpOf(connection)
			// Templates of other migrations or versions are of no more use.
			for (const old of fs.readdirSync(folder).filter((name) => /^pglite-template-\w+\.tar$/.test(name) && name !== path.basename(tarball))) {
				fs.rmSync(path.join(folder, old), { force: true })
			}
			// Written whole, then renamed: a run beside this one never reads half a file.
			fs.writeFileSync(`${tarball}.${run}`, dump)
			fs.renameSync(`${tarball}.${run}`, tarball)
		})
	}
	project.provide('databaseTemplate', { kind: 'pglite', tarball })

	// The demo template: a folder with the dump of a copy of the migrated one holding the demo
	// data, and its pictures; made beside under this run's name and renamed when whole.
	for (const old of fs.readdirSync(folder)) {
		const day = /^pglite-demo-(\d{8})-/.exec(old)?.[1]
		if (day && day < yesterday) fs.rmSync(path.join(folder, old), { recursive: true, force: true })
	}
	const demo = path.join(folder, `pglite-demo-${today}-${demoKey}`)
	if (!fs.existsSync(demo)) {
		const making = `${demo}.${run}`
		const { startEmbeddedDatabasesFrom } = await import('~/db/db.server')
		const { storageRoot } = await import('~/uploads/file-store.server')
		startEmbeddedDatabasesFrom(new Blob([fs.readFileSync(tarball)]))
		try {
			await migrateWith({ DATABASE_URL: undefined, DATA_DIR: `memory://autohub_demo_${run}` }, async (connection) => {
				await loadDemo()
				fs.mkdirSync(making, { recursive: true })
				fs.writeFileSync(path.join(making, 'database.tar'), await dumpOf(connection))
				fs.cpSync(storageRoot(), path.join(making, 'uploads'), { recursive: true })
				fs.rmSync(storageRoot(), { recursive: true, force: true })
			})
		} finally {
			startEmbeddedDatabasesFrom(undefined)
		}
		try {
			fs.renameSync(making, demo)
		} catch (error) {
			// Another run made the same one meanwhile: that one is used.
			if (!fs.existsSync(demo)) throw error
			fs.rmSync(making, { recursive: true, force: true })
		}
	}
	project.provide('demoTemplate', { kind: 'pglite', tarball: path.join(demo, 'database.tar'), files: path.join(demo, 'uploads') })
}

/** The same two templates as databases on the server, the demo's pictures in a folder its comment names. */
async function setupOnServer(project: TestProject, { run, today, yesterday, migratedKey, demoKey }: Record<'run' | 'today' | 'yesterday' | 'migratedKey' | 'demoKey', string>) {
	const ours = /^autohub_(?:template|demo)_(\d{8})_[0-9a-f]{12}(?:_b[0-9a-f]{12})?$/
	const stale = (name: string) => {
		const day = ours.exec(name)?.[1]
		return day !== undefined && day < yesterday
	}
	await withServer(async (client) => {
		const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like 'autohub\\_%'`)
		for (const { datname } of rows.filter((row) => stale(row.datname))) await dropTemplate(client, datname)
	})
	for (const name of fs.readdirSync(os.tmpdir()).filter(stale)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true })

	const url = new URL(serverUrl!)
	const at = (database: string) => Object.assign(new URL(url), { pathname: `/${database}` }).toString()

	const migrated = `autohub_template_${today}_${migratedKey.slice(0, 12)}`
	const migratedFound = await templateOnServer(migrated)
	let cleanUp: string[] = []
	if (!migratedFound) {
		const making = `${migrated}_b${run}`
		await withServer((client) => client.query(`create database "${making}"`))
		await migrateWith({ DATABASE_URL: at(making), DATA_DIR: path.join(os.tmpdir(), making) }, async () => {})
		fs.rmSync(path.join(os.tmpdir(), making), { recursive: true, force: true })
		await keepTemplate(making, migrated, null)
	}
	project.provide('databaseTemplate', { kind: 'postgres', name: migrated })

	const demo = `autohub_demo_${today}_${demoKey.slice(0, 12)}`
	let found = await templateOnServer(demo)
	if (!found || !fs.existsSync(found.files)) {
		const making = `${demo}_b${run}`
		const dataDir = path.join(os.tmpdir(), making)
		await withServer((client) => client.query(`create database "${making}" template "${migrated}"`))
		await migrateWith({ DATABASE_URL: at(making), DATA_DIR: dataDir }, loadDemo)
		const files = path.join(dataDir, 'uploads')
		// A template whose pictures are gone (a cleaned temporary folder) stays as it is for the runs
		// that use it; this run uses its own, under its own name, and drops it at the end.
		if (found) cleanUp = [making, dataDir]
		found = found ? await keepTemplate(making, making, files) : await keepTemplate(making, demo, files)
	}
	project.provide('demoTemplate', { kind: 'postgres', name: found.name, files: found.files })
	return async () => {
		await withServer(async (client) => {
			const [database, dataDir] = cleanUp
			if (database) await dropTemplate(client, database)
			if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
		})
	}
}

/** A whole template on the server under this name, and the folder of its pictures (its comment), if there is one. */
async function templateOnServer(name: string) {
	return withServer(async (client) => {
		const { rows } = await client.query<{ files: string | null }>(
			`select shobj_description(oid, 'pg_database') as files from pg_database where datname = $1 and datistemplate`,
			[name],
		)
		return rows[0] ? { name, files: rows[0].files ?? '' } : null
	})
}

/**
 * Marks a database made under this run's name a template, closed to connections (a clone fails
 * while anyone is connected to its template), and renames it to its kept name; if another run
 * kept one under that name meanwhile, this one is dropped and that one used.
 */
async function keepTemplate(making: string, name: string, files: string | null) {
	return withServer(async (client) => {
		if (files) await client.query(`comment on database "${making}" is ${client.escapeLiteral(files)}`)
		await client.query(`alter database "${making}" with is_template true allow_connections false`)
		if (making === name) return { name, files: files ?? '' }
		try {
			await client.query(`alter database "${making}" rename to "${name}"`)
			return { name, files: files ?? '' }
		} catch (error) {
			if ((error as { code?: string }).code !== '42P04') throw error
			await dropTemplate(client, making)
			if (files) fs.rmSync(path.dirname(files), { recursive: true, force: true })
			const { rows } = await client.query<{ files: string | null }>(`select shobj_description(oid, 'pg_database') as files from pg_database where datname = $1`, [name])
			return { name, files: rows[0]?.files ?? '' }
		}
	})
}

async function dropTemplate(client: pg.Client, name: string) {
	try {
		await client.query(`alter database "${name}" with is_template false`)
	} catch (error) {
		// Another run dropped it first.
		if ((error as { code?: string }).code === '3D000') return
		throw error
	}
	await client.query(`drop database if exists "${name}" with (force)`)
}

/** The demo data, loaded by the app's own loader into the database the environment names. */
async function loadDemo() {
	const { loadDemoData } = await import('~/db/seed/demo-data.server')
	await loadDemoData()
}

async function dumpOf(connection: { db: unknown }) {
	const { $client } = connection.db as unknown as { $client: { dumpDataDir: (compression: 'none') => Promise<Blob> } }
	return Buffer.from(await (await $client.dumpDataDir('none')).arrayBuffer())
}

function hashFiles(hash: ReturnType<typeof createHash>, files: string[]) {
	for (const file of files.filter((name) => fs.statSync(name).isFile()).sort()) hash.update(path.relative(root, file)).update(fs.readFileSync(file))
	return hash
}

const under = (folder: string) => fs.readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' }).map((name) => path.join(root, folder, name))

/** A hash of everything the migrated template is made of: another migration, version or opening code makes another. */
function migratedTemplateKey() {
	const files = [
		...under('app/db/migrations'),
		...['node_modules/@electric-sql/pglite/package.json', 'app/db/db.server.ts', 'app/db/migrate.server.ts', 'tests/setup/database-template.ts'].map((name) => path.join(root, name)),
	]
	return hashFiles(createHash('sha256'), files).digest('hex').slice(0, 16)
}

/**
 * A hash of everything the demo template is made of: the migrated template's, the loader and every
 * module of ours it imports (esbuild follows the imports, as the app's build does), the dictionaries
 * it reads, the packages' versions (package-lock.json: sharp draws the pictures), and the day.
 */
async function demoTemplateKey(migratedKey: string, day: string) {
	const { metafile } = await build({
		entryPoints: [path.join(root, 'app/db/seed/demo-data.server.ts')],
		absWorkingDir: root,
		bundle: true,
		write: false,
		metafile: true,
		platform: 'node',
		format: 'esm',
		packages: 'external',
		logLevel: 'silent',
		outdir: path.join(os.tmpdir(), 'autohub-demo-key'),
	})
	const modules = Object.keys(metafile.inputs).map((name) => path.join(root, name))
	const hash = createHash('sha256').update(migratedKey).update(day)
	return hashFiles(hash, [...modules, ...under('locales'), path.join(root, 'package-lock.json')]).digest('hex').slice(0, 16)
}

/**
 * Runs the migrations on the database the given variables name, with the app's code, then `then`
 * on its connection; the test runner's own environment is left as it was.
 */
async function migrateWith(
	variables: Record<string, string | undefined>,
	then: (connection: { db: unknown }) => Promise<void>,
) {
	const names = [...Object.keys(variables), 'NODE_ENV', 'LOG_LEVEL', 'SEED_DEMO_DATA']
	const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]))
	const set = (values: Record<string, string | undefined>) => {
		for (const [name, value] of Object.entries(values)) {
			if (value === undefined) delete process.env[name]
			else process.env[name] = value
		}
	}
	set({ ...variables, NODE_ENV: 'test', LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', SEED_DEMO_DATA: 'false' })
	const { resetEnvCache } = await import('~/utils/env.server')
	const { closeDatabase, getConnection } = await import('~/db/db.server')
	const { migrateDatabase } = await import('~/db/migrate.server')
	try {
		resetEnvCache()
		await migrateDatabase()
		await then(getConnection())
	} finally {
		await closeDatabase()
		set(saved)
		resetEnvCache()
	}
}

async function withServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: serverUrl })
	await client.connect()
	try {
		return await work(client)
	} finally {
		await client.end()
	}
}
