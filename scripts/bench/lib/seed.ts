import type pg from 'pg'

/**
 * A seeding session: foreign-key triggers off (the data is consistent by construction), no
 * waiting for the disk on commit, and a `step` that runs one statement and logs how long it took.
 */
export async function seedingSession(client: pg.Client, log: (message: string) => void) {
	await client.query('set session_replication_role = replica')
	await client.query('set synchronous_commit = off')
	await client.query("set maintenance_work_mem = '256MB'")
	return async function step(message: string, statement: string) {
		const started = Date.now()
		await client.query(statement)
		log(`${message} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
	}
}
