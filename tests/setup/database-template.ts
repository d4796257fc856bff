/**
 * Vitest globalSetup of the suites with a database (integration, fuzz): migrates ONE template
 * database per run, and tests/setup/database.ts gives every test file a copy of it instead of
 * running all migrations on a new database once per file (docs/decisions/0076).
 *   On a PostgreSQL server (TEST_DATABASE_URL): a database `autohub_template_<run>`, which each
 *   file clones with CREATE DATABASE … TEMPLATE, and which is dropped when the run ends.
 *   On embedded PGlite: a migrated in-memory database dumped to a tarball (`dumpDataDir`), which
 *   each file's in-memory database is loaded from (`loadDataDir`). The tarball is kept in
 *   tests/.tmp under a hash of what makes it (the migrations, PGlite's version, the code that opens
 *   and migrates), so the next run (the fuzz suite after the integration tests) finds it ready.
 * Both are made by the app's own code (db.server, migrate.server), as a test file's database was,
 * and each file's setup still runs the migrations: on a copy of the template they find nothing to do.
 *   Beside it, a second template holds the demo data too (and its pictures, in a folder): a file
 * that asks for the demo data (`demoData()`, tests/support/demo-data.ts) moves to a copy of it
 * instead of loading the data itself (about 25 s a file on PGlite, decision 0109). It is made
 * anew each run: the demo data's days are counted from the day it is loaded.
 */
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
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

export default async function setup(project: TestProject) {
	const run = randomUUID().replace(/-/g, '').slice(0, 12)
	if (serverUrl) {
		const name = `autohub_template_${run}`
		await withServer((client) => client.query(`create database "${name}"`))
		const url = new URL(serverUrl)
		url.pathname = `/${name}`
		await migrateWith({ DATABASE_URL: url.toString(), DATA_DIR: path.join(os.tmpdir(), name) }, async () => {})
		// No one may connect to it from now on: a clone fails while anyone is connected to its template.
		await withServer((client) => client.query(`alter database "${name}" with is_template true allow_connections false`))
		project.provide('databaseTemplate', { kind: 'postgres', name })

		const demo = `autohub_demo_${run}`
		const demoDataDir = path.join(os.tmpdir(), demo)
		await withServer((client) => client.query(`create database "${demo}" template "${name}"`))
		url.pathname = `/${demo}`
		await migrateWith({ DATABASE_URL: url.toString(), DATA_DIR: demoDataDir }, loadDemo)
		await withServer((client) => client.query(`alter database "${demo}" with is_template true allow_connections false`))
		project.provide('demoTemplate', { kind: 'postgres', name: demo, files: path.join(demoDataDir, 'uploads') })
		return async () => {
			await withServer(async (client) => {
				for (const database of [demo, name]) {
					await client.query(`alter database "${database}" with is_template false`)
					await client.query(`drop database if exists "${database}" with (force)`)
				}
			})
			fs.rmSync(demoDataDir, { recursive: true, force: true })
		}
	}

	const folder = path.join(root, 'tests/.tmp')
	const tarball = path.join(folder, `pglite-template-${pgliteTemplateKey()}.tar`)
	if (!fs.existsSync(tarball)) {
		await migrateWith({ DATABASE_URL: undefined, DATA_DIR: `memory://autohub_template_${run}` }, async (connection) => {
			const { $client } = connection.db as unknown as { $client: { dumpDataDir: (compression: 'none') => Promise<Blob> } }
			const dump = Buffer.from(await (await $client.dumpDataDir('none')).arrayBuffer())
			fs.mkdirSync(folder, { recursive: true })
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

	// The demo template: a copy of the migrated one with the demo data, dumped, and its pictures.
	const demo = `autohub_demo_${run}`
	const demoTarball = path.join(folder, `${demo}.tar`)
	const { startEmbeddedDatabasesFrom } = await import('~/db/db.server')
	const { storageRoot } = await import('~/uploads/file-store.server')
	let files = ''
	startEmbeddedDatabasesFrom(new Blob([fs.readFileSync(tarball)]))
	try {
		await migrateWith({ DATABASE_URL: undefined, DATA_DIR: `memory://${demo}` }, async (connection) => {
			await loadDemo()
			files = storageRoot()
			const { $client } = connection.db as unknown as { $client: { dumpDataDir: (compression: 'none') => Promise<Blob> } }
			fs.writeFileSync(demoTarball, Buffer.from(await (await $client.dumpDataDir('none')).arrayBuffer()))
		})
	} finally {
		startEmbeddedDatabasesFrom(undefined)
	}
	project.provide('demoTemplate', { kind: 'pglite', tarball: demoTarball, files })
	return () => {
		fs.rmSync(demoTarball, { force: true })
		fs.rmSync(files, { recursive: true, force: true })
	}
}

/** The demo data, loaded by the app's own loader into the database the environment names. */
async function loadDemo() {
	const { loadDemoData } = await import('~/db/seed/demo-data.server')
	await loadDemoData()
}

/** A hash of everything the PGlite template is made of: another migration, version or opening code makes another. */
function pgliteTemplateKey() {
	const hash = createHash('sha256')
	const migrations = path.join(root, 'app/db/migrations')
	const files = [
		...fs.readdirSync(migrations, { recursive: true, encoding: 'utf8' }).map((name) => path.join(migrations, name)),
		...['node_modules/@electric-sql/pglite/package.json', 'app/db/db.server.ts', 'app/db/migrate.server.ts'].map((name) => path.join(root, name)),
	]
	for (const file of files.filter((name) => fs.statSync(name).isFile()).sort()) hash.update(path.relative(root, file)).update(fs.readFileSync(file))
	return hash.digest('hex').slice(0, 16)
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

async function withServer(work: (client: pg.Client) => Promise<unknown>) {
	const client = new pg.Client({ connectionString: serverUrl })
	await client.connect()
	try {
		await work(client)
	} finally {
		await client.end()
	}
}
